/**
 * Seals the secrets kept at rest again under the current SECRET_KEY (decision 0102):
 *   npm run secrets:rotate
 * with SECRET_KEY the new key and SECRET_KEY_PREVIOUS the old one(s). Safe while the portal's instances
 * run on PostgreSQL (compare-and-set per row); the embedded database must be free (the server stopped).
 * A second run changes nothing and says so; Ctrl-C stops between rows and a new run finishes the work.
 */
import { loadConfig } from '../config.ts';
import { runMigrations } from '../db/client.ts';
import { appKeys } from '../lib/keys.ts';
import { rotateSecrets, rotationReport } from '../lib/secret-rotation.ts';
import { CliError, openConfiguredDatabase, parseCliArgs, runCli } from './common.ts';

const USAGE = 'Uso: npm run secrets:rotate [-- --lote <filas>]';

async function main(): Promise<void> {
  const values = parseCliArgs(process.argv.slice(2), { lote: { type: 'string' } }, USAGE);
  const batchSize = values.lote === undefined ? 100 : Number(values.lote);
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 10_000)
    throw new CliError(`--lote debe ser un número entero de 1 a 10000.\n${USAGE}`);
  const config = loadConfig();
  const keys = appKeys(config);
  if (keys.source !== 'config')
    throw new CliError(
      'Define SECRET_KEY (la clave nueva) y SECRET_KEY_PREVIOUS (la anterior) antes de rotar.',
    );
  const database = await openConfiguredDatabase(config);
  const stop = new AbortController();
  process.once('SIGINT', () => stop.abort());
  process.once('SIGTERM', () => stop.abort());
  try {
    await runMigrations(database);
    process.stdout.write(
      `Clave actual: SECRET_KEY; claves anteriores configuradas: ${keys.encryptionPrevious.length}.\n`,
    );
    const counts = await rotateSecrets(database.db, keys, { batchSize, signal: stop.signal }).catch((err) => {
      if (stop.signal.aborted)
        throw new CliError(
          'Interrumpido: lo ya cifrado se conserva; vuelve a ejecutar el comando para terminar.',
        );
      throw err;
    });
    process.stdout.write(rotationReport(counts));
  } finally {
    await database.close();
  }
}

runCli(main);
