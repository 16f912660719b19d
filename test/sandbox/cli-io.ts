// Shared by the `spade env` command tests: real in-memory streams for envCommand, and a valid and an invalid
// environment file.
import { PassThrough } from 'node:stream';
import { repoPath } from '../../runtime/paths.js';

export function io(input = '') {
  const stdin = new PassThrough();
  stdin.end(input);
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d: Buffer) => (out += d.toString()));
  stderr.on('data', (d: Buffer) => (err += d.toString()));
  // A generous call budget: these tests check the command, not the time limit, on a machine shared with others.
  return { streams: { stdin, stdout, stderr, sandbox: { callTimeoutMs: 500 } }, out: () => out, err: () => err };
}

export const valid = repoPath('test', 'fixtures', 'sum-to-target.js');

export const invalid = repoPath('test', 'fixtures', 'hostile', 'reward-nan.js');
