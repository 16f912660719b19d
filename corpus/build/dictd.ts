// Reads a dictd database (word.index + word.dict.dz, dictzip being gzip-compatible) into its entries: each
// distinct (offset, length) of the index is one entry, with every headword that points at it.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

export interface DictEntry {
  headwords: string[];
  text: string;
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function b64Number(s: string): number {
  let n = 0;
  for (const c of s) n = n * 64 + B64.indexOf(c);
  return n;
}

/** Entries in dictionary order; the 00-database-* meta entries are left out. */
export function readDictd(indexFile: string, dictFile: string): DictEntry[] {
  const data = dictFile.endsWith('.dz') ? gunzipSync(readFileSync(dictFile)) : readFileSync(dictFile);
  const byOffset = new Map<string, DictEntry>();
  for (const line of readFileSync(indexFile, 'utf8').split('\n')) {
    const [word, off, len] = line.split('\t');
    if (!word || !off || !len || word.startsWith('00-database') || word.startsWith('00database')) continue;
    const key = `${off}:${len}`;
    const entry = byOffset.get(key);
    if (entry) {
      entry.headwords.push(word);
      continue;
    }
    const start = b64Number(off);
    const text = data.subarray(start, start + b64Number(len)).toString('utf8');
    byOffset.set(key, { headwords: [word], text });
  }
  return [...byOffset.values()];
}

/** Removes the indentation all non-blank lines share and trailing spaces. */
export function dedent(text: string): string {
  const lines = text.replace(/\r/g, '').split('\n').map((l) => l.replace(/\s+$/, ''));
  const indents = lines.filter((l) => l.trim()).map((l) => /^ */.exec(l)![0].length);
  const cut = indents.length ? Math.min(...indents) : 0;
  return lines.map((l) => l.slice(cut)).join('\n').replace(/\n{3,}/g, '\n\n').trim();
}
