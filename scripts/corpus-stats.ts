// Prints what a corpus holds: documents, chunks and characters per source and per kind, mean document length,
// file sizes and load time; ends with one JSON line. Usage: node dist/scripts/corpus-stats.js [path ...]
import { statSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { listCorpusFiles, openCorpus } from '../corpus/index.js';

interface Row {
  docs: number;
  chunks: number;
  chars: number;
}

async function main(): Promise<void> {
  const paths = process.argv.slice(2);
  const t0 = performance.now();
  const corpus = await openCorpus(paths.length ? { paths } : {});
  const loadMs = performance.now() - t0;
  const bySource = new Map<string, Row>();
  const byKind = new Map<string, Row>();
  const licenses = new Map<string, string>();
  const add = (m: Map<string, Row>, k: string, chunk: { index: number }, docChars: number): void => {
    const r = m.get(k) ?? { docs: 0, chunks: 0, chars: 0 };
    r.chunks++;
    if (chunk.index === 0) (r.docs++, (r.chars += docChars));
    m.set(k, r);
  };
  for (const c of corpus) {
    const source = String(c.meta.source ?? '(none)');
    const chars = c.index === 0 ? corpus.documentText(c.docId)!.length : 0;
    add(bySource, source, c, chars);
    add(byKind, String(c.meta.kind ?? '(none)'), c, chars);
    licenses.set(source, String(c.meta.license ?? '(none)'));
  }
  const bytes = listCorpusFiles(corpus.options.paths).reduce((a, f) => a + statSync(f).size, 0);
  const table = (title: string, m: Map<string, Row>, extra?: (k: string) => string): void => {
    console.log(`\n${title.padEnd(18)} ${'docs'.padStart(6)} ${'chunks'.padStart(7)} ${'chars'.padStart(10)} ${'mean'.padStart(6)}`);
    for (const [k, r] of [...m].sort((a, b) => b[1].chars - a[1].chars)) {
      console.log(`${k.padEnd(18)} ${String(r.docs).padStart(6)} ${String(r.chunks).padStart(7)} ${String(r.chars).padStart(10)} ${String(Math.round(r.chars / r.docs)).padStart(6)}  ${extra?.(k) ?? ''}`);
    }
  };
  const s = corpus.stats;
  console.log(`corpus: ${s.files} files, ${(bytes / 1e6).toFixed(2)} MB on disk, loaded in ${loadMs.toFixed(0)} ms`);
  console.log(`documents ${corpus.documentCount} (dropped short ${s.short}, skipped ${s.skipped}), chunks ${corpus.size} ` +
    `(chunkChars ${corpus.options.chunkChars}, overlap ${corpus.options.chunkOverlap}), chars ${s.chars}, mean ${Math.round(s.chars / corpus.documentCount)}`);
  table('source', bySource, (k) => licenses.get(k)!);
  table('kind', byKind);
  console.log(JSON.stringify({
    files: s.files, bytes, documents: corpus.documentCount, chunks: corpus.size, chars: s.chars,
    meanChars: Math.round(s.chars / corpus.documentCount), loadMs: Math.round(loadMs),
    bySource: Object.fromEntries(bySource), byKind: Object.fromEntries(byKind),
  }));
}

await main();
