// Turns corpus paths into the list of JSONL files to read (directories walked for *.jsonl and *.jsonl.gz, in a
// stable order) and streams one file's lines, gunzipping .gz files on the way.
import { createReadStream, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { repoPath } from '../runtime/paths.js';
import { CorpusFileError } from './errors.js';

/** The corpus shipped with the repository (see corpus/SOURCES.md). */
export function defaultCorpusPaths(): string[] {
  return [repoPath('corpus', 'default')];
}

const JSONL = /\.jsonl(\.gz)?$/;

/** Expands files and directories into a sorted, deduplicated list of JSONL files; a named file is taken whatever its name. */
export function listCorpusFiles(paths: readonly string[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const add = (f: string): void => {
    if (!seen.has(f)) (seen.add(f), out.push(f));
  };
  for (const p of paths) {
    const st = statSync(p, { throwIfNoEntry: false });
    if (!st) throw new CorpusFileError(p, 'no such file or directory');
    if (st.isFile()) add(p);
    else if (st.isDirectory()) for (const f of walk(p)) add(f);
    else throw new CorpusFileError(p, 'not a file or directory');
  }
  return out;
}

function walk(dir: string): string[] {
  const files: string[] = [];
  const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    if (e.name.startsWith('.')) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) files.push(...walk(p));
    else if (e.isFile() && JSONL.test(e.name)) files.push(p);
  }
  return files;
}

/**
 * Yields the lines of one file without loading it whole. Gzip is detected by the .gz suffix; a corrupt or
 * unreadable file throws CorpusFileError (lines already yielded stay yielded).
 */
export async function* readLines(file: string): AsyncGenerator<string> {
  const raw = createReadStream(file);
  const input = file.endsWith('.gz') ? raw.pipe(createGunzip()) : raw;
  let failure: unknown;
  const onError = (err: unknown): void => {
    failure ??= err;
    input.destroy();
  };
  raw.on('error', onError);
  input.on('error', onError);
  const rl = createInterface({ input, crlfDelay: Infinity });
  try {
    for await (const line of rl) yield line;
  } catch (err) {
    failure ??= err;
  } finally {
    rl.close();
    raw.destroy();
  }
  if (failure !== undefined) {
    const what = file.endsWith('.gz') ? 'cannot be read as gzip' : 'cannot be read';
    throw new CorpusFileError(file, `${what}: ${(failure as Error).message ?? String(failure)}`, failure);
  }
}
