/**
 * What the operator's commands (npm run admin:create, secrets:rotate, backup, restore) share: an error
 * with a message for the operator, the way they end, and how they open the database.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { type Config, ConfigError } from '../config.ts';
import { type Database, openDatabase } from '../db/client.ts';

/** An error with a message for the operator; exit code 1. */
export class CliError extends Error {}

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * The command's options (no positionals); an unknown or malformed one is a CliError with the usage, and
 * `--help` / `-h` prints the usage and ends the command.
 */
export function parseCliArgs<O extends Options>(argv: string[], options: O, usage: string) {
  try {
    const { values } = parseArgs({
      args: argv,
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: false,
    });
    if ((values as { help?: boolean }).help) {
      process.stdout.write(`${usage}\n`);
      process.exit(0);
    }
    return values as { [K in keyof O]?: O[K]['type'] extends 'boolean' ? boolean : string };
  } catch (err) {
    throw new CliError(`${err instanceof Error ? err.message : String(err)}\n${usage}`);
  }
}

/** A path the operator typed, from the directory `npm` was run in (npm -w runs the command in apps/server). */
export function fromCaller(file: string): string {
  return path.resolve(process.env.INIT_CWD ?? process.cwd(), file);
}

/** Where the embedded database of DATA_DIR lives. */
export function pgliteDir(config: Pick<Config, 'dataDir'>): string {
  return path.resolve(config.dataDir, 'pglite');
}

/**
 * The embedded database is one process's (decision 0103): while a server holds it, its directory has a
 * postmaster.pid, and a second process opening it could damage it. Refused then, with what to do.
 */
export function refuseHeldPglite(config: Pick<Config, 'dataDir' | 'DATABASE_URL'>): void {
  if (config.DATABASE_URL || config.dataDir.startsWith('memory://')) return;
  const pid = path.join(pgliteDir(config), 'postmaster.pid');
  if (existsSync(pid)) {
    throw new CliError(
      `La base de datos integrada (${pgliteDir(config)}) está abierta por otro proceso, probablemente el servidor. ` +
        `Detén el servidor y vuelve a intentarlo. Si no hay ningún servidor en marcha (se detuvo de golpe), borra ${pid}.`,
    );
  }
}

/** The configured database (DATABASE_URL, or the embedded one of DATA_DIR when no server holds it). */
export async function openConfiguredDatabase(config: Config): Promise<Database> {
  refuseHeldPglite(config);
  return openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir, poolSize: 2 });
}

/** Runs a command's main: exit 0 when it ends, 1 with its message (never a query's parameters) when not. */
export function runCli(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (err: unknown) => {
      if (err instanceof CliError || err instanceof ConfigError) {
        process.stderr.write(`${err.message}\n`);
      } else {
        // The root cause only: a wrapped query error would list the statement's parameters.
        let root: unknown = err;
        while (root instanceof Error && root.cause instanceof Error) root = root.cause;
        process.stderr.write(`Error inesperado: ${root instanceof Error ? root.message : String(root)}\n`);
      }
      process.exit(1);
    },
  );
}
