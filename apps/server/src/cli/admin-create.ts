/**
 * Creates an administrator (rol 4):
 *   npm run admin:create -- --usuario X --email Y [--nombre "Nombre completo"] [--2fa]
 * The password is asked twice on the terminal without echo; when standard input is not a terminal
 * it is read from the environment variable ADMIN_PASSWORD. It is never printed.
 * With --2fa the administrator is enrolled in two-factor sign-in at once: the otpauth:// URL (to add to
 * an authenticator app) and the 10 backup codes are printed once, on this terminal only.
 */
import { isEmailAddress } from '@portal/shared/domain/email';
import { passwordMeetsPolicy } from '@portal/shared/domain/password';
import { eq, sql } from 'drizzle-orm';
import { loadConfig } from '../config.ts';
import { type Database, runMigrations } from '../db/client.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { users } from '../db/schema/index.ts';
import { audit } from '../lib/audit.ts';
import { systemClock } from '../lib/clock.ts';
import { appKeys } from '../lib/keys.ts';
import { hashPassword } from '../lib/passwords.ts';
import { newTotpSecret, otpauthUrl, sealTotpSecret } from '../lib/totp.ts';
import { MSG } from '../messages.ts';
import { hashBackupCode, newBackupCodes } from '../modules/two-factor/backup-codes.ts';
import { replaceBackupCodes } from '../modules/two-factor/two-factor.repository.ts';
import { CliError, openConfiguredDatabase, parseCliArgs, runCli } from './common.ts';

const USAGE =
  'Uso: npm run admin:create -- --usuario <usuario> --email <correo> [--nombre "<nombre>"] [--2fa]';
const USUARIO = /^[A-Za-z0-9._@+-]{3,100}$/;

interface Args {
  usuario: string;
  email: string;
  nombre: string;
  /** Enrol in two-factor sign-in now. */
  twoFactor: boolean;
}

function parse(argv: string[]): Args {
  const values = parseCliArgs(
    argv,
    {
      usuario: { type: 'string' },
      email: { type: 'string' },
      nombre: { type: 'string' },
      '2fa': { type: 'boolean' },
    },
    USAGE,
  );
  const usuario = values.usuario?.trim() ?? '';
  const email = values.email?.trim() ?? '';
  if (!usuario || !email) throw new CliError(`Faltan datos: --usuario y --email son obligatorios.\n${USAGE}`);
  if (!USUARIO.test(usuario)) {
    throw new CliError(
      'El usuario debe tener de 3 a 100 caracteres: letras, números y . _ @ + - (sin espacios).',
    );
  }
  if (!isEmailAddress(email)) throw new CliError(`El correo «${email}» no es válido.`);
  const nombre = values.nombre?.trim() || 'Administrador';
  return { usuario, email, nombre, twoFactor: values['2fa'] === true };
}

/** Reads one line from the terminal without echoing it. */
function readHidden(prompt: string): Promise<string> {
  const stdin = process.stdin;
  return new Promise((resolve, reject) => {
    let value = '';
    const wasRaw = stdin.isRaw;
    // Echo off before the prompt shows, so nothing typed early is echoed.
    stdin.setRawMode(true);
    process.stderr.write(prompt);
    stdin.setEncoding('utf8');
    stdin.resume();
    const done = (err?: Error) => {
      stdin.removeListener('data', onData);
      stdin.setRawMode(wasRaw);
      stdin.pause();
      process.stderr.write('\n');
      if (err) reject(err);
      else resolve(value);
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n' || ch === '\u0004') {
          done();
          return;
        }
        if (ch === '\u0003') {
          done(new CliError('Cancelado.'));
          return;
        }
        if (ch === '\u007f' || ch === '\b') {
          value = Array.from(value).slice(0, -1).join('');
        } else if (ch >= ' ') {
          value += ch;
        }
      }
    };
    stdin.on('data', onData);
  });
}

