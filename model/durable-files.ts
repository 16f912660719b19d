// Durable file writes for checkpoints and the learner's state: a directory replaced whole or not at all, a new file
// written and fsynced, and fsync of a file or a directory's entries.
import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { CheckpointError } from './errors.js';

/**
 * Writes a directory whole or not at all: `fill` writes into a fresh sibling, which is synced and renamed over `dir`.
 * A directory cannot be renamed over a non-empty one, so an existing `dir` is moved aside first: at every moment one
 * complete copy exists under `dir` or the aside name. Failures are CheckpointErrors naming `what`.
 */
export async function replaceDirectory(dir: string, what: string, fill: (tmp: string) => Promise<void>, o: { recursive?: boolean } = {}): Promise<void> {
  const tmp = join(dirname(dir), `.${basename(dir)}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    await mkdir(tmp, { recursive: o.recursive ?? false });
    await fill(tmp);
    await syncPath(tmp);
    if ((await stat(dir).catch(() => undefined)) === undefined) {
      await rename(tmp, dir);
    } else {
      const old = join(dirname(dir), `.${basename(dir)}.old-${process.pid}-${randomBytes(4).toString('hex')}`);
      await rename(dir, old);
      await rename(tmp, dir);
      await rm(old, { recursive: true, force: true });
    }
    await syncPath(dirname(dir));
  } catch (cause) {
    await rm(tmp, { recursive: true, force: true });
    if (cause instanceof CheckpointError) throw cause;
    throw new CheckpointError(`cannot write ${what}: ${(cause as Error).message}`, { code: 'CHECKPOINT_WRITE', cause });
  }
}

/** Writes a new file (it must not exist) and fsyncs it. */
export async function writeDurably(path: string, data: Uint8Array | string): Promise<void> {
  const fh = await open(path, 'wx');
  try {
    await fh.writeFile(data);
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/** fsync of a file or directory (a directory's entries: renames and new files in it). */
export async function syncPath(path: string): Promise<void> {
  const fh = await open(path, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}
