/**
 * `GET /metrics` for Prometheus (decision 0104), on a listener of its own: METRICS_PORT, bound to
 * METRICS_HOST (this machine by default), behind a bearer token when METRICS_TOKEN is set. The app's own
 * port never answers it. Without METRICS_PORT there is no listener and no per-request hook.
 *
 * What it serves: the process's registry (lib/metrics.ts: counters, the requests' histogram, memory and
 * event-loop delay) and, read at scrape time, the database's pool, pg-boss's queues and the e-mail
 * outbox. Those reads are cached for METRICS_SNAPSHOT_SECONDS (5 s unless set), so any number of scrapes
 * cost the database at most one round of cheap, indexed statements every few seconds.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest, onResponseHookHandler } from 'fastify';
import { Gauge, Registry } from 'prom-client';
import { type Database, rowsOf } from '../db/client.ts';
import { emailOutbox } from '../db/schema/index.ts';
import type { JobRunner, QueueStats } from '../lib/jobs.ts';
import { collectProcessMetrics, processRegistry, requestDuration } from '../lib/metrics.ts';
import { sameToken } from './session.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The metrics listener, once the app is ready (null without METRICS_PORT). */
    metricsListener: MetricsListener | null;
  }
}

export interface MetricsListener {
  /** The port it listens on (METRICS_PORT, or the one the system chose for 0). */
  port: number;
}

/** The route label of an answer no route matched (the not-found handler's). */
export const UNMATCHED_ROUTE = '(sin ruta)';

function observe(method: string, route: string, reply: FastifyReply): void {
  requestDuration.observe({ method, route, status_code: reply.statusCode }, reply.elapsedTime / 1000);
}

interface DbSnapshot {
  outbox: { unsent: number; oldestSeconds: number };
  queues: QueueStats[];
}

/** The series read from the database, cached for `snapshotMs` (one read in flight at a time). */
function databaseSnapshot(app: FastifyInstance, database: Database, jobs: JobRunner, snapshotMs: number) {
  let cached: { at: number; value: Promise<DbSnapshot | null> } | null = null;
  const read = async (): Promise<DbSnapshot | null> => {
    try {
      const [outbox, queues] = await Promise.all([
        rowsOf<{ unsent: number; oldest: number | null }>(
          database.db,
          sql`select count(*)::int as unsent,
                extract(epoch from now() - min(created_at))::float8 as oldest
              from ${emailOutbox} where status in ('pendiente', 'enviando')`,
        ),
        jobs.queueStats(),
      ]);
      return {
        outbox: { unsent: outbox[0]?.unsent ?? 0, oldestSeconds: Math.max(0, outbox[0]?.oldest ?? 0) },
        queues,
      };
    } catch (err) {
      app.log.warn({ err }, 'métricas: no se pudo leer la base de datos');
      return null;
    }
  };
  return (): Promise<DbSnapshot | null> => {
    const now = performance.now();
    if (!cached || now - cached.at >= snapshotMs) cached = { at: now, value: read() };
    return cached.value;
  };
}

/** The series this app reads at scrape time: its database's pools, queues and outbox. */
function appRegistry(app: FastifyInstance, database: Database, jobs: JobRunner): Registry {
  const registry = new Registry();
  const snapshot = databaseSnapshot(app, database, jobs, app.config.METRICS_SNAPSHOT_SECONDS * 1000);
  const pools = [
    { name: 'principal', pool: database.pool },
    { name: 'planes', pool: database.plannedPool },
    { name: 'replica', pool: database.replica?.pool },
  ].filter((p) => p.pool !== undefined);
  const replica = database.replica;
  if (replica) {
    // The heavy readers' replica (decision 0129): as the last check found it (every REPLICA_CHECK_MS).
    new Gauge({
      name: 'portal_replica_lag_seconds',
      help: 'Retraso de la réplica en segundos según la última revisión (sin valor si no respondió; solo con DATABASE_REPLICA_URL)',
      registers: [registry],
      collect() {
        this.reset();
        if (replica.state.lagSeconds !== null) this.set(replica.state.lagSeconds);
      },
    });
    new Gauge({
      name: 'portal_replica_in_use',
      help: 'Si las lecturas pesadas van a la réplica (1) o al primario (0): réplica sin respuesta o atrasada (solo con DATABASE_REPLICA_URL)',
      registers: [registry],
      collect() {
        this.set(replica.state.inUse ? 1 : 0);
      },
    });
  }
  new Gauge({
    name: 'portal_db_pool_in_use',
    help: 'Conexiones a PostgreSQL ocupadas, por pool (solo con DATABASE_URL)',
    labelNames: ['pool'],
    registers: [registry],
    collect() {
      for (const p of pools) this.set({ pool: p.name }, p.pool!.totalCount - p.pool!.idleCount);
    },
  });
  new Gauge({
    name: 'portal_db_pool_waiting',
    help: 'Solicitudes que esperan una conexión a PostgreSQL, por pool (solo con DATABASE_URL)',
    labelNames: ['pool'],
    registers: [registry],
    collect() {
      for (const p of pools) this.set({ pool: p.name }, p.pool!.waitingCount);
    },
  });
  new Gauge({
    name: 'portal_db_pool_max',
    help: 'Conexiones máximas de cada pool (DB_POOL_SIZE)',
    labelNames: ['pool'],
    registers: [registry],
    collect() {
      for (const p of pools) this.set({ pool: p.name }, p.pool!.options.max ?? 0);
    },
  });
  const fromSnapshot = (
    name: string,
    help: string,
    labelNames: string[],
    fill: (gauge: Gauge, s: DbSnapshot) => void,
  ) =>
    new Gauge({
      name,
      help,
      labelNames,
      registers: [registry],
      async collect() {
        const s = await snapshot();
        this.reset();
        if (s) fill(this, s);
      },
    });
  fromSnapshot(
    'portal_email_outbox_unsent',
    'Correos de la bandeja de salida aún sin enviar (pendientes o en envío)',
    [],
    (g, s) => g.set(s.outbox.unsent),
  );
  fromSnapshot(
    'portal_email_outbox_oldest_unsent_seconds',
    'Antigüedad en segundos del correo sin enviar más viejo (0 si no hay)',
    [],
    (g, s) => g.set(s.outbox.oldestSeconds),
  );
  const queueSeries: [string, string, (q: QueueStats) => number][] = [
    [
      'portal_jobs_ready',
      'Trabajos de pg-boss listos para correr y esperando un trabajador, por cola',
      (q) => q.ready,
    ],
    [
      'portal_jobs_deferred',
      'Trabajos de pg-boss que esperan su hora de inicio (reintentos tras su espera), por cola',
      (q) => q.deferred,
    ],
    [
      'portal_jobs_active',
      'Trabajos de pg-boss en curso, por cola (el último conteo de pg-boss, cada 10 s)',
      (q) => q.active,
    ],
    [
      'portal_jobs_oldest_ready_seconds',
      'Segundos que lleva esperando el trabajo listo más viejo de cada cola, desde que pudo empezar (0 si no hay)',
      (q) => q.oldestReadySeconds,
    ],
  ];
  for (const [name, help, value] of queueSeries)
    fromSnapshot(name, help, ['queue'], (g, s) => {
      for (const q of s.queues) g.set({ queue: q.name }, value(q));
    });
  return registry;
}

