/**
 * Backups that restore (decision 0103): `npm run backup -- --out FILE` and `npm run restore -- --from FILE`.
 *
 * FILE is a tar archive of two members: `manifest.json` (the app's version, the database's kind and server
 * version, the applied migrations, the row count of every table, and the dump's size and SHA-256) and the
 * dump itself — PostgreSQL's custom format (`pg_dump -Fc`) or the embedded database's own data-directory
 * tarball (PGlite's `dumpDataDir`). Uploaded files live in the database, so they are in the dump.
 *
 * One snapshot: on PostgreSQL the counts are read in a repeatable-read transaction whose snapshot pg_dump
 * takes (`--snapshot`), so the manifest describes exactly what was dumped while the portal keeps taking
 * orders. The embedded database belongs to one process: the backup refuses while a server holds it.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdtempSync,
  openAsBlob,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { open } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { Config } from '../config.ts';
import { type Db, MIGRATIONS_DIR, openDatabase, rowsOf } from '../db/client.ts';
import { systemClock } from '../lib/clock.ts';
import { CliError, pgliteDir, refuseHeldPglite } from './common.ts';

export const BACKUP_FORMAT = 'portal-de-compras/respaldo-1';
const MANIFEST = 'manifest.json';
const DUMP = { postgres: 'base.pgdump', pglite: 'base-pglite.tar.gz' } as const;
/** The schemas whose tables are counted: the portal's, and pg-boss's queue. */
const COUNTED_SCHEMAS = ['public', 'pgboss'];
/** Schemas a restore needs empty (the migrations' bookkeeping included). */
const TARGET_SCHEMAS = ['public', 'pgboss', 'drizzle'];

export interface Manifest {
  formato: typeof BACKUP_FORMAT;
  /** The portal's version (package.json). */
  version: string;
  creado: string;
  base: 'postgres' | 'pglite';
  /** The database server's version (PGlite's PostgreSQL for the embedded one). */
  servidor: string;
  /** Applied migrations: how many, and the newest one's timestamp (drizzle's journal `when`). */
  migraciones: { aplicadas: number; ultima: number | null };
  /** Rows of every table (`schema.table`), in the dump's snapshot. */
  filas: Record<string, number>;
  volcado: { archivo: string; bytes: number; sha256: string };
}

const here = path.dirname(fileURLToPath(import.meta.url));

function appVersion(): string {
  return (JSON.parse(readFileSync(path.resolve(here, '../../package.json'), 'utf8')) as { version: string })
    .version;
}

/** The newest migration this code knows (drizzle's journal). */
export function knownMigrations(): { count: number; newest: number } {
  const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8')) as {
    entries: { when: number }[];
  };
  return { count: journal.entries.length, newest: Math.max(...journal.entries.map((e) => e.when)) };
}

type Query = <T>(text: string) => Promise<T[]>;
/** Raw statements through Drizzle's handle, or through a pg client (the backup's snapshot transaction). */
const viaDb =
  (db: Db): Query =>
  <T>(text: string) =>
    rowsOf<T>(db, sql.raw(text));
const viaClient =
  (client: pg.ClientBase): Query =>
  async <T>(text: string) =>
    (await client.query(text)).rows as T[];

/** Rows of every table of the counted schemas, and the applied migrations, as `query` sees them. */
export async function describeDatabase(query: Query) {
  const tables = await query<{ s: string; t: string }>(
    `select table_schema as s, table_name as t from information_schema.tables
     where table_type = 'BASE TABLE' and table_schema in (${COUNTED_SCHEMAS.map((s) => `'${s}'`).join(',')})
     order by 1, 2`,
  );
  const filas: Record<string, number> = {};
  for (const { s, t } of tables) {
    const [row] = await query<{ n: string | number }>(
      `select count(*) as n from "${s.replaceAll('"', '""')}"."${t.replaceAll('"', '""')}"`,
    );
    filas[`${s}.${t}`] = Number(row!.n);
  }
  const [migrated] = await query<{ n: string | number; ultima: string | number | null }>(
    `select count(*) as n, max(created_at) as ultima from drizzle.__drizzle_migrations`,
  );
  const [version] = await query<{ v: string }>('select version() as v');
  return {
    filas,
    migraciones: {
      aplicadas: Number(migrated!.n),
      ultima: migrated!.ultima === null ? null : Number(migrated!.ultima),
    },
    servidor: /PostgreSQL [\d.]+/.exec(version!.v)?.[0] ?? version!.v,
  };
}

/** describeDatabase through Drizzle's handle. */
export function describeDb(db: Db) {
  return describeDatabase(viaDb(db));
}

// --- PostgreSQL's client programs -------------------------------------------------------------------------

