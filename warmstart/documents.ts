// Grounding documents for designer prompts: the shipped corpus when it is present, else a stand-in cut from the
// project's own docs/*.md (switchable, so the warm start runs before and after the corpus lands).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { defaultCorpusPaths, openCorpus, type CorpusOptions } from '../corpus/index.js';
import { repoPath } from '../runtime/paths.js';

export type DocumentSourceKind = 'auto' | 'corpus' | 'stand-in';

export interface DocumentSource {
  /** 'corpus' or 'stand-in': what was actually used. */
  kind: 'corpus' | 'stand-in';
  size: number;
  /** Draws one document chunk; `random` returns floats in [0, 1). */
  sample(random: () => number): { id: string; text: string };
}

/** Paragraph-sized chunks (>= 200 characters) of docs/*.md. */
export function standInDocuments(dir = repoPath('docs')): DocumentSource {
  const chunks: { id: string; text: string }[] = [];
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.md')).sort()) {
    let buf = '', n = 0;
    for (const para of readFileSync(`${dir}/${f}`, 'utf8').split(/\n\s*\n/)) {
      buf = buf ? `${buf}\n\n${para}` : para;
      if (buf.length >= 200) (chunks.push({ id: `${f}#${n++}`, text: buf.slice(0, 2000) }), (buf = ''));
    }
  }
  return { kind: 'stand-in', size: chunks.length, sample: (random) => chunks[Math.floor(random() * chunks.length)]! };
}

/** 'auto' takes the shipped corpus when its directory exists, else the stand-in. */
export async function openDocuments(kind: DocumentSourceKind = 'auto', corpus: CorpusOptions = {}): Promise<DocumentSource> {
  const paths = corpus.paths ?? defaultCorpusPaths();
  if (kind === 'stand-in' || (kind === 'auto' && !paths.some((p) => existsSync(p)))) return standInDocuments();
  const c = await openCorpus({ ...corpus, paths });
  return { kind: 'corpus', size: c.size, sample: (random) => { const ch = c.sample(random); return { id: ch.id, text: ch.text }; } };
}
