import { inArray } from 'drizzle-orm';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { users } from './db/schema/index.ts';

/** The sign-in names the demo data creates (their passwords are published in the README). */
export const DEMO_USUARIOS = [
  'admin',
  'admin2fa',
  'autorizador',
  'superautorizador',
  'usuario',
  'usuario2',
  'gerente',
  'comprador',
  'revisor',
] as const;

/**
 * Whether an empty database gets the demo data. Development on the embedded database: yes (the laptop
 * demo), unless SEED_DEMO=0. Production: only when asked (SEED_DEMO=1 or --seed-demo), whatever the
 * database, so a production start never opens with published accounts by accident.
 */
export function demoSeedWanted(
  config: Pick<Config, 'NODE_ENV' | 'SEED_DEMO'>,
  kind: Database['kind'],
  argv: readonly string[],
): boolean {
  const asked = config.SEED_DEMO === true || argv.includes('--seed-demo');
  if (config.NODE_ENV === 'production') return asked;
  return config.SEED_DEMO ?? (kind === 'pglite' || asked);
}

/** In production, demo accounts asked for explicitly must change their published password at first use. */
export async function expireDemoPasswords(database: Database): Promise<void> {
  await database.db
    .update(users)
    .set({ passwordTemporary: true })
    .where(inArray(users.usuario, [...DEMO_USUARIOS]));
}

/** The demo accounts present in the database (a loud warning at every start names them). */
export async function demoAccountsPresent(database: Database): Promise<string[]> {
  const rows = await database.db
    .select({ usuario: users.usuario })
    .from(users)
    .where(inArray(users.usuario, [...DEMO_USUARIOS]));
  return rows.map((r) => r.usuario).sort();
}

export function demoWarning(present: readonly string[], production: boolean): string {
  const bar = '!'.repeat(78);
  return [
    bar,
    `!! ATENCIÓN: existen cuentas de demostración con contraseñas publicadas: ${present.join(', ')}.`,
    production
      ? '!! Esta instancia corre en producción: desactívalas o bórralas antes de abrirla a los usuarios.'
      : '!! Son solo para probar el portal en este equipo; no uses esta base de datos en producción.',
    bar,
  ].join('\n');
}