function majorOf(program: string): number | null {
  try {
    const out = execFileSync(program, ['--version'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const m = /\(PostgreSQL\) (\d+)/.exec(out);
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/**
 * pg_dump and pg_restore of a version at least the server's (an older pg_dump refuses a newer server):
 * the ones on PATH, else the newest of Debian's /usr/lib/postgresql/<version>/bin.
 */
export function postgresTools(serverMajor: number): { pgDump: string; pgRestore: string } {
  const candidates = ['']; // PATH
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian))
    for (const v of readdirSync(debian).sort((x, y) => Number(y) - Number(x)))
      candidates.push(path.join(debian, v, 'bin'));
  for (const dir of candidates) {
    const pgDump = dir ? path.join(dir, 'pg_dump') : 'pg_dump';
    const pgRestore = dir ? path.join(dir, 'pg_restore') : 'pg_restore';
    const major = majorOf(pgDump);
    if (major !== null && major >= serverMajor && majorOf(pgRestore) === major) return { pgDump, pgRestore };
  }
  throw new CliError(
    `No se encontraron pg_dump y pg_restore de PostgreSQL ${serverMajor} o más nuevos (se buscaron en PATH y en ${debian}/<versión>/bin). Instala el paquete postgresql-client-${serverMajor}.`,
  );
}

/** The URL without its password (which goes in PGPASSWORD, never on a command line), and the environment. */
function connection(url: string): { url: string; env: NodeJS.ProcessEnv } {
  const u = new URL(url);
  const password = decodeURIComponent(u.password);
  u.password = '';
  return { url: u.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

function run(program: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const proc = spawn(program, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    proc.stderr.on('data', (d) => {
      stderr += String(d);
    });
    proc.once('error', reject);
    proc.once('exit', (code) =>
      code === 0
        ? resolve()
        : reject(new CliError(`${path.basename(program)} terminó con el código ${code}:\n${stderr.trim()}`)),
    );
  });
}

// --- The archive: a plain tar of manifest.json and the dump -----------------------------------------------

function tarHeader(name: string, size: number): Buffer {
  const h = Buffer.alloc(512);
  h.write(name, 0, 100, 'utf8');
  h.write('0000644\0', 100);
  h.write('0000000\0', 108);
  h.write('0000000\0', 116);
  if (size < 8 ** 11) h.write(`${size.toString(8).padStart(11, '0')}\0`, 124);
  else {
    // GNU base-256 for members of 8 GiB or more.
    h[124] = 0x80;
    h.writeBigUInt64BE(BigInt(size), 128);
  }
  h.write(
    `${Math.floor(systemClock.ms() / 1000)
      .toString(8)
      .padStart(11, '0')}\0`,
    136,
  );
  h.write('        ', 148);
  h.write('0', 156);
  h.write('ustar\0', 257);
  h.write('00', 263);
  let sum = 0;
  for (const byte of h) sum += byte;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  return h;
}

function sizeOf(header: Buffer): number {
  if (header[124]! & 0x80) return Number(header.readBigUInt64BE(128));
  return Number.parseInt(header.subarray(124, 136).toString('ascii').replace(/\0.*$/s, '').trim() || '0', 8);
}

const padding = (size: number) => Buffer.alloc((512 - (size % 512)) % 512);

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

/** Writes the archive to `out` (through `out.parcial`, renamed at the end: a cut backup leaves no archive). */
async function writeArchive(out: string, manifest: Manifest, dumpFile: string): Promise<void> {
  const partial = `${out}.parcial`;
  const json = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
  async function* members() {
    yield tarHeader(MANIFEST, json.length);
    yield json;
    yield padding(json.length);
    yield tarHeader(manifest.volcado.archivo, manifest.volcado.bytes);
    yield* createReadStream(dumpFile);
    yield padding(manifest.volcado.bytes);
    yield Buffer.alloc(1024);
  }
  await pipeline(Readable.from(members()), createWriteStream(partial, { mode: 0o600 }));
  renameSync(partial, out);
}

/** Reads the archive: its manifest, and its dump copied to `dir` (with the SHA-256 of what was read). */
async function readArchive(file: string, dir: string) {
  const handle = await open(file, 'r');
  try {
    let offset = 0;
    const header = Buffer.alloc(512);
    let manifest: Manifest | undefined;
    let dump: { file: string; bytes: number; sha256: string } | undefined;
    for (;;) {
      const { bytesRead } = await handle.read(header, 0, 512, offset);
      if (bytesRead < 512 || header.every((b) => b === 0)) break;
      const name = header.subarray(0, 100).toString('utf8').replace(/\0.*$/s, '');
      const size = sizeOf(header);
      offset += 512;
      if (name === MANIFEST && size < 10_000_000) {
        const body = Buffer.alloc(size);
        await handle.read(body, 0, size, offset);
        try {
          manifest = JSON.parse(body.toString('utf8')) as Manifest;
        } catch {
          throw new CliError(
            `${file} no es una copia de seguridad del portal: su manifest.json no se puede leer.`,
          );
        }
      } else if (name === DUMP.postgres || name === DUMP.pglite) {
        const target = path.join(dir, name);
        const hash = createHash('sha256');
        const source = createReadStream('', {
          fd: handle.fd,
          start: offset,
          end: offset + size - 1,
          autoClose: false,
        });
        source.on('data', (chunk) => hash.update(chunk));
        await pipeline(source, createWriteStream(target));
        dump = { file: target, bytes: size, sha256: hash.digest('hex') };
      }
      offset += size + padding(size).length;
    }
    if (!manifest || manifest.formato !== BACKUP_FORMAT || !dump)
      throw new CliError(
        `${file} no es una copia de seguridad del portal (falta su manifest.json o su volcado).`,
      );
    return { manifest, dump };
  } finally {
    await handle.close();
  }
}

// --- Backup ------------------------------------------------------------------------------------------------

export interface BackupResult {
  file: string;
  manifest: Manifest;
}

/** Takes a backup of the configured database into `out` (which must not exist). */
export async function takeBackup(config: Config, out: string): Promise<BackupResult> {
  const file = path.resolve(out);
  if (existsSync(file))
    throw new CliError(`${file} ya existe: elige otro nombre (una copia nunca se sobrescribe).`);
  if (!existsSync(path.dirname(file))) throw new CliError(`La carpeta ${path.dirname(file)} no existe.`);
  const work = mkdtempSync(path.join(path.dirname(file), '.respaldo-'));
  try {
    const base = config.DATABASE_URL ? 'postgres' : 'pglite';
    const dumpFile = path.join(work, DUMP[base]);
    const described =
      base === 'postgres'
        ? await dumpPostgres(config.DATABASE_URL!, dumpFile)
        : await dumpPglite(config, dumpFile);
    const manifest: Manifest = {
      formato: BACKUP_FORMAT,
      version: appVersion(),
      creado: systemClock.now().toISOString(),
      base,
      servidor: described.servidor,
      migraciones: described.migraciones,
      filas: described.filas,
      volcado: { archivo: DUMP[base], bytes: statSync(dumpFile).size, sha256: await sha256Of(dumpFile) },
    };
    await writeArchive(file, manifest, dumpFile);
    return { file, manifest };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** pg_dump in the snapshot of a transaction that counts the rows: the manifest is what was dumped. */
async function dumpPostgres(url: string, dumpFile: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const [{ v }] = (await client.query<{ v: string }>("select current_setting('server_version_num') as v"))
      .rows as [{ v: string }];
    const tools = postgresTools(Math.floor(Number(v) / 10000));
    await client.query('begin isolation level repeatable read read only');
    const [{ s }] = (await client.query<{ s: string }>('select pg_export_snapshot() as s')).rows as [
      { s: string },
    ];
    const described = await describeDatabase(viaClient(client));
    const { url: bare, env } = connection(url);
    await run(
      tools.pgDump,
      ['-Fc', '--no-owner', '--no-privileges', `--snapshot=${s}`, '-f', dumpFile, '-d', bare],
      env,
    );
    await client.query('commit');
    return described;
  } finally {
    await client.end();
  }
}

/** The embedded database, free of any server: counted, then its data directory as PGlite dumps it. */
async function dumpPglite(config: Config, dumpFile: string) {
  if (config.dataDir.startsWith('memory://'))
    throw new CliError(
      'DATA_DIR=memory:// no guarda nada que respaldar: indica la carpeta de la base integrada.',
    );
  if (!existsSync(pgliteDir(config)))
    throw new CliError(`No hay una base de datos integrada en ${pgliteDir(config)}.`);
  refuseHeldPglite(config);
  const database = await openDatabase({ dataDir: config.dataDir });
  try {
    const described = await describeDb(database.db);
    const blob = await database.pglite!.dumpDataDir('gzip');
    await pipeline(Readable.fromWeb(blob.stream() as never), createWriteStream(dumpFile));
    return described;
  } finally {
    await database.close();
  }
}

// --- Restore -----------------------------------------------------------------------------------------------

export interface RestoreResult {
  manifest: Manifest;
  /** Where an embedded database that was there before (with --force) was moved. */
  movedAside?: string;
}

/**
 * Restores `from` into the configured database: the checksum first, then the kind and the migrations (a
 * backup of a newer portal is refused), then an empty target (or `force`), then the dump; at the end the
 * row counts are compared with the manifest's.
 */
export async function restoreBackup(config: Config, from: string, force = false): Promise<RestoreResult> {
  const file = path.resolve(from);
  if (!existsSync(file)) throw new CliError(`No existe el archivo ${file}.`);
  const work = mkdtempSync(path.join(os.tmpdir(), 'portal-restauracion-'));
  try {
    const { manifest, dump } = await readArchive(file, work);
    if (dump.sha256 !== manifest.volcado.sha256 || dump.bytes !== manifest.volcado.bytes)
      throw new CliError(
        'La copia está dañada o fue modificada: la suma de verificación SHA-256 del volcado no coincide con la del manifiesto. No se restauró nada.',
      );
    const base = config.DATABASE_URL ? 'postgres' : 'pglite';
    if (manifest.base !== base)
      throw new CliError(
        `La copia es de la base ${manifest.base === 'postgres' ? 'PostgreSQL' : 'integrada (PGlite)'} y el destino es ${base === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : 'la base integrada (DATA_DIR)'}: se restaura en el mismo tipo de base.`,
      );
    const known = knownMigrations();
    if ((manifest.migraciones.ultima ?? 0) > known.newest || manifest.migraciones.aplicadas > known.count)
      throw new CliError(
        `La copia es de una versión más nueva del portal (${manifest.version}, ${manifest.migraciones.aplicadas} migraciones; esta versión conoce ${known.count}). Actualiza el portal antes de restaurarla.`,
      );
    const result: RestoreResult = { manifest };
    if (base === 'postgres') await restorePostgres(config.DATABASE_URL!, dump.file, force);
    else result.movedAside = await restorePglite(config, dump.file, force);
    await compareCounts(config, manifest);
    return result;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

async function restorePostgres(url: string, dumpFile: string, force: boolean) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const [{ n }] = (
      await client.query<{ n: string }>(
        `select count(*) as n from information_schema.tables where table_schema = any($1)`,
        [TARGET_SCHEMAS],
      )
    ).rows as [{ n: string }];
    if (Number(n) > 0) {
      if (!force)
        throw new CliError(
          `La base de datos de destino no está vacía (${n} tablas). Restaura en una base nueva (createdb) o usa --force para reemplazar su contenido.`,
        );
      await client.query(
        `${TARGET_SCHEMAS.map((s) => `drop schema if exists ${s} cascade;`).join(' ')} create schema public;`,
      );
    }
    const [{ v }] = (await client.query<{ v: string }>("select current_setting('server_version_num') as v"))
      .rows as [{ v: string }];
    const tools = postgresTools(Math.floor(Number(v) / 10000));
    const { url: bare, env } = connection(url);
    await run(
      tools.pgRestore,
      ['--no-owner', '--no-privileges', '--exit-on-error', '-d', bare, dumpFile],
      env,
    );
  } finally {
    await client.end();
  }
}

async function restorePglite(config: Config, dumpFile: string, force: boolean): Promise<string | undefined> {
  if (config.dataDir.startsWith('memory://'))
    throw new CliError(
      'DATA_DIR=memory:// no guarda nada: indica la carpeta donde restaurar la base integrada.',
    );
  const dir = pgliteDir(config);
  let movedAside: string | undefined;
  if (existsSync(dir) && readdirSync(dir).length > 0) {
    if (!force)
      throw new CliError(
        `Ya hay una base de datos integrada en ${dir}. Restaura en otra carpeta (DATA_DIR) o usa --force para reemplazarla (la actual se conserva aparte).`,
      );
    refuseHeldPglite(config);
    movedAside = `${dir}.antes-${systemClock.now().toISOString().replace(/[:.]/g, '-')}-${randomBytes(2).toString('hex')}`;
    renameSync(dir, movedAside);
  }
  const database = await openDatabase({ dataDir: config.dataDir, loadDataDir: await openAsBlob(dumpFile) });
  await database.close();
  return movedAside;
}

/** After a restore: every table's rows as the manifest counted them. */
async function compareCounts(config: Config, manifest: Manifest) {
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.dataDir,
    poolSize: 1,
  });
  try {
    const { filas } = await describeDb(database.db);
    const differ = Object.keys({ ...filas, ...manifest.filas }).filter((t) => filas[t] !== manifest.filas[t]);
    if (differ.length > 0)
      throw new CliError(
        `La restauración terminó, pero las filas no coinciden con el manifiesto en: ${differ
          .map((t) => `${t} (${filas[t] ?? 0} en vez de ${manifest.filas[t] ?? 0})`)
          .join(', ')}.`,
      );
  } finally {
    await database.close();
  }
}

/** A summary line of a manifest (Spanish, for the operator). */
export function manifestSummary(m: Manifest): string {
  const rows = Object.values(m.filas).reduce((a, b) => a + b, 0);
  const mb = (m.volcado.bytes / 1_048_576).toFixed(1);
  return `base ${m.base === 'postgres' ? 'PostgreSQL' : 'integrada (PGlite)'} (${m.servidor}), portal ${m.version}, ${m.migraciones.aplicadas} migraciones, ${rows} filas en ${Object.keys(m.filas).length} tablas, volcado de ${mb} MB (SHA-256 ${m.volcado.sha256})`;
}
