/**
 * Restores a backup of `npm run backup` (decision 0103):
 *   npm run restore -- --from FILE [--force]
 * into the configured database (DATABASE_URL, or the embedded one of DATA_DIR). The dump's checksum is
 * checked first; a target that is not empty is refused unless --force, and so is a backup of a newer
 * portal (more migrations than this one knows).
 */
import { loadConfig } from '../config.ts';
import { manifestSummary, restoreBackup } from './backups.ts';
import { CliError, fromCaller, parseCliArgs, runCli } from './common.ts';

const USAGE = 'Uso: npm run restore -- --from <archivo> [--force]';

async function main(): Promise<void> {
  const values = parseCliArgs(
    process.argv.slice(2),
    { from: { type: 'string' }, force: { type: 'boolean' } },
    USAGE,
  );
  if (!values.from) throw new CliError(`Falta --from: el archivo de la copia.\n${USAGE}`);
  const { manifest, movedAside } = await restoreBackup(
    loadConfig(),
    fromCaller(values.from),
    values.force === true,
  );
  process.stdout.write(
    `Copia restaurada y verificada (suma SHA-256 y filas de cada tabla iguales al manifiesto): ${manifestSummary(manifest)}.\n`,
  );
  if (movedAside) process.stdout.write(`La base integrada que había se conservó en ${movedAside}.\n`);
}

runCli(main);
