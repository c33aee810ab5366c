import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import fastifyMultipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { Area } from '@portal/shared/domain/roles';
import Fastify, { type FastifyInstance, type FastifyServerOptions, type RouteOptions } from 'fastify';
import { jsonSchemaTransform, validatorCompiler } from 'fastify-type-provider-zod';
import helmet from 'helmet';
import { z } from 'zod';
import type { Config } from './config.ts';
import { type Database, type Db, ping } from './db/client.ts';
import { invalidationFeed } from './db/invalidation.ts';
import { ensureTotals } from './db/order-totals.ts';
import { type Clock, systemClock } from './lib/clock.ts';
import { declareResponses } from './lib/declared-responses.ts';
import { type Deps, depsOf } from './lib/deps.ts';
import { JobRunner } from './lib/jobs.ts';
import { type AppKeys, appKeys } from './lib/keys.ts';
import { errSerializer } from './lib/log-errors.ts';
import { MailWorker } from './lib/mailer.ts';
import { MULTIPART_MAX_FILE_BYTES } from './lib/multipart.ts';
import { serializerCompiler } from './lib/response-serializer.ts';
import { defineRetentionJob } from './lib/retention.ts';
import { registerSafeText } from './lib/safe-text.ts';
import { MSG } from './messages.ts';
import { addressRoutes } from './modules/addresses/addresses.routes.ts';
import { adminOverviewRoutes } from './modules/admin-overview/admin-overview.routes.ts';
import { authorizerRoutes } from './modules/approval/authorizer.routes.ts';
import { delegationRoutes } from './modules/approval/delegation.routes.ts';
import { areaRoutes } from './modules/areas/areas.routes.ts';
import { assignmentRoutes } from './modules/assignments/assignments.routes.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { clientRoutes } from './modules/clients/clients.routes.ts';
import { clientFiscalRoutes } from './modules/clients/fiscal.routes.ts';
import { creditRoutes } from './modules/credit/credit.routes.ts';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes.ts';
import { fileRoutes } from './modules/files/files.routes.ts';
import { claimRoutes } from './modules/fulfilment/claims.routes.ts';
import { fulfilmentRoutes } from './modules/fulfilment/fulfilment.routes.ts';
import { remisionRoutes } from './modules/fulfilment/remision.routes.ts';
import { shipmentRoutes } from './modules/fulfilment/shipments.routes.ts';
import { importRoutes } from './modules/imports/imports.routes.ts';
import { integrationRoutes } from './modules/integration/integration.routes.ts';
import { v1Routes } from './modules/integration/v1.routes.ts';
import { inventoryRoutes } from './modules/inventory/inventory.routes.ts';
import { scheduledPriceRoutes } from './modules/inventory/scheduled-prices.routes.ts';
import { invoiceRoutes } from './modules/invoices/invoices.routes.ts';
import { listRoutes } from './modules/lists/lists.routes.ts';
import { logRoutes } from './modules/logs/logs.routes.ts';
import { liveRoutes } from './modules/notifications/live.routes.ts';
import { notificationRoutes } from './modules/notifications/notifications.routes.ts';
import {
  purchaseOrderBuffer,
  purchaseOrderData,
  purchaseOrderFileName,
} from './modules/orders/po-pdf.service.ts';
import { pushRoutes } from './modules/push/push.routes.ts';
import { receivingRoutes } from './modules/receiving/receiving.routes.ts';
import { scimRoutes } from './modules/scim/scim.routes.ts';
import { scimTokenRoutes } from './modules/scim/scim-token.routes.ts';
import { shoppingRoutes } from './modules/shopping/shopping.routes.ts';
import { ssoRoutes } from './modules/sso/sso.routes.ts';
import { supportRoutes } from './modules/support/support.routes.ts';
import { twoFactorRoutes } from './modules/two-factor/two-factor.routes.ts';
import { budgetRequestRoutes } from './modules/users/budget-requests.routes.ts';
import { userRoutes } from './modules/users/users.routes.ts';
import { weekRoutes } from './modules/weeks/weeks.routes.ts';
import { type Guard, registerAuthGuard } from './plugins/auth-guard.ts';
import { registerErrorHandler } from './plugins/error-handler.ts';
import { firstPaintPages, sessionOpens, signedInPage } from './plugins/first-paint.ts';
import { registerMetrics } from './plugins/metrics.ts';
import { registerSession, routePath, SessionStore, sessionCookieName } from './plugins/session.ts';

