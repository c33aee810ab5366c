import pg from 'pg';

export type SizeName = 'large' | 'small' | 'xlarge';
export const SIZE_NAMES: readonly SizeName[] = ['large', 'small', 'xlarge'];

export interface BenchArgs {
  databaseUrl?: string;
  dataDir?: string;
  size: SizeName;
  tz: string;
  /** Seconds per load test. */
  duration: number;
  connections: number;
  port: number;
  flags: Set<string>;
  /** Only these scenarios (by key), when given. */
  only?: string[];
  /** The server bundle to measure, relative to apps/server (another build side by side with the current one). */
  server: string;
}

/**
 * The scenarios' keys, in the order they run: what `--only` accepts and what the results table prints in
 * its first column. The baseline always runs (its key is accepted and changes nothing).
 */
export const SCENARIO_KEYS = [
  'baseline',
  'transaccion',
  'sesion',
  'catalogo',
  'pedidos1',
  'pedidos200',
  'pedidos200_salto',
  'avisos',
  'usuarios',
  'logs',
  'historial',
  'logs_filtrados',
  'usuarios_filtrados',
  'buscar',
  'tablero',
  'recepcion',
  'recepcion_envio',
  'estado_cuenta',
  'v1_facturas',
  'carrito',
  'compra',
  'repetir',
  'lote',
  'envio',
  'existencias',
  'reporte',
  'importacion',
] as const;

/** Connections of the latency run, where the p99 targets are judged. */
export const LATENCY_CONNECTIONS = 10;

const USAGE = `Opciones: --database-url <url> | --data-dir <carpeta>, --size large|small|xlarge, --duration <s>,
  --connections <n>, --port <n>, --server <bundle>, --only <clave,clave>, --no-latency, --no-warmup, --no-write, --cpu-prof, --reset
  Claves de --only: ${SCENARIO_KEYS.join(', ')}`;

export function parseArgs(argv: string[]): BenchArgs {
  const args: BenchArgs = {
    size: 'large',
    tz: process.env.BUSINESS_TZ || 'America/Mexico_City',
    duration: 10,
    connections: 50,
    port: 3510,
    flags: new Set(),
    server: 'dist/server.js',
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`Falta el valor de ${a}\n${USAGE}`);
      return v;
    };
    if (a === '--database-url') args.databaseUrl = value();
    else if (a === '--data-dir') args.dataDir = value();
    else if (a === '--size') {
      const v = value();
      if (!(SIZE_NAMES as readonly string[]).includes(v))
        throw new Error(`--size: ${SIZE_NAMES.join(', ')}\n${USAGE}`);
      args.size = v as SizeName;
    } else if (a === '--duration') args.duration = Number(value());
    else if (a === '--connections') args.connections = Number(value());
    else if (a === '--port') args.port = Number(value());
    else if (a === '--server') args.server = value();
    else if (a === '--only') {
      const keys = value()
        .split(',')
        .map((k) => k.trim())
        .filter(Boolean);
      const unknown = keys.filter((k) => !(SCENARIO_KEYS as readonly string[]).includes(k));
      if (unknown.length || keys.length === 0)
        throw new Error(`--only: clave desconocida ${unknown.join(', ') || '(vacía)'}\n${USAGE}`);
      args.only = keys;
    } else if (a.startsWith('--')) args.flags.add(a.slice(2));
    else throw new Error(`Argumento desconocido: ${a}\n${USAGE}`);
  }
  return args;
}

/** Creates the database of a PostgreSQL URL when it does not exist (dropping it first with `reset`). */
export async function ensurePostgresDatabase(databaseUrl: string, reset: boolean): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Nombre de base de datos no admitido: ${name}`);
  url.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: url.toString() });
  await admin.connect();
  try {
    if (reset) await admin.query(`drop database if exists ${name} with (force)`);
    const found = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
}
