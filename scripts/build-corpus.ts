// Rebuilds the shipped corpus (corpus/default/<source>.jsonl.gz) from pinned Debian packages, reproducibly:
// download (apt-get download pkg=version), unpack (dpkg-deb -x), extract, clean, dedupe, budget, gzip.
// Usage: node dist/scripts/build-corpus.js [--cache DIR] [--out DIR] [--licenses DIR] [--only name,name]
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { SOURCES, type RawDoc, type SourceDef } from '../corpus/build/sources.js';
import { tidy } from '../corpus/build/html-text.js';
import { chunkText } from '../corpus/index.js';
import { repoPath } from '../runtime/paths.js';

const MIN_CHARS = 300;
const MIN_LETTER_RATIO = 0.5;
const MAX_DOC_CHARS = 12_000;
const PART_CHARS = 6_000;

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

/** The unpacked package tree, downloading and unpacking on first use. */
function unpacked(cache: string, s: SourceDef): string {
  const root = join(cache, 'x', `${s.pkg}_${s.version.replace(/:/g, '%3a')}`);
  if (existsSync(root)) return root;
  const debName = `${s.pkg}_${s.version.replace(/:/g, '%3a')}_all.deb`;
  mkdirSync(cache, { recursive: true });
  if (!readdirSync(cache).includes(debName)) {
    execFileSync('apt-get', ['download', `${s.pkg}=${s.version}`], { cwd: cache, stdio: 'inherit' });
  }
  mkdirSync(root, { recursive: true });
  execFileSync('dpkg-deb', ['-x', join(cache, debName), root]);
  return root;
}

/** NFC, no control characters but newline, tabs as spaces, tidy whitespace. */
export function normalise(text: string): string {
  return tidy(text.normalize('NFC').replace(/\t/g, '    ').replace(/[\u0000-\u0008\u000b-\u001f\u007f\u200b\ufeff]/g, '').replace(/\u00a0/g, ' '));
}

function useful(text: string): boolean {
  if (text.length < MIN_CHARS) return false;
  const visible = text.replace(/\s+/g, '');
  const letters = visible.replace(/[^\p{L}]/gu, '').length;
  return letters / visible.length >= MIN_LETTER_RATIO && text.split(/\s+/).length >= 40;
}

/** Very long sections (single-page manuals) become parts of at most PART_CHARS, cut at paragraph boundaries. */
function splitLong(d: RawDoc): RawDoc[] {
  if (d.text.length <= MAX_DOC_CHARS) return [d];
  return chunkText(d.text, { chunkChars: PART_CHARS, chunkOverlap: 0, minChars: 1000 })
    .map((text, i) => ({ ...d, key: `${d.key}/part-${i + 1}`, title: `${d.title} (part ${i + 1})`, text }));
}

/** License texts shipped with the data: each package's Debian copyright file, and the common licenses they cite. */
const COMMON_LICENSES = ['GPL-2', 'GFDL-1.3', 'Apache-2.0'];

function copyLicenses(cache: string, s: SourceDef, dir: string): void {
  mkdirSync(join(dir, 'common'), { recursive: true });
  copyFileSync(join(unpacked(cache, s), 'usr/share/doc', s.pkg, 'copyright'), join(dir, `${s.name}.copyright`));
  for (const l of COMMON_LICENSES) copyFileSync(join('/usr/share/common-licenses', l), join(dir, 'common', l));
}

const hash = (s: string): string => createHash('sha256').update(s).digest('hex');

function build(s: SourceDef, cache: string, seen: Set<string>): { docs: Record<string, unknown>[]; dropped: Record<string, number> } {
  const dropped = { short: 0, duplicate: 0, budget: 0 };
  const keys = new Set<string>();
  const kept: (RawDoc & { order: number })[] = [];
  s.extract(unpacked(cache, s)).flatMap(splitLong).forEach((d, order) => {
    const text = normalise(d.text);
    if (!useful(text)) return void dropped.short++;
    const fingerprint = hash(text.toLowerCase().replace(/\s+/g, ' '));
    if (seen.has(fingerprint)) return void dropped.duplicate++;
    seen.add(fingerprint);
    let key = d.key.replace(/#/g, '%23').replace(/\s+/g, '_');
    for (let n = 2; keys.has(key); n++) key = `${d.key}~${n}`;
    keys.add(key);
    kept.push({ ...d, key, text, title: normalise(d.title).slice(0, 200), order });
  });
  // Over budget: keep a seeded pseudo-random subset (stable under reordering of the inputs), in source order.
  const byLot = [...kept].sort((a, b) => (hash(`${s.name}/${a.key}`) < hash(`${s.name}/${b.key}`) ? -1 : 1));
  let chars = 0;
  const chosen = new Set<RawDoc>();
  for (const d of byLot) {
    if (chars + d.text.length > s.maxChars) {
      dropped.budget++;
      continue;
    }
    chars += d.text.length;
    chosen.add(d);
  }
  const docs = kept.filter((d) => chosen.has(d)).map((d) => ({
    id: `${s.name}/${d.key}`, title: d.title, text: d.text, source: s.name, kind: d.kind, license: s.license,
  }));
  return { docs, dropped };
}

function main(): void {
  const cache = arg('--cache', '/tmp/spade-corpus-src');
  const out = arg('--out', repoPath('corpus', 'default'));
  const only = arg('--only', '').split(',').filter(Boolean);
  const licenses = arg('--licenses', repoPath('corpus', 'licenses'));
  mkdirSync(out, { recursive: true });
  const seen = new Set<string>();
  const rows: string[] = [];
  for (const s of SOURCES) {
    if (only.length && !only.includes(s.name)) continue;
    const { docs, dropped } = build(s, cache, seen);
    copyLicenses(cache, s, licenses);
    const body = Buffer.from(docs.map((d) => JSON.stringify(d)).join('\n') + '\n');
    const gz = gzipSync(body, { level: 9 });
    writeFileSync(join(out, `${s.name}.jsonl.gz`), gz);
    const kinds = Object.entries(docs.reduce<Record<string, number>>((a, d) => ((a[d.kind as string] = (a[d.kind as string] ?? 0) + 1), a), {}))
      .map(([k, n]) => `${k}=${n}`).join(' ');
    rows.push(`${s.name.padEnd(18)} ${String(docs.length).padStart(6)} docs ${(body.length / 1e6).toFixed(2).padStart(6)} MB raw ${(gz.length / 1e6).toFixed(2).padStart(5)} MB gz  ${kinds}  dropped ${JSON.stringify(dropped)}`);
    console.log(rows[rows.length - 1]);
  }
}

main();