function unauthorized(res: http.ServerResponse): void {
  res.writeHead(401, {
    'content-type': 'text/plain; charset=utf-8',
    'www-authenticate': 'Bearer realm="metrics"',
  });
  res.end('Falta el token de las métricas (Authorization: Bearer …, METRICS_TOKEN)\n');
}

/**
 * Registers the metrics of this app when METRICS_PORT is set: a duration observation at the end of every
 * answer (one hook per route, added as the route is, with its pattern already in hand, so an answer costs
 * one histogram observation), and the listener, started when the app is ready and closed with it. Must
 * run before any route is added.
 */
export function registerMetrics(app: FastifyInstance, database: Database, jobs: JobRunner): void {
  app.decorate('metricsListener', null);
  const { METRICS_PORT: port, METRICS_HOST: host, METRICS_TOKEN: token } = app.config;
  if (port === undefined) return;

  app.addHook('onRoute', (route) => {
    const pattern = route.url;
    const hook: onResponseHookHandler = (request, reply, done) => {
      observe(request.method, pattern, reply);
      done();
    };
    const existing = route.onResponse;
    route.onResponse = existing ? [...(Array.isArray(existing) ? existing : [existing]), hook] : [hook];
  });
  // The answers no route matched (the not-found handler), under one label whatever their URL.
  app.addHook('onResponse', (request: FastifyRequest, reply, done) => {
    if (request.is404) observe(request.method, UNMATCHED_ROUTE, reply);
    done();
  });

  const registry = appRegistry(app, database, jobs);
  const expected = token ? `Bearer ${token}` : null;
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('No encontrado: las métricas están en /metrics\n');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { 'content-type': 'text/plain; charset=utf-8', allow: 'GET, HEAD' });
      res.end('Método no permitido: GET /metrics\n');
      return;
    }
    if (expected && !sameToken(req.headers.authorization ?? '', expected)) {
      unauthorized(res);
      return;
    }
    Promise.all([processRegistry.metrics(), registry.metrics()]).then(
      ([own, read]) => {
        res.writeHead(200, { 'content-type': processRegistry.contentType, 'cache-control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : own + read);
      },
      (err: unknown) => {
        app.log.error({ err }, 'métricas: no se pudieron generar');
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
        res.end('No se pudieron generar las métricas\n');
      },
    );
  });
  // A scrape is small: a slow or idle client is not kept.
  server.requestTimeout = 30_000;
  server.keepAliveTimeout = 5_000;

  app.addHook('onReady', async () => {
    collectProcessMetrics();
    await new Promise<void>((resolve, reject) => {
      server.once('error', (err) =>
        reject(new Error(`no se pudo abrir METRICS_PORT ${port} en ${host}: ${err.message}`)),
      );
      server.listen(port, host, () => {
        server.removeAllListeners('error');
        resolve();
      });
    });
    app.metricsListener = { port: (server.address() as AddressInfo).port };
    app.log.info(
      { host, port: app.metricsListener.port, token: token ? 'requerido' : 'no' },
      'métricas de Prometheus en /metrics',
    );
  });
  app.addHook('onClose', async () => {
    if (!server.listening) return;
    // A scrape under way is answered; a connection still open after that is cut.
    const cut = setTimeout(() => server.closeAllConnections(), 2_000);
    server.closeIdleConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    clearTimeout(cut);
  });
}
