// Runs the real `spade` CLI entry (runtime/spade.js, the compiled build) in a child process.
import { execFile } from 'node:child_process';
import { repoPath } from '../../../runtime/paths.js';

export function spadeCli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [repoPath('runtime/spade.js'), ...args], { cwd: repoPath(), maxBuffer: 1 << 24 }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}
