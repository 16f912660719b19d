// Content hash of environment code: the key of every cache and of every step request.
import { createHash } from 'node:crypto';

export function codeHash(code: string): string {
  return createHash('sha256').update(code, 'utf8').digest('hex');
}
