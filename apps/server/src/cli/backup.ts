/**
 * A backup of the portal's database (decision 0103):
 *   npm run backup -- --out FILE
 * PostgreSQL (DATABASE_URL): pg_dump in one snapshot, while the portal keeps working. The embedded
 * database (DATA_DIR): only while no server holds it. FILE: manifest.json and the dump, in a tar.
 */
import { loadConfig } from '../config.ts';
import { manifestSummary, takeBackup } from './backups.ts';
import { CliError, fromCaller, parseCliArgs, runCli } from './common.ts';

const USAGE = 'Uso: npm run backup -- --out <archivo>';

async function main(): Promise<void> {
  const values = parseCliArgs(process.argv.slice(2), { out: { type: 'string' } }, USAGE);
  if (!values.out) throw new CliError(`Falta --out: el archivo donde escribir la copia.\n${USAGE}`);
  const { file, manifest } = await takeBackup(loadConfig(), fromCaller(values.out));
  process.stdout.write(`Copia de seguridad escrita en ${file}: ${manifestSummary(manifest)}.\n`);
}

runCli(main);
