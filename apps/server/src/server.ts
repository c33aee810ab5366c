import v8 from 'node:v8';
import { count } from 'drizzle-orm';
import pino from 'pino';
import { buildApp, loggerOptions } from './app.ts';
import { type Config, ConfigError, loadConfig } from './config.ts';
import { type Database, openDatabase, runMigrations } from './db/client.ts';
import { users } from './db/schema/index.ts';
import { systemClock } from './lib/clock.ts';
import { stopAccepting } from './lib/drain.ts';
import { startHousekeeping } from './lib/housekeeping.ts';
import { appKeys } from './lib/keys.ts';
import { setHashParamsForTests, TEST_SCRYPT_PARAMS } from './lib/passwords.ts';
import { seedDemo } from './seed/seed.ts';
import { demoAccountsPresent, demoSeedWanted, demoWarning, expireDemoPasswords } from './startup.ts';

async function maybeSeed(config: Config, database: Database, log: pino.Logger): Promise<void> {
  if (!demoSeedWanted(config, database.kind, process.argv)) return;
  const [row] = await database.db.select({ n: count() }).from(users);
  if ((row?.n ?? 0) > 0) return;
  log.info('base de datos nueva: creando los datos de demostración');
  const { signIns } = await seedDemo(database.db, {
    tz: config.BUSINESS_TZ,
    now: systemClock.now(),
    encryptionKey: appKeys(config).encryption,
  });
  const production = config.NODE_ENV === 'production';
  if (production) await expireDemoPasswords(database);
  const lines = signIns.map(
    (s) =>
      `  ${s.usuario.padEnd(18)} ${s.password.padEnd(12)} rol ${s.rol}${s.cliente ? `  (${s.cliente})` : ''}`,
  );
  // The documented demo sign-ins (README) are printed once, on the first start.
  process.stdout.write(
    `\nAccesos de demostración${production ? ' (contraseña temporal: se cambia al entrar)' : ''}:\n${lines.join('\n')}\n\n`,
  );
}

/**
 * V8 lets the old generation grow to up to four times what survives a full collection before it collects
 * again (on a machine with plenty of memory): after a burst of requests the process held 200–300 MB for
 * 50 MB of live objects, and gave the pages back only after half a minute idle. At 1.5 times it collects
 * sooner and stays under 200 MB (decision 0091); read at every collection, so set before the first.
 */
const HEAP_GROWING = '--heap-growing-percent=50';

async function main(): Promise<void> {
  v8.setFlagsFromString(HEAP_GROWING);
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const log = pino({ level: config.LOG_LEVEL });
  if (config.TEST_PASSWORD_HASHING) {
    // The browser tests sign in hundreds of times; loadConfig refuses this in production.
    setHashParamsForTests(TEST_SCRYPT_PARAMS);
    log.warn('TEST_PASSWORD_HASHING: contraseñas nuevas con el costo de las pruebas, nunca en producción');
  }
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.dataDir,
    poolSize: config.DB_POOL_SIZE,
    ...(config.DATABASE_REPLICA_URL
      ? {
          replica: {
            url: config.DATABASE_REPLICA_URL,
            maxLagSeconds: config.REPLICA_MAX_LAG_SECONDS,
            checkMs: config.REPLICA_CHECK_MS,
            log,
          },
        }
      : {}),
  });
  await runMigrations(database);
  await maybeSeed(config, database, log);

  const app = await buildApp({ config, database, logger: loggerOptions(config) });
  const stopHousekeeping = startHousekeeping(app);
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'cerrando: se terminan las solicitudes en curso');
    const force = setTimeout(() => process.exit(1), 25_000);
    force.unref();
    try {
      stopHousekeeping();
      // New connections are refused first; requests already sent are answered; then the app closes
      // (running jobs finish or are handed back to the queue) and only then the database.
      await stopAccepting(app.server, 2_000);
      await app.close();
      await database.close();
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'error al cerrar');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.PORT, host: config.HOST });
  const where = database.kind === 'pglite' ? `base de datos embebida en ${config.dataDir}` : 'PostgreSQL';
  const present = await demoAccountsPresent(database);
  if (present.length > 0)
    process.stdout.write(`\n${demoWarning(present, config.NODE_ENV === 'production')}\n\n`);
  const open =
    config.HOST === '127.0.0.1' || config.HOST === 'localhost'
      ? ' (solo este equipo; HOST para abrirlo a la red)'
      : '';
  const metrics = app.metricsListener
    ? `; métricas de Prometheus en ${config.METRICS_HOST}:${app.metricsListener.port}/metrics${config.METRICS_TOKEN ? ' (con token)' : ''}`
    : '';
  process.stdout.write(
    `Portal de Compras listo en ${config.PUBLIC_URL} (${where}); escuchando en ${config.HOST}:${config.PORT}${open}${metrics}\n`,
  );
}

main().catch((err) => {
  process.stderr.write(`No se pudo iniciar el servidor: ${(err as Error).message}\n`);
  process.exit(1);
});
