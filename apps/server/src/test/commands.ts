import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** apps/server: where the operator's commands run from (npm -w). */
export const SERVER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Runs an operator's command (src/cli/<name>.ts) as its own process: exit code, stdout, stderr. */
export function runCommand(
  name: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', `src/cli/${name}.ts`, ...args], {
    cwd: SERVER_DIR,
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  proc.stdout!.on('data', (d) => {
    stdout += String(d);
  });
  proc.stderr!.on('data', (d) => {
    stderr += String(d);
  });
  return new Promise((resolve) => proc.once('exit', (code) => resolve({ code, stdout, stderr })));
}
