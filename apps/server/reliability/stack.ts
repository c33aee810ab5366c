/**
 * The pieces of a small production-like deployment, started as real processes for the reliability suite:
 * a private PostgreSQL cluster (so it can be stopped and restarted without touching the machine's own),
 * server instances (`node dist/server.js`, the build of `npm run build:server`) and nginx balancing round robin across them.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const SERVER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const PG_BIN = process.env.RELIABILITY_PG_BIN ?? '/usr/lib/postgresql/15/bin';
const NGINX_BIN = process.env.RELIABILITY_NGINX ?? '/usr/sbin/nginx';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` until it is true, or fails with `what` after `timeoutMs`. */
export async function waitUntil(
  what: string,
  check: () => Promise<boolean>,
  timeoutMs = 30_000,
  everyMs = 100,
) {
  const start = Date.now();
  while (Date.now() - start < timeoutMs) {
    if (await check().catch(() => false)) return;
    await sleep(everyMs);
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

function tail(file: string, lines = 40): string {
  if (!existsSync(file)) return '';
  return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
}

/** Asks a child process to stop with `signal`, and kills it if it has not exited after `killAfterMs`. */
function stopProcess(proc: ChildProcess | null, signal: NodeJS.Signals, killAfterMs: number): Promise<void> {
  if (!proc || proc.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    proc.on('exit', () => resolve());
    proc.kill(signal);
    setTimeout(() => proc.kill('SIGKILL'), killAfterMs).unref();
  });
}

const isRoot = () => process.getuid?.() === 0;

/** PostgreSQL refuses to run as root: as root, its binaries run as the `postgres` user. */
function pgCommand(bin: string, args: string[]): [string, string[]] {
  const exe = path.join(PG_BIN, bin);
  return isRoot() ? ['runuser', ['-u', 'postgres', '--', exe, ...args]] : [exe, args];
}

export class PrivatePostgres {
  readonly dataDir: string;
  readonly logFile: string;

  constructor(
    readonly baseDir: string,
    readonly port: number,
  ) {
    this.dataDir = path.join(baseDir, 'pgdata');
    this.logFile = path.join(baseDir, 'postgres.log');
  }

  url(database = 'postgres'): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  private run(bin: string, args: string[]): string {
    const [cmd, argv] = pgCommand(bin, args);
    try {
      return execFileSync(cmd, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (err) {
      const e = err as { stderr?: string; stdout?: string };
      throw new Error(
        `${bin} ${args.join(' ')} failed:\n${e.stdout ?? ''}${e.stderr ?? ''}\n${tail(this.logFile)}`,
      );
    }
  }

  init(): void {
    if (!existsSync(path.join(PG_BIN, 'initdb')))
      throw new Error(`PostgreSQL binaries not found in ${PG_BIN} (set RELIABILITY_PG_BIN)`);
    if (isRoot()) {
      const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
      const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
      writeFileSync(this.logFile, '');
      chownSync(this.logFile, uid, gid);
      mkdirSync(this.dataDir, { mode: 0o700 });
      chownSync(this.dataDir, uid, gid);
    }
    this.run('initdb', ['-D', this.dataDir, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync']);
    writeFileSync(
      path.join(this.dataDir, 'postgresql.auto.conf'),
      [
        `port = ${this.port}`,
        `listen_addresses = '127.0.0.1'`,
        `unix_socket_directories = '${this.dataDir}'`,
        'max_connections = 200',
        'shared_buffers = 64MB',
        '',
      ].join('\n'),
    );
  }

  get running(): boolean {
    return existsSync(path.join(this.dataDir, 'postmaster.pid'));
  }

  start(): void {
    this.run('pg_ctl', ['-D', this.dataDir, '-l', this.logFile, '-w', '-t', '30', 'start']);
  }

  /** `fast`: open connections are ended by the server (what a restart by an operator does). */
  stop(mode: 'fast' | 'immediate' = 'fast'): void {
    this.run('pg_ctl', ['-D', this.dataDir, '-m', mode, '-w', '-t', '30', 'stop']);
  }

  stopQuietly(): void {
    try {
      this.stop('immediate');
    } catch {
      // Already stopped.
    }
  }

  /**
   * This cluster as a streaming replica of `primary` (`pg_basebackup -R`: a copy of its data and the
   * settings to follow it), on this cluster's own port. Start it with `start()`.
   */
  standbyOf(primary: PrivatePostgres): void {
    if (isRoot()) {
      const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
      const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
      writeFileSync(this.logFile, '');
      chownSync(this.logFile, uid, gid);
      mkdirSync(this.dataDir, { mode: 0o700 });
      chownSync(this.dataDir, uid, gid);
    }
    this.run('pg_basebackup', [
      '-h',
      '127.0.0.1',
      '-p',
      String(primary.port),
      '-U',
      'postgres',
      '-D',
      this.dataDir,
      '-R',
      '-X',
      'stream',
      // At once, not after a spread checkpoint (which would take most of checkpoint_timeout).
      '--checkpoint=fast',
      '--no-sync',
    ]);
    // The copied settings name the primary's port and socket folder: the later lines win.
    writeFileSync(
      path.join(this.dataDir, 'postgresql.auto.conf'),
      `${readFileSync(path.join(this.dataDir, 'postgresql.auto.conf'), 'utf8')}\nport = ${this.port}\nunix_socket_directories = '${this.dataDir}'\n`,
    );
  }
}

export interface InstanceOptions {
  name: string;
  port: number;
  /** Without it, the embedded database in `dataDir`. */
  databaseUrl?: string;
  dataDir: string;
  smtpUrl: string;
  logDir: string;
  /** More environment (the webhook scenario's receiver settings). */
  env?: Record<string, string>;
}

/** One server process, as `npm start` runs it (without the web build). */
export class ServerInstance {
  proc: ChildProcess | null = null;
  exited: Promise<number | null> = Promise.resolve(null);
  private exitCode: number | null | undefined;
  readonly logFile: string;
  private starts = 0;

  constructor(readonly options: InstanceOptions) {
    this.logFile = path.join(options.logDir, `${options.name}.log`);
  }

  get url(): string {
    return `http://127.0.0.1:${this.options.port}`;
  }

  get running(): boolean {
    return this.proc !== null && this.exitCode === undefined;
  }

  /** Starts the process and waits until /healthz answers 200. */
  async start(): Promise<void> {
    this.starts++;
    const out = createWriteStream(this.logFile, { flags: 'a' });
    out.write(`\n===== start ${this.starts} at ${new Date().toISOString()}\n`);
    const proc = spawn(process.execPath, ['dist/server.js'], {
      cwd: SERVER_DIR,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: process.env.HOME ?? '/tmp',
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        PORT: String(this.options.port),
        ...(this.options.databaseUrl ? { DATABASE_URL: this.options.databaseUrl } : {}),
        DATA_DIR: this.options.dataDir,
        SMTP_URL: this.options.smtpUrl,
        DB_POOL_SIZE: '20',
        TRUST_PROXY: '127.0.0.1',
        SECRET_KEY: 'clave-de-la-prueba-de-fiabilidad-0123456789',
        // Every request is logged with its id, so a test can tell whether a request reached the server.
        LOG_LEVEL: 'info',
        MAIL_POLL_MS: '1000',
        ...this.options.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.proc = proc;
    this.exitCode = undefined;
    proc.stdout?.pipe(out, { end: false });
    proc.stderr?.pipe(out, { end: false });
    this.exited = new Promise((resolve) => {
      proc.on('exit', (code, signal) => {
        this.exitCode = code;
        out.write(`===== exit code=${code} signal=${signal}\n`);
        resolve(code);
      });
    });
    await waitUntil(
      `${this.options.name} to answer /healthz`,
      async () => {
        if (this.exitCode !== undefined)
          throw new Error(`${this.options.name} exited during start:\n${tail(this.logFile)}`);
        const res = await fetch(`${this.url}/healthz`);
        return res.status === 200;
      },
      60_000,
    ).catch((err) => {
      throw new Error(`${(err as Error).message}\n${tail(this.logFile)}`);
    });
  }

  signal(sig: NodeJS.Signals): void {
    if (this.running) this.proc!.kill(sig);
  }

  /** kill -9: no shutdown code runs. */
  async crash(): Promise<void> {
    this.signal('SIGKILL');
    await this.exited;
  }

  async stop(): Promise<void> {
    if (!this.running) return;
    this.signal('SIGTERM');
    const timer = setTimeout(() => this.signal('SIGKILL'), 30_000);
    await this.exited;
    clearTimeout(timer);
  }

  log(lines = 30): string {
    return tail(this.logFile, lines);
  }

  /** Whether the server logged a request with this X-Request-Id. */
  received(requestId: string): boolean {
    return readFileSync(this.logFile, 'utf8').includes(`"reqId":"${requestId}"`);
  }
}

/** nginx in the foreground (`daemon off`), balancing round robin across the instances. */
export class Nginx {
  proc: ChildProcess | null = null;
  private readonly dir: string;

  constructor(
    baseDir: string,
    readonly port: number,
    private readonly upstreams: number[],
  ) {
    this.dir = path.join(baseDir, 'nginx');
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    if (!existsSync(NGINX_BIN))
      throw new Error(`nginx not found at ${NGINX_BIN}: apt-get install -y nginx (or set RELIABILITY_NGINX)`);
    mkdirSync(this.dir, { recursive: true });
    // Worker processes run as an unprivileged user when the master is root: they need to reach the folder.
    chmodSync(this.dir, 0o777);
    const conf = path.join(this.dir, 'nginx.conf');
    const d = this.dir;
    writeFileSync(
      conf,
      `daemon off;
worker_processes 1;
pid ${d}/nginx.pid;
error_log ${d}/error.log warn;
events { worker_connections 2048; }
http {
  log_format upstream '$status $upstream_addr $upstream_status';
  access_log ${d}/access.log upstream;
  client_body_temp_path ${d}/client_body;
  proxy_temp_path ${d}/proxy;
  fastcgi_temp_path ${d}/fastcgi;
  uwsgi_temp_path ${d}/uwsgi;
  scgi_temp_path ${d}/scgi;
  client_max_body_size 25m;
  upstream portal {
${this.upstreams.map((p) => `    server 127.0.0.1:${p} max_fails=0;`).join('\n')}
  }
  server {
    listen 127.0.0.1:${this.port};
    location / {
      proxy_pass http://portal;
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_connect_timeout 2s;
      proxy_read_timeout 60s;
      proxy_next_upstream error timeout;
    }
  }
}
`,
    );
    const proc = spawn(NGINX_BIN, ['-e', `${d}/error.log`, '-p', d, '-c', conf], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    proc.stderr?.on('data', (b: Buffer) => {
      stderr += b.toString();
    });
    this.proc = proc;
    await waitUntil(
      'nginx to proxy /healthz',
      async () => {
        if (proc.exitCode !== null) throw new Error(`nginx exited: ${stderr}\n${tail(`${d}/error.log`)}`);
        return (await fetch(`${this.url}/healthz`)).status === 200;
      },
      15_000,
    );
  }

  /** How many proxied requests each upstream port answered, from the access log. */
  upstreamCounts(): Map<number, number> {
    const counts = new Map<number, number>();
    const log = path.join(this.dir, 'access.log');
    if (!existsSync(log)) return counts;
    for (const line of readFileSync(log, 'utf8').split('\n')) {
      for (const m of line.matchAll(/127\.0\.0\.1:(\d+)/g)) {
        const port = Number(m[1]);
        counts.set(port, (counts.get(port) ?? 0) + 1);
      }
    }
    return counts;
  }

  stop(): Promise<void> {
    return stopProcess(this.proc, 'SIGQUIT', 5000);
  }
}

const PROMETHEUS_BIN = process.env.RELIABILITY_PROMETHEUS ?? '/usr/bin/prometheus';

/** A port nothing listens on now (the system's choice). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** One value of an instant query's answer (`/api/v1/query`), by its labels. */
export interface PromSample {
  metric: Record<string, string>;
  value: [number, string];
}

/** Debian's Prometheus (2.42), scraping the given targets every second with a bearer token. */
export class Prometheus {
  proc: ChildProcess | null = null;
  private readonly dir: string;
  private readonly logFile: string;

  constructor(
    baseDir: string,
    readonly port: number,
    private readonly targets: string[],
    private readonly token: string,
  ) {
    this.dir = path.join(baseDir, 'prometheus');
    this.logFile = path.join(this.dir, 'prometheus.log');
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    if (!existsSync(PROMETHEUS_BIN))
      throw new Error(
        `prometheus not found at ${PROMETHEUS_BIN}: apt-get install -y prometheus (or set RELIABILITY_PROMETHEUS)`,
      );
    mkdirSync(path.join(this.dir, 'data'), { recursive: true });
    const conf = path.join(this.dir, 'prometheus.yml');
    writeFileSync(
      conf,
      `global:
  scrape_interval: 1s
  scrape_timeout: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: portal
    authorization:
      type: Bearer
      credentials: ${JSON.stringify(this.token)}
    static_configs:
      - targets: ${JSON.stringify(this.targets)}
`,
    );
    const out = createWriteStream(this.logFile, { flags: 'a' });
    const proc = spawn(
      PROMETHEUS_BIN,
      [
        `--config.file=${conf}`,
        `--storage.tsdb.path=${path.join(this.dir, 'data')}`,
        `--web.listen-address=127.0.0.1:${this.port}`,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    proc.stdout?.pipe(out, { end: false });
    proc.stderr?.pipe(out, { end: false });
    this.proc = proc;
    await waitUntil(
      'prometheus to be ready',
      async () => {
        if (proc.exitCode !== null) throw new Error(`prometheus exited:\n${tail(this.logFile)}`);
        return (await fetch(`${this.url}/-/ready`)).status === 200;
      },
      30_000,
    ).catch((err) => {
      throw new Error(`${(err as Error).message}\n${tail(this.logFile)}`);
    });
  }

  /** An instant query through the HTTP API; throws unless Prometheus answers `success`. */
  async query(promql: string): Promise<PromSample[]> {
    const res = await fetch(`${this.url}/api/v1/query?query=${encodeURIComponent(promql)}`);
    const body = (await res.json()) as { status: string; error?: string; data?: { result: PromSample[] } };
    if (body.status !== 'success') throw new Error(`${promql}: ${body.error ?? res.status}`);
    return body.data?.result ?? [];
  }

  /** The scrape targets' health as Prometheus last saw it (`up`, the last error). */
  async targetHealth(): Promise<{ health: string; lastError: string }[]> {
    const res = await fetch(`${this.url}/api/v1/targets`);
    const body = (await res.json()) as { data: { activeTargets: { health: string; lastError: string }[] } };
    return body.data.activeTargets;
  }

  log(lines = 30): string {
    return tail(this.logFile, lines);
  }

  stop(): Promise<void> {
    return stopProcess(this.proc, 'SIGTERM', 10_000);
  }
}

const PGBOUNCER_BIN = process.env.RELIABILITY_PGBOUNCER ?? '/usr/sbin/pgbouncer';

/**
 * Debian's PgBouncer (1.18) in front of a PostgreSQL cluster, in session mode: a client keeps one server
 * connection for as long as it stays connected, so named prepared statements and LISTEN work as on a direct
 * connection (docs/operations.md, "Detrás de un pooler"). It refuses to run as root: as root it runs as
 * `postgres`, like the cluster.
 */
export class PgBouncer {
  proc: ChildProcess | null = null;
  private readonly dir: string;
  readonly logFile: string;

  constructor(
    baseDir: string,
    readonly port: number,
    private readonly upstream: { port: number; database: string },
  ) {
    this.dir = path.join(baseDir, 'pgbouncer');
    this.logFile = path.join(this.dir, 'pgbouncer.log');
  }

  url(database = this.upstream.database): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  async start(): Promise<void> {
    if (!existsSync(PGBOUNCER_BIN))
      throw new Error(
        `pgbouncer not found at ${PGBOUNCER_BIN}: apt-get install -y pgbouncer (or set RELIABILITY_PGBOUNCER)`,
      );
    mkdirSync(this.dir, { recursive: true });
    chmodSync(this.dir, 0o777);
    const d = this.dir;
    writeFileSync(path.join(d, 'users.txt'), '"postgres" ""\n');
    const conf = path.join(d, 'pgbouncer.ini');
    writeFileSync(
      conf,
      `[databases]
${this.upstream.database} = host=127.0.0.1 port=${this.upstream.port} dbname=${this.upstream.database}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = ${this.port}
unix_socket_dir =
auth_type = trust
auth_file = ${d}/users.txt
admin_users = postgres
pool_mode = session
max_client_conn = 400
default_pool_size = 150
; The server's second pool asks for generic plans with the options startup parameter (decision 0083), which
; 1.18 cannot pass on: ignored, those statements are planned as PostgreSQL chooses (slower, not wrong).
ignore_startup_parameters = options,extra_float_digits
server_reset_query = DISCARD ALL
logfile = ${this.logFile}
pidfile = ${d}/pgbouncer.pid
`,
    );
    const argv = [PGBOUNCER_BIN, conf];
    const [cmd, args] = isRoot() ? ['runuser', ['-u', 'postgres', '--', ...argv]] : [argv[0]!, argv.slice(1)];
    this.proc = spawn(cmd, args, { stdio: 'ignore' });
    await waitUntil(
      'pgbouncer to accept connections',
      () =>
        new Promise<boolean>((resolve) => {
          const socket = net.connect(this.port, '127.0.0.1', () => {
            socket.end();
            resolve(true);
          });
          socket.on('error', () => resolve(false));
        }),
      30_000,
    ).catch((err) => {
      throw new Error(`${(err as Error).message}\n${tail(this.logFile)}`);
    });
  }

  log(lines = 30): string {
    return tail(this.logFile, lines);
  }

  /** SIGTERM (immediate shutdown) to PgBouncer itself: its pid file names it (`runuser` forwards nothing). */
  async stop(): Promise<void> {
    const pidFile = path.join(this.dir, 'pgbouncer.pid');
    if (existsSync(pidFile)) {
      const pid = Number(readFileSync(pidFile, 'utf8').trim());
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        // Already gone.
      }
    }
    await stopProcess(this.proc, 'SIGTERM', 10_000);
  }
}
