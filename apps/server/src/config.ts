import net from 'node:net';
import path from 'node:path';
import { DEFAULT_BUSINESS_TZ, isValidTimeZone } from '@portal/shared/domain/time';
import { z } from 'zod';

const bool = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', ''])
  .transform((v) => v === '1' || v === 'true' || v === 'yes');

/** An IPv4 or IPv6 address, or a network of one (`10.0.0.0/8`, `fd00::/8`). */
function isAddressOrNetwork(value: string): boolean {
  const [address = '', prefix, extra] = value.split('/');
  if (extra !== undefined) return false;
  const family = net.isIP(address);
  if (family === 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * Which proxy may name the client's address (X-Forwarded-For) and protocol: `false` (none, the default), a
 * hop count (`1`: the one proxy in front), or the proxy's addresses/CIDRs (`127.0.0.1,10.0.0.0/8`). `true`
 * (trust whoever connects) is refused: any client could then forge its address past the throttles.
 */
/**
 * The reverse proxy whose X-Forwarded-* headers are believed: its addresses or networks only. A hop count
 * ("the nearest n") is refused (issue 38, finding 2): a client that reaches the server directly is then the
 * nearest hop itself and could name any address it likes, past the sign-in throttles and into the log.
 */
const trustProxy = z.string().transform((v, ctx): false | string => {
  const value = v.trim().toLowerCase();
  if (['0', 'false', 'no'].includes(value)) return false;
  const parts = value.split(',').map((p) => p.trim());
  if (parts.length > 0 && parts.every(isAddressOrNetwork)) return parts.join(',');
  ctx.addIssue({
    code: 'custom',
    message:
      value === 'true' || value === 'yes'
        ? 'true confiaría en cualquier cliente; indica las direcciones del proxy (127.0.0.1 o 10.0.0.0/8)'
        : /^\d+$/.test(value)
          ? `un número de proxies (${value}) dejaría que quien se conecte directamente elija su dirección; indica las direcciones del proxy (127.0.0.1 o 10.0.0.0/8)`
          : 'indica las direcciones del proxy (127.0.0.1 o 10.0.0.0/8) o false',
  });
  return z.NEVER;
});

const urlWith = (protocols: string[]) =>
  z.string().refine(
    (v) => {
      try {
        return protocols.includes(new URL(v).protocol);
      } catch {
        return false;
      }
    },
    `debe ser una URL (${protocols.join(' o ')})`,
  );

/**
 * A retention setting (lib/retention.ts, decision 0101): a whole number of days, months or rows from `min`
 * to `max`, with the message an operator reads when it is not.
 */
const period = (unit: 'días' | 'meses' | 'filas', min: number, max: number, fallback: number) => {
  const message = `debe ser un número entero de ${unit} entre ${min} y ${max}`;
  return z.coerce
    .number({ error: message })
    .int({ error: message })
    .min(min, { error: message })
    .max(max, { error: message })
    .default(fallback);
};

/** A five-field cron expression (a job's schedule, read in the business time zone). */
const CRON = z.string().regex(/^\S+( \S+){4}$/, 'debe ser una expresión cron de cinco campos');

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  // Only this machine by default: a laptop demo is not reachable from the network until HOST opens it.
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: urlWith(['postgres:', 'postgresql:']).optional(),
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(20),
  // A streaming replica for the heavy readers (decision 0129): reports, dashboards, exports, support search.
  DATABASE_REPLICA_URL: urlWith(['postgres:', 'postgresql:']).optional(),
  REPLICA_MAX_LAG_SECONDS: z.coerce.number().min(0).max(3600).default(30),
  REPLICA_CHECK_MS: z.coerce.number().int().min(100).max(600_000).default(5000),
  SEED_DEMO: bool.optional(),
  SMTP_URL: urlWith(['smtp:', 'smtps:']).optional(),
  MAIL_FROM: z.string().min(3).default('Portal de Compras <no-reply@portal-de-compras.local>'),
  BUSINESS_TZ: z.string().default(DEFAULT_BUSINESS_TZ).refine(isValidTimeZone, 'zona horaria desconocida'),
  SUPPORT_PHONES: z.string().default('55 1234 5678'),
  PUBLIC_URL: urlWith(['http:', 'https:']).optional(),
  SESSION_IDLE_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 60)
    .default(120),
  SESSION_MAX_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 30)
    .default(12),
  TRUST_PROXY: trustProxy.default(false),
  SECRET_KEY: z.string().min(32, 'debe tener al menos 32 caracteres').optional(),
  /**
   * Earlier values of SECRET_KEY, newest first, separated by commas: what they sealed still opens (a key
   * rotation, decision 0102); `npm run secrets:rotate` seals it again under SECRET_KEY.
   */
  SECRET_KEY_PREVIOUS: z
    .string()
    .transform((v) =>
      v
        .split(',')
        .map((k) => k.trim())
        .filter(Boolean),
    )
    .refine(
      (keys) => keys.every((k) => k.length >= 32),
      'cada clave anterior debe tener al menos 32 caracteres',
    )
    .optional(),
  /** Two-factor sign-in is mandatory for every administrator (rol 4). */
  ADMIN_2FA_REQUIRED: bool.default(false),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  MAIL_POLL_MS: z.coerce.number().int().min(50).max(60_000).default(2000),
  /** Requests per minute each integration token may make to /api/v1 (decision 0059). */
  API_RATE_LIMIT: z.coerce.number().int().min(1).max(100_000).default(120),
  /** Webhook targets on private, loopback or link-local addresses are allowed (on-premise receivers). */
  WEBHOOK_ALLOW_PRIVATE: bool.default(false),
  /** First retry delay of a failed webhook delivery, in seconds; each next one doubles (decision 0060). */
  WEBHOOK_RETRY_BASE_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  /**
   * Web Push (decision 0117): a device's push address may be a private, loopback or link-local address, and
   * plain http to such an address (the tests' local push service). The push services of real browsers are
   * public and https: a deployment never sets it.
   */
  PUSH_ALLOW_PRIVATE: bool.default(false),
  /**
   * Single sign-on (decision 0120): a client's identity provider (its issuer and every endpoint it publishes)
   * may be on a private, loopback or link-local address, and plain http (an on-premise provider without TLS,
   * the tests' local provider). Off: https to public addresses only.
   */
  SSO_ALLOW_PRIVATE: bool.default(false),
  /** How often the push sender looks for items to push, in ms; 0: this instance sends none (another does). */
  PUSH_POLL_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(60_000)
    .refine((v) => v === 0 || v >= 50, 'debe ser 0 (esta instancia no envía) o de 50 a 60000')
    .default(2000),
  /** First wait before retrying a push the push service did not take, in seconds; each next one doubles. */
  PUSH_RETRY_BASE_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  /**
   * The VAPID subject: how a push service may reach the portal's operator (`mailto:` or `https:`). Unset:
   * PUBLIC_URL when it is https, else the address of MAIL_FROM.
   */
  PUSH_SUBJECT: urlWith(['mailto:', 'https:']).optional(),
  /** Days a webhook event and its deliveries are kept once every delivery succeeded (decision 0101). */
  RETENTION_WEBHOOK_DAYS: period('días', 1, 3650, 90),
  /** Months approval-reminder and budget-alert claims are kept (decision 0101). */
  RETENTION_NOTICE_MONTHS: period('meses', 2, 120, 13),
  /** Days a delivered e-mail stays in the outbox (decision 0101). */
  RETENTION_EMAIL_DAYS: period('días', 1, 3650, 90),
  /** Days a password or welcome link is kept after it was used or expired (decision 0101). */
  RETENTION_LINK_DAYS: period('días', 1, 3650, 30),
  /** Days a sign-in attempt is kept (decision 0101). */
  RETENTION_SIGNIN_DAYS: period('días', 1, 3650, 30),
  /** Months the system log is kept; 0 keeps it for ever (decision 0101). */
  RETENTION_LOG_MONTHS: period('meses', 0, 1200, 24),
  /** Days a push's delivery record is kept (decision 0117). */
  RETENTION_PUSH_DAYS: period('días', 1, 3650, 7),
  /** Months a device that received no push and was not subscribed again is kept (decision 0117). */
  RETENTION_PUSH_MONTHS: period('meses', 1, 120, 3),
  /** Rows the retention job removes per statement, at most (decision 0101). */
  RETENTION_BATCH_SIZE: period('filas', 1, 10_000, 500),
  /** Browser tests only: new password hashes at the test suites' lower cost. Refused in production. */
  TEST_PASSWORD_HASHING: bool.default(false),
  /** The Prometheus listener's port (`GET /metrics`, decision 0104); no listener without it. */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /** Its address: this machine only unless set (a non-loopback one needs METRICS_TOKEN in production). */
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  /** The bearer token a scrape must send (`Authorization: Bearer …`), when set. */
  METRICS_TOKEN: z.string().min(24, 'debe tener al menos 24 caracteres').optional(),
  /** How long the series read from the database (outbox, queues) are reused between scrapes, in seconds. */
  METRICS_SNAPSHOT_SECONDS: z.coerce.number().min(0.1).max(300).default(5),
  /**
   * When the notification digest job looks for digests that are due (a cron expression, business time
   * zone; decision 0114). Every 15 minutes by default: an hourly digest leaves within 15 minutes of its hour.
   */
  NOTIFICATION_DIGEST_CRON: CRON.default('*/15 * * * *'),
  /**
   * When the escalation job looks for orders that waited too long (decision 0113): every 15 minutes by
   * default, so an order escalates within 15 minutes of its client's hours.
   */
  ESCALATION_CRON: CRON.default('*/15 * * * *'),
  /**
   * How long one live-updates stream (GET /api/eventos, decision 0116) stays open, in seconds: then the
   * server ends it and the browser reconnects by itself, asking for what it missed. Tests use a fraction of
   * a second, so that an in-process request ends.
   */
  EVENTS_MAX_SECONDS: z.coerce
    .number({ error: 'debe ser un número de segundos entre 0.1 y 3600' })
    .min(0.1, { error: 'debe ser un número de segundos entre 0.1 y 3600' })
    .max(3600, { error: 'debe ser un número de segundos entre 0.1 y 3600' })
    .default(300),
  /**
   * How often an open stream gets a heartbeat (a comment that keeps proxies from closing it) and its session
   * is checked again, in seconds (decision 0116).
   */
  EVENTS_HEARTBEAT_SECONDS: z.coerce
    .number({ error: 'debe ser un número de segundos entre 0.1 y 300' })
    .min(0.1, { error: 'debe ser un número de segundos entre 0.1 y 300' })
    .max(300, { error: 'debe ser un número de segundos entre 0.1 y 300' })
    .default(25),
});

