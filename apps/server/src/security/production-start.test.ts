import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inArray } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/client.ts';
import { users } from '../db/schema/index.ts';
import { DEMO_USUARIOS, demoSeedWanted } from '../startup.ts';

const SERVER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

interface Started {
  proc: ChildProcess;
  output: () => string;
  port: number;
}

/** The real server entry point as `npm start` runs it, on an embedded database in a new directory. */
async function start(env: Record<string, string>): Promise<Started> {
  const port = await freePort();
  let output = '';
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: SERVER_DIR,
    env: { PATH: process.env.PATH ?? '', PORT: String(port), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  proc.stdout!.on('data', (d) => {
    output += String(d);
  });
  proc.stderr!.on('data', (d) => {
    output += String(d);
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no arrancó:\n${output}`)), 60_000);
    const check = () => {
      if (output.includes('Portal de Compras listo')) {
        clearTimeout(timer);
        resolve();
      }
    };
    proc.stdout!.on('data', check);
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`terminó con ${code}:\n${output}`));
    });
  });
  return { proc, output: () => output, port };
}

async function stop(s: Started): Promise<void> {
  if (s.proc.exitCode !== null) return;
  const exited = new Promise((r) => s.proc.once('exit', r));
  s.proc.kill('SIGTERM');
  await exited;
}

async function demoUsers(dataDir: string) {
  const database = await openDatabase({ dataDir });
  try {
    return await database.db
      .select({ usuario: users.usuario, temporal: users.passwordTemporary })
      .from(users)
      .where(inArray(users.usuario, [...DEMO_USUARIOS]));
  } finally {
    await database.close();
  }
}

describe('demo data on start', () => {
  it('is created on the laptop (development, embedded) and never in production unless asked', () => {
    expect(demoSeedWanted({ NODE_ENV: 'development', SEED_DEMO: undefined }, 'pglite', [])).toBe(true);
    expect(demoSeedWanted({ NODE_ENV: 'development', SEED_DEMO: false }, 'pglite', [])).toBe(false);
    expect(demoSeedWanted({ NODE_ENV: 'development', SEED_DEMO: undefined }, 'postgres', [])).toBe(false);
    expect(demoSeedWanted({ NODE_ENV: 'production', SEED_DEMO: undefined }, 'pglite', [])).toBe(false);
    expect(demoSeedWanted({ NODE_ENV: 'production', SEED_DEMO: undefined }, 'postgres', [])).toBe(false);
    expect(demoSeedWanted({ NODE_ENV: 'production', SEED_DEMO: true }, 'pglite', [])).toBe(true);
    expect(demoSeedWanted({ NODE_ENV: 'production', SEED_DEMO: undefined }, 'pglite', ['--seed-demo'])).toBe(
      true,
    );
  });
});

describe('a production start of the real server (embedded database)', () => {
  const dirs: string[] = [];
  const newDir = () => {
    const d = mkdtempSync(path.join(tmpdir(), 'portal-arranque-'));
    dirs.push(d);
    return d;
  };
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  const production = { NODE_ENV: 'production', SECRET_KEY: 'clave-de-prueba-del-arranque-0123456789' };

  /** A start that the configuration stops: its exit code and what it wrote to stderr. */
  async function refusedStart(env: Record<string, string>): Promise<{ code: unknown; err: string }> {
    const proc = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      cwd: SERVER_DIR,
      env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production', DATA_DIR: newDir(), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    proc.stderr!.on('data', (d) => {
      err += String(d);
    });
    const code = await new Promise((r) => proc.once('exit', r));
    return { code, err };
  }

  it('refuses to start without SECRET_KEY', async () => {
    const { code, err } = await refusedStart({});
    expect(code).toBe(1);
    expect(err).toContain('SECRET_KEY: es obligatoria en producción');
  });

  it('refuses to start with a previous key that is too short (SECRET_KEY_PREVIOUS), naming it', async () => {
    const { code, err } = await refusedStart({
      ...production,
      SECRET_KEY_PREVIOUS: `${'a'.repeat(40)},corta`,
    });
    expect(code).toBe(1);
    expect(err).toContain('SECRET_KEY_PREVIOUS: cada clave anterior debe tener al menos 32 caracteres');
    expect(err).not.toContain('a'.repeat(40));
  });

  it('refuses to start with metrics open to the network and no token, saying what to set', async () => {
    const { code, err } = await refusedStart({
      ...production,
      METRICS_PORT: String(await freePort()),
      METRICS_HOST: '0.0.0.0',
    });
    expect(code).toBe(1);
    expect(err).toContain(
      'METRICS_TOKEN: es obligatorio en producción cuando las métricas escuchan fuera de este equipo (METRICS_HOST=0.0.0.0); define METRICS_TOKEN',
    );
  });

  it('creates no demo accounts, listens on 127.0.0.1 only, and answers', async () => {
    const dataDir = newDir();
    const s = await start({ ...production, DATA_DIR: dataDir });
    try {
      expect(s.output()).toContain(`escuchando en 127.0.0.1:${s.port}`);
      expect(s.output()).not.toContain('Accesos de demostración');
      expect(s.output()).not.toContain('ATENCIÓN');
      const res = await fetch(`http://127.0.0.1:${s.port}/healthz`);
      expect(res.status).toBe(200);
    } finally {
      await stop(s);
    }
    expect(await demoUsers(dataDir)).toEqual([]);
  });

  it('with SEED_DEMO=1: demo accounts with temporary passwords, and a loud warning', async () => {
    const dataDir = newDir();
    const s = await start({ ...production, DATA_DIR: dataDir, SEED_DEMO: '1' });
    try {
      expect(s.output()).toContain('ATENCIÓN: existen cuentas de demostración');
      expect(s.output()).toContain('Esta instancia corre en producción');
    } finally {
      await stop(s);
    }
    const found = await demoUsers(dataDir);
    expect(found.map((u) => u.usuario)).toContain('admin');
    expect(found.every((u) => u.temporal)).toBe(true);
  });
});
