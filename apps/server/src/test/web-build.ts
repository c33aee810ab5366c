import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { WEB_DIST } from '../app.ts';

/**
 * The built web app (npm run build: Vite's output and the .br/.gz files written beside it), built here
 * when missing or older than the compression step, so a suite that serves it stands alone.
 */
export function ensureWebBuilt(): void {
  if (
    existsSync(path.join(WEB_DIST, 'index.html.br')) &&
    existsSync(path.join(WEB_DIST, 'primera/paginas.json'))
  )
    return;
  execFileSync('npm', ['run', 'build', '-w', '@portal/web'], {
    cwd: path.resolve(WEB_DIST, '../../..'),
    stdio: 'ignore',
    timeout: 240_000,
  });
}
