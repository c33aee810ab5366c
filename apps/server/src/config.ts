import path from 'node:path';
import { DEFAULT_BUSINESS_TZ, isValidTimeZone } from '@portal/shared/domain/time';
import { z } from 'zod';

const bool = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', ''])
  .transform((v) => v === '1' || v === 'true' || v === 'yes');

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

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: urlWith(['postgres:', 'postgresql:']).optional(),
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(20),
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
  TRUST_PROXY: bool.default(false),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  MAIL_POLL_MS: z.coerce.number().int().min(50).max(60_000).default(2000),
});

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