async function askPassword(): Promise<string> {
  if (!process.stdin.isTTY) {
    const fromEnv = process.env.ADMIN_PASSWORD;
    if (!fromEnv) {
      throw new CliError(
        'No hay una terminal para pedir la contraseña: define la variable de entorno ADMIN_PASSWORD.',
      );
    }
    if (!passwordMeetsPolicy(fromEnv))
      throw new CliError(`ADMIN_PASSWORD no es válida: ${MSG.passwordPolitica}.`);
    return fromEnv;
  }
  for (let attempt = 1; attempt <= 3; attempt++) {
    const first = await readHidden('Contraseña: ');
    if (!passwordMeetsPolicy(first)) {
      process.stderr.write(`${MSG.passwordPolitica}.\n`);
      continue;
    }
    const second = await readHidden('Repite la contraseña: ');
    if (first !== second) {
      process.stderr.write(`${MSG.passwordsNoCoinciden}.\n`);
      continue;
    }
    return first;
  }
  throw new CliError('No se creó el administrador: demasiados intentos.');
}

async function usuarioExists(database: Database, usuario: string): Promise<boolean> {
  const rows = await database.db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.usuario}) = lower(${usuario})`)
    .limit(1);
  return rows.length > 0;
}

async function main(): Promise<void> {
  const args = parse(process.argv.slice(2));
  const config = loadConfig();
  const database = await openConfiguredDatabase(config);
  try {
    await runMigrations(database);
    const duplicate = () =>
      new CliError(`Ya existe un usuario «${args.usuario}». Elige otro nombre de usuario.`);
    // Checked before asking for the password, and again by the unique index on insert.
    if (await usuarioExists(database, args.usuario)) throw duplicate();

    const password = await askPassword();
    const passwordHash = await hashPassword(password);
    const totp = args.twoFactor ? { secret: newTotpSecret(), codes: newBackupCodes() } : null;
    let id: number;
    try {
      const created = await database.db.transaction(async (tx) => {
        const [row] = await tx
          .insert(users)
          .values({
            idCliente: null,
            usuario: args.usuario,
            email: args.email,
            nombre: args.nombre,
            rol: 4,
            passwordHash,
            passwordChangedAt: systemClock.now(),
            passwordTemporary: false,
          })
          .returning({ id: users.id });
        await audit(tx, {
          userId: null,
          eventType: 'usuario_creado',
          description: `Administrador ${args.usuario} creado desde la línea de comandos`,
          metadata: { id: row!.id, usuario: args.usuario, rol: 4, origen: 'cli' },
        });
        if (totp) {
          await tx
            .update(users)
            .set({
              totpSecret: sealTotpSecret(appKeys(config).encryption, row!.id, totp.secret),
              totpEnabledAt: systemClock.now(),
            })
            .where(eq(users.id, row!.id));
          await replaceBackupCodes(tx, row!.id, totp.codes.map(hashBackupCode));
          await audit(tx, {
            userId: row!.id,
            eventType: '2fa_activada',
            description: `Verificación en dos pasos activada desde la línea de comandos: ${args.usuario}`,
            metadata: { origen: 'cli' },
          });
        }
        return row!;
      });
      id = created.id;
    } catch (err) {
      if (isUniqueViolation(err)) throw duplicate();
      throw err;
    }
    process.stdout.write(`Administrador «${args.usuario}» creado (id ${id}).\n`);
    if (totp) {
      // Shown once, here only: neither is stored in clear nor logged.
      process.stdout.write(
        [
          '',
          'Verificación en dos pasos activada. Agrega esta cuenta a tu aplicación de autenticación',
          '(o convierte el URL en un código QR):',
          `  ${otpauthUrl(totp.secret, args.usuario)}`,
          `Clave para escribirla a mano: ${totp.secret.replace(/(.{4})/g, '$1 ').trim()}`,
          '',
          'Códigos de respaldo (cada uno sirve una vez; guárdalos en un lugar seguro, no se volverán a mostrar):',
          ...totp.codes.map((c) => `  ${c}`),
          '',
        ].join('\n'),
      );
    }
  } finally {
    await database.close();
  }
}

runCli(main);
