// `npm run dev`: the API in watch mode on :3000 and the Vite dev server (with an /api proxy) on :5173.
import { spawn } from 'node:child_process';

const children = [
  spawn('npm', ['run', 'dev', '-w', '@portal/server'], { stdio: 'inherit', env: { ...process.env } }),
  spawn('npm', ['run', 'dev', '-w', '@portal/web'], { stdio: 'inherit', env: { ...process.env } }),
];
let stopping = false;
const stop = (code = 0) => {
  if (stopping) return;
  stopping = true;
  for (const child of children) child.kill('SIGTERM');
  setTimeout(() => process.exit(code), 500);
};
for (const child of children) child.on('exit', (code) => stop(code ?? 0));
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