/** Whether a listen address reaches this machine only (`127.0.0.0/8`, `::1`, `localhost`). */
export function isLoopbackHost(host: string): boolean {
  if (host === 'localhost') return true;
  if (net.isIPv4(host)) return host.startsWith('127.');
  return net.isIPv6(host) && new net.SocketAddress({ address: host, family: 'ipv6' }).address === '::1';
}

export type Env = z.infer<typeof EnvSchema>;

export interface Config extends Omit<Env, 'PUBLIC_URL'> {
  PUBLIC_URL: string;
  /** Absolute path of the embedded database's directory (or a memory:// URL). */
  dataDir: string;
  supportPhones: string[];
}

export class ConfigError extends Error {}

/** Parses the environment; a wrong value stops the start naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Configuración inválida:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (e.NODE_ENV === 'production' && !e.SECRET_KEY) {
    throw new ConfigError(
      'Configuración inválida:\n  SECRET_KEY: es obligatoria en producción (al menos 32 caracteres aleatorios; p. ej. `openssl rand -base64 48`)',
    );
  }
  if (e.SECRET_KEY_PREVIOUS?.length && !e.SECRET_KEY) {
    throw new ConfigError(
      'Configuración inválida:\n  SECRET_KEY_PREVIOUS: solo tiene sentido con SECRET_KEY (la clave nueva); define SECRET_KEY',
    );
  }
  if (e.SECRET_KEY && e.SECRET_KEY_PREVIOUS?.includes(e.SECRET_KEY)) {
    throw new ConfigError(
      'Configuración inválida:\n  SECRET_KEY_PREVIOUS: no debe repetir SECRET_KEY (solo las claves anteriores)',
    );
  }
  if (e.NODE_ENV === 'production' && e.TEST_PASSWORD_HASHING) {
    throw new ConfigError(
      'Configuración inválida:\n  TEST_PASSWORD_HASHING: solo para pruebas; no se admite en producción',
    );
  }
  if (e.DATABASE_REPLICA_URL && !e.DATABASE_URL) {
    throw new ConfigError(
      'Configuración inválida:\n  DATABASE_REPLICA_URL: solo tiene sentido con DATABASE_URL (el servidor primario de PostgreSQL)',
    );
  }
  if (e.METRICS_PORT !== undefined && e.METRICS_PORT !== 0 && e.METRICS_PORT === e.PORT) {
    throw new ConfigError(
      `Configuración inválida:\n  METRICS_PORT: debe ser distinto de PORT (${e.PORT}); las métricas tienen su propio puerto`,
    );
  }
  if (
    e.NODE_ENV === 'production' &&
    e.METRICS_PORT !== undefined &&
    !e.METRICS_TOKEN &&
    !isLoopbackHost(e.METRICS_HOST)
  ) {
    throw new ConfigError(
      `Configuración inválida:\n  METRICS_TOKEN: es obligatorio en producción cuando las métricas escuchan fuera de este equipo (METRICS_HOST=${e.METRICS_HOST}); define METRICS_TOKEN (al menos 24 caracteres aleatorios; p. ej. \`openssl rand -base64 32\`) o deja METRICS_HOST en 127.0.0.1`,
    );
  }
  const base = env.INIT_CWD ?? process.cwd();
  const dataDir = e.DATA_DIR.startsWith('memory://') ? e.DATA_DIR : path.resolve(base, e.DATA_DIR);
  return {
    ...e,
    PUBLIC_URL: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    dataDir,
    supportPhones: e.SUPPORT_PHONES.split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  };
}
