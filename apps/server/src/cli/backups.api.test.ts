import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Config, loadConfig } from '../config.ts';
import { type Database, openDatabase, runMigrations } from '../db/client.ts';
import { orderEvents, orderLines, orders } from '../db/schema/index.ts';
import { insertPreparedFiles, readFile } from '../lib/files.ts';
import { runCommand, SERVER_DIR } from '../test/commands.ts';
import { pgliteOnDisk } from '../test/databases.ts';
import { makeCategory, makeClient, makeOrder, makeProduct, makeUser } from '../test/factories.ts';
import { DB_KINDS } from '../test/harness.ts';
import { describeDb, type Manifest, restoreBackup, takeBackup } from './backups.ts';

/** Where a database lives for these tests: a PostgreSQL database of its own, or a PGlite directory. */
interface Place {
  config: Config;
  open(): Promise<Database>;
  drop(): Promise<void>;
}

async function postgresPlace(): Promise<Place> {
  const base = process.env.TEST_DATABASE_URL!;
  const name = `portal_respaldo_${Date.now()}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    config: loadConfig({ NODE_ENV: 'test', DATABASE_URL: url.toString() }),
    open: () => openDatabase({ databaseUrl: url.toString(), poolSize: 2 }),
    drop: async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

async function pglitePlace(dirs: string[]): Promise<Place> {
  const dir = mkdtempSync(path.join(tmpdir(), 'portal-respaldo-'));
  dirs.push(dir);
  return {
    config: loadConfig({ NODE_ENV: 'test', DATA_DIR: dir }),
    open: () => openDatabase({ dataDir: dir }),
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A migrated source with an order (lines, an event) and an uploaded file; what to compare afterwards. */
async function seed(place: Place, kind: 'pglite' | 'postgres') {
  let database: Database;
  if (kind === 'pglite') {
    database = await pgliteOnDisk(place.config.dataDir);
  } else {
    database = await place.open();
    await runMigrations(database);
  }
  const db = database.db;
  const client = await makeClient(db);
  const user = await makeUser(db, { rol: 1, idCliente: client.id });
  const category = await makeCategory(db, client.id);
  const product = await makeProduct(db, { idCliente: client.id, idCategoria: category.id, precio: 12_345 });
  const order = await makeOrder(db, {
    idUser: user.id,
    idCliente: client.id,
    lines: [
      { productId: product.id, precio: 12_345, cantidad: 3, idCategoria: category.id },
      { productId: product.id, precio: 500, cantidad: 1, idCategoria: category.id },
    ],
  });
  await db
    .insert(orderEvents)
    .values({ orderId: order.id, actorId: user.id, tipo: 'creado', toStatus: 'pendiente' });
  // Two parts of a stored file (FILE_PART_BYTES is 256 kB): both travel with the backup.
  const bytes = randomBytes(300_000);
  const fileSha = createHash('sha256').update(bytes).digest('hex');
  const fileId = `${fileSha}.png`;
  await insertPreparedFiles(db, [
    { id: fileId, idCliente: client.id, kind: 'imagen', mime: 'image/png', size: bytes.length, data: bytes },
  ]);
  return { database, orderId: order.id, fileId, fileSha };
}

async function sample(database: Database, orderId: number, fileId: string) {
  const db = database.db;
  const [order] = await db.select().from(orders).where(eq(orders.id, orderId));
  const lines = await db
    .select()
    .from(orderLines)
    .where(eq(orderLines.orderId, orderId))
    .orderBy(orderLines.id);
  const events = await db
    .select()
    .from(orderEvents)
    .where(eq(orderEvents.orderId, orderId))
    .orderBy(orderEvents.id);
  const file = await readFile(db, fileId);
  return {
    order,
    lines,
    events,
    file: file && { ...file, data: createHash('sha256').update(file.data).digest('hex') },
  };
}

/** The archive's members rewritten by GNU tar after `change` edits the unpacked manifest. */
function rewriteManifest(archive: string, out: string, change: (m: Manifest) => void) {
  const dir = mkdtempSync(path.join(tmpdir(), 'portal-manifiesto-'));
  try {
    execFileSync('tar', ['-xf', archive, '-C', dir]);
    const file = path.join(dir, 'manifest.json');
    const m = JSON.parse(readFileSync(file, 'utf8')) as Manifest;
    change(m);
    writeFileSync(file, JSON.stringify(m));
    execFileSync('tar', ['-cf', out, '-C', dir, 'manifest.json', m.volcado.archivo]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// Each test runs the operator's commands as processes (tsx loads the server's code each time) and opens
// embedded databases from disk: 11–21 s on a quiet 2-core machine, 60–64 s in a loaded CI run, over the
// project's 60 s. The time is process start-up and disk, not a wait.
vi.setConfig({ testTimeout: 180_000 });

describe.each(DB_KINDS)('backup and restore (%s)', (kind) => {
  const dirs: string[] = [];
  const places: Place[] = [];
  const place = async () => {
    const p = kind === 'postgres' ? await postgresPlace() : await pglitePlace(dirs);
    places.push(p);
    return p;
  };
  const work = mkdtempSync(path.join(tmpdir(), 'portal-copias-'));
  let source: Place;
  let seeded: Awaited<ReturnType<typeof seed>>;
  let archive: string;
  let manifest: Manifest;

  beforeAll(async () => {
    source = await place();
    seeded = await seed(source, kind);
  });
  afterAll(async () => {
    await seeded?.database.close().catch(() => undefined);
    for (const p of places) await p.drop();
    for (const d of [...dirs, work]) rmSync(d, { recursive: true, force: true });
  });

  it('takes a backup with its manifest: version, migrations, rows of every table, the checksum of the dump', async () => {
    if (kind === 'pglite') {
      // The embedded database is one process's: while it is open elsewhere the backup refuses.
      await expect(takeBackup(source.config, path.join(work, 'abierta.tar'))).rejects.toThrow(
        /está abierta por otro proceso/,
      );
      expect(existsSync(path.join(work, 'abierta.tar'))).toBe(false);
    }
    const expected = await describeDatabaseOf(seeded.database);
    if (kind === 'pglite') await seeded.database.close();
    archive = path.join(work, 'copia.tar');
    ({ manifest } = await takeBackup(source.config, archive));
    expect(manifest).toMatchObject({
      formato: 'portal-de-compras/respaldo-1',
      version: JSON.parse(readFileSync(path.join(SERVER_DIR, 'package.json'), 'utf8')).version,
      base: kind,
      migraciones: expected.migraciones,
      filas: expected.filas,
    });
    expect(manifest.filas['public.orders']).toBe(1);
    expect(manifest.filas['public.order_lines']).toBe(2);
    expect(manifest.filas['public.stored_files']).toBe(1);
    expect(manifest.filas['public.stored_file_parts']).toBe(2);
    expect(manifest.migraciones.aplicadas).toBeGreaterThan(30);
    expect(manifest.volcado.sha256).toMatch(/^[0-9a-f]{64}$/);
    // A plain tar: manifest.json and the dump, as any tar lists them.
    expect(execFileSync('tar', ['-tf', archive], { encoding: 'utf8' }).trim().split('\n')).toEqual([
      'manifest.json',
      manifest.volcado.archivo,
    ]);
    expect(statSync(archive).size).toBeGreaterThan(manifest.volcado.bytes);
    // A backup never overwrites a file.
    await expect(takeBackup(source.config, archive)).rejects.toThrow(/ya existe/);
  });

  it('restores into a fresh database: every table has its rows, and the order, its lines, events and file are equal', async () => {
    if (kind === 'pglite') seeded.database = await source.open();
    const before = await sample(seeded.database, seeded.orderId, seeded.fileId);
    expect(before.lines).toHaveLength(2);
    expect(before.file!.data).toBe(seeded.fileSha);
    if (kind === 'pglite') await seeded.database.close();

    const target = await place();
    await restoreBackup(target.config, archive);
    const restored = await target.open();
    try {
      expect((await describeDatabaseOf(restored)).filas).toEqual(manifest.filas);
      expect(await sample(restored, seeded.orderId, seeded.fileId)).toEqual(before);
    } finally {
      await restored.close();
    }

    // A target that is not empty is refused; --force replaces it.
    await expect(restoreBackup(target.config, archive)).rejects.toThrow(
      /no está vacía|Ya hay una base de datos/,
    );
    const forced = await restoreBackup(target.config, archive, true);
    if (kind === 'pglite') expect(existsSync(forced.movedAside!)).toBe(true);
    const again = await target.open();
    try {
      expect((await describeDatabaseOf(again)).filas).toEqual(manifest.filas);
    } finally {
      await again.close();
    }
  });

  it('refuses a tampered dump (checksum) and a backup of a newer portal, with Spanish messages, touching nothing', async () => {
    const tampered = path.join(work, 'alterada.tar');
    copyFileSync(archive, tampered);
    const bytes = readFileSync(tampered);
    // A byte in the middle of the dump (the manifest's member is first, 1 kB or so).
    const at = 2048 + Math.floor(manifest.volcado.bytes / 2);
    bytes[at] = bytes[at]! ^ 0xff;
    writeFileSync(tampered, bytes);
    const target = await place();
    await expect(restoreBackup(target.config, tampered)).rejects.toThrow(
      'La copia está dañada o fue modificada: la suma de verificación SHA-256 del volcado no coincide con la del manifiesto. No se restauró nada.',
    );
    const newer = path.join(work, 'nueva.tar');
    rewriteManifest(archive, newer, (m) => {
      m.migraciones.aplicadas += 1;
      m.migraciones.ultima = (m.migraciones.ultima ?? 0) + 86_400_000;
    });
    await expect(restoreBackup(target.config, newer)).rejects.toThrow(
      /La copia es de una versión más nueva del portal .* Actualiza el portal antes de restaurarla\./,
    );
    // Nothing was restored: the target is still empty.
    if (kind === 'postgres') {
      const d = await target.open();
      try {
        expect(await describeDatabaseOf(d).catch((e: Error) => e.message)).toMatch(/__drizzle_migrations/);
      } finally {
        await d.close();
      }
    } else {
      expect(existsSync(path.join(target.config.dataDir, 'pglite'))).toBe(false);
    }

    // The commands themselves: output in Spanish, exit 1 on a refusal.
    const env: Record<string, string> =
      kind === 'postgres'
        ? { DATABASE_URL: target.config.DATABASE_URL! }
        : { DATA_DIR: target.config.dataDir };
    const refused = await runCommand('restore', ['--from', tampered], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('La copia está dañada o fue modificada');
    const restored = await runCommand('restore', ['--from', archive], env);
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout).toContain('Copia restaurada y verificada');
    const sourceEnv: Record<string, string> =
      kind === 'postgres'
        ? { DATABASE_URL: source.config.DATABASE_URL! }
        : { DATA_DIR: source.config.dataDir };
    const out = path.join(work, 'desde-el-comando.tar');
    const taken = await runCommand('backup', ['--out', out], sourceEnv);
    expect(taken.code, taken.stderr).toBe(0);
    expect(taken.stdout).toContain(`Copia de seguridad escrita en ${out}`);
    expect((await runCommand('backup', [], sourceEnv)).stderr).toContain('Falta --out');
  });
});

function describeDatabaseOf(database: Database) {
  return describeDb(database.db);
}