z.config(z.locales.es());

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    /** The heavy readers' handle (db/replica.ts, decision 0129). */
    reads: Db;
    database: Database;
    config: Config;
    keys: AppKeys;
    mailer: MailWorker;
    sessions: SessionStore;
    guard: Guard;
    /** "Now" for every business decision (lib/clock.ts, decision 0093). */
    clock: Clock;
    /** What the services use (lib/deps.ts): routes pass it to them, never the app. */
    deps: Deps;
  }
}

/** Answers up to this size (bytes) go uncompressed: the saving would not pay for the work. */
export const COMPRESS_THRESHOLD = 1024;

export const WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');

/** Paths that carry a secret (single-use links) are masked in the log. */
export function redactUrl(url: string): string {
  const redacted = url.replace(/\/restablecer\/[^/?#]+/g, '/restablecer/[oculto]');
  // The provider's answer to a single sign-on (decision 0120): its code and state open a sign-in.
  const query = redacted.indexOf('?');
  if (query < 0) return redacted;
  const path = redacted.slice(0, query);
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {}
  return /^\/api\/sso\/retorno\/?$/i.test(decoded) ? `${path}?[oculto]` : redacted;
}

export function loggerOptions(config: Pick<Config, 'LOG_LEVEL'>): FastifyServerOptions['logger'] {
  return {
    level: config.LOG_LEVEL,
    redact: {
      paths: [
        'req.headers.cookie',
        'req.headers["x-xsrf-token"]',
        'req.headers.authorization',
        'res.headers["set-cookie"]',
      ],
      censor: '[oculto]',
    },
    serializers: {
      // A failed statement's parameters never reach the log (lib/log-errors.ts).
      err: errSerializer,
      req: (req: { method: string; url: string; ip?: string; id?: string }) => ({
        method: req.method,
        url: redactUrl(req.url),
        ip: req.ip,
      }),
    },
  };
}

/** Fastify's form of TRUST_PROXY (config.ts): the proxy's addresses as they are; never `true`, never a hop count. */
export function trustProxyOption(value: Config['TRUST_PROXY']): FastifyServerOptions['trustProxy'] {
  return value === false ? false : value;
}

export interface BuildAppOptions {
  config: Config;
  database: Database;
  logger?: FastifyServerOptions['logger'];
  /** Registers extra routes before the app is ready (tests). */
  extend?: (app: FastifyInstance) => void | Promise<void>;
  /** Sees every route as it is added, before any is registered (tests list the route table with it). */
  onRoute?: (route: RouteOptions) => void;
  /** "Now" for the whole app: the system clock unless a test places the server at another instant. */
  clock?: Clock;
}

// biome-ignore lint/complexity/noExcessiveLinesPerFunction: the app's assembly; shrinks as registration moves out (docs/code-style.md)
export async function buildApp({
  config,
  database,
  logger,
  extend,
  onRoute,
  clock = systemClock,
}: BuildAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger ?? loggerOptions(config),
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
    },
    trustProxy: trustProxyOption(config.TRUST_PROXY),
    bodyLimit: 1024 * 1024,
    return503OnClosing: true,
    // Fastify's 10 s per plugin fails a start on a busy machine (the API document's plugin reads its
    // assets from disk): a minute, still short of anything that would hang.
    pluginTimeout: 60_000,
  });
  // Every route's document names every status it may answer (lib/declared-responses.ts); then tests see it.
  app.addHook('onRoute', declareResponses);
  if (onRoute) app.addHook('onRoute', onRoute);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.decorate('clock', clock);
  app.decorate('db', database.db);
  app.decorate('reads', database.reads);
  // The dashboard's sales summary, built for this business time zone (decision 0055).
  await ensureTotals(database.db, config.BUSINESS_TZ);
  app.decorate('database', database);
  app.decorate('config', config);
  app.decorate('keys', appKeys(config));
  const mailer = new MailWorker({
    db: database.db,
    smtpUrl: config.SMTP_URL,
    from: config.MAIL_FROM,
    pollMs: config.MAIL_POLL_MS,
    log: app.log,
    attach: async (ref) => ({
      filename: purchaseOrderFileName(ref.id_pedido),
      contentType: 'application/pdf',
      content: await purchaseOrderBuffer(
        await purchaseOrderData(database.db, ref.id_pedido, {}),
        config.BUSINESS_TZ,
      ),
    }),
  });
  app.decorate('mailer', mailer);
  const store = new SessionStore(
    database.db,
    config.SESSION_IDLE_MINUTES,
    config.SESSION_MAX_HOURS,
    config.BUSINESS_TZ,
    app.keys.anonymousSession,
    clock,
    app.keys.anonymousSessionPrevious,
  );
  app.decorate('sessions', store);
  // Sessions are kept between requests while this process hears every change to them (decision 0071).
  const feed = invalidationFeed(database, app.log);
  if (feed) {
    store.useInvalidationFeed(feed);
    app.addHook('onClose', async () => {
      await feed.stop();
    });
  }
  const jobs = new JobRunner(database, app.log);
  app.decorate('jobs', jobs);
  app.decorate('deps', depsOf(app));
  defineRetentionJob(app.deps);
  // Prometheus's series on their own listener when METRICS_PORT is set (decision 0104): before any route,
  // so that every route's answers are timed.
  registerMetrics(app, database, jobs);

  // One hook for every response's own headers (each hook is a step of every request).
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    if (routePath(request).startsWith('/api/'))
      reply.header('cache-control', reply.getHeader('cache-control') ?? 'no-store');
    // request.protocol is https only over TLS or, with TRUST_PROXY, when the proxy says X-Forwarded-Proto: https.
    if (request.protocol === 'https')
      reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
    done(null, payload);
  });

  // Dynamic answers over 1 kB (HTML, JSON, CSV, JS, CSS…) leave compressed: brotli at quality 4, gzip for a
  // client without it; a stream (the CSV exports, the report) stays a stream through the compressor, and an
  // answer that already says its encoding (the built web app's .br/.gz files below) passes as it is.
  // Request bodies are not decompressed (decision 0095). Registered before every route: it adds its hook
  // to each route as the route is added.
  await app.register(fastifyCompress, {
    encodings: ['br', 'gzip'],
    threshold: COMPRESS_THRESHOLD,
    globalDecompression: false,
  });
  await app.register(fastifyCookie);
  await app.register(fastifyMultipart, { limits: { fileSize: MULTIPART_MAX_FILE_BYTES } });
  // The security headers of every response. helmet's middleware is built once: the Fastify plugin built it
  // again on every request (docs/benchmarks.md, finding 24). The same headers, set at the same step.
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    // Sent only on HTTPS responses (the onSend hook above): RFC 6797 forbids it over plain HTTP.
    hsts: false,
    // The same as CSP frame-ancestors 'none', for browsers that only know the older header.
    frameguard: { action: 'deny' },
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onRequest', (request, reply, done) => {
    securityHeaders(request.raw, reply.raw, (err?: unknown) => done(err as Error | undefined));
  });
  registerErrorHandler(app);
  registerSafeText(app);

  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Portal de Compras API', version: '1.0.0', description: 'API del Portal de Compras' },
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: sessionCookieName(config.PUBLIC_URL) },
          xsrf: { type: 'apiKey', in: 'header', name: 'X-XSRF-TOKEN' },
          bearer: {
            type: 'http',
            scheme: 'bearer',
            description:
              'Token de integración (Administración → Integraciones): `Authorization: Bearer pdc_…`. Solo para /api/v1 (docs/integration.md)',
          },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs', staticCSP: true });

  registerSession(app, store);
  const guard = registerAuthGuard(app, store);
  app.decorate('guard', guard);

  // 'activa': sessions are kept between requests; 'inactiva': every request reads the database (decision 0071).
  const cacheState = () => (store.caching ? 'activa' : 'inactiva');
  app.get('/healthz', { schema: { hide: true } }, async (_request, reply) => {
    try {
      await ping(app.db);
      return { status: 'ok', db: 'ok', cache_sesiones: cacheState() };
    } catch {
      return reply.status(503).send({ status: 'error', db: 'no disponible', cache_sesiones: cacheState() });
    }
  });

  await app.register(authRoutes, { store, guard });
  await app.register(fileRoutes, { guard });
  await app.register(shoppingRoutes);
  await app.register(listRoutes);
  await app.register(authorizerRoutes);
  await app.register(delegationRoutes);
  await app.register(dashboardRoutes);
  await app.register(inventoryRoutes);
  await app.register(scheduledPriceRoutes);
  await app.register(importRoutes);
  await app.register(logRoutes);
  await app.register(adminOverviewRoutes);
  await app.register(clientRoutes);
  await app.register(clientFiscalRoutes);
  await app.register(userRoutes);
  await app.register(budgetRequestRoutes);
  await app.register(areaRoutes);
  await app.register(addressRoutes);
  await app.register(supportRoutes);
  await app.register(fulfilmentRoutes);
  await app.register(shipmentRoutes);
  await app.register(invoiceRoutes);
  await app.register(remisionRoutes);
  await app.register(claimRoutes);
  await app.register(receivingRoutes);
  await app.register(assignmentRoutes);
  await app.register(weekRoutes);
  await app.register(creditRoutes);
  await app.register(twoFactorRoutes);
  await app.register(integrationRoutes);
  await app.register(v1Routes);
  await app.register(notificationRoutes);
  await app.register(pushRoutes);
  await app.register(liveRoutes);
  await app.register(ssoRoutes);
  await app.register(scimTokenRoutes);
  await app.register(scimRoutes);

  if (extend) await extend(app);

  const hasWeb = existsSync(path.join(WEB_DIST, 'index.html'));
  const firstPaint = firstPaintPages(WEB_DIST);
  const sessionCookie = sessionCookieName(config.PUBLIC_URL);
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: WEB_DIST,
      wildcard: false,
      index: false,
      // The build writes a .br and a .gz beside each text file (scripts/compress-web.mjs): sent as they are
      // to a browser that accepts them, never compressed again per request; they are not routes themselves.
      preCompressed: true,
      globIgnore: ['**/*.br', '**/*.gz'],
      setHeaders: (res, filePath) => {
        if (filePath.includes(`${path.sep}assets${path.sep}`))
          res.header('cache-control', 'public, max-age=31536000, immutable');
        else res.header('cache-control', 'no-cache');
      },
    });
  }
  app.setNotFoundHandler(async (request, reply) => {
    const url = routePath(request);
    // A missing asset (an old chunk after a new build) is a 404, never the page in its place.
    const isAsset = url.startsWith('/assets/') || /\.(js|css|map|png|jpg|svg|ico|woff2?)(\?|$)/.test(url);
    if (
      isAsset ||
      url.startsWith('/api/') ||
      // Metrics are served on METRICS_PORT only (decision 0104), never here, not even as the page.
      url === '/metrics' ||
      url.startsWith('/sanctum/') ||
      url.startsWith('/scim/') ||
      (request.method !== 'GET' && request.method !== 'HEAD')
    ) {
      return reply.status(404).send({ code: 'NOT_FOUND', msg: MSG.noEncontrado });
    }
    if (!hasWeb) {
      return reply
        .status(503)
        .type('text/plain; charset=utf-8')
        .send('La interfaz no está construida: ejecuta `npm run build` (o `npm start`, que la construye).');
    }
    // The single-page app: every other path is a screen (unknown ones go to /login in the browser). A page
    // with a fixed heading opened by someone signed in (its address alone: a query may change the heading)
    // paints that heading before the code runs (decision 0150); any other page of a role area names what its
    // boot asks for (decision 0151), and a page with fixed first data names it too for a session its screen
    // will show (0153); signed out, the sign-in comes instead.
    const token = request.cookies[sessionCookie];
    const opens = (area: Area) =>
      token ? sessionOpens(app.deps, app.sessions, token, area) : Promise.resolve(false);
    const paints = await signedInPage(firstPaint, url, request.url.includes('?'), opens);
    if (paints) reply.header('vary', 'Cookie');
    const page = token ? paints : undefined;
    return reply.header('cache-control', 'no-cache').sendFile(page ?? 'index.html');
  });

  app.addHook('onReady', async () => {
    mailer.start();
  });
  app.addHook('onClose', async () => {
    await mailer.stop();
  });
  // Background jobs (imports): started once the app is ready, stopped (running jobs finish) on close.
  app.addHook('onReady', async () => {
    await jobs.start();
  });
  app.addHook('onClose', async () => {
    await jobs.stop();
  });
  return app;
}
