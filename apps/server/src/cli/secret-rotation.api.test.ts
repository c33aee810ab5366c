import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { type Database, openDatabase } from '../db/client.ts';
import { clientSso, pushVapid, users, webhookEndpoints } from '../db/schema/index.ts';
import { appKeys, encryptionRing } from '../lib/keys.ts';
import {
  openSecret,
  openWithRing,
  sealSecret,
  secretContext,
  ssoContext,
  vapidContext,
} from '../lib/secret-box.ts';
import { type ColumnCounts, rotateSecrets, rotationReport } from '../lib/secret-rotation.ts';
import { codeAt, newTotpSecret, sealTotpSecret, stepAt } from '../lib/totp.ts';
import { MSG } from '../messages.ts';
import { hashBackupCode, newBackupCodes } from '../modules/two-factor/backup-codes.ts';
import { replaceBackupCodes } from '../modules/two-factor/two-factor.repository.ts';
import { runCommand } from '../test/commands.ts';
import { pgliteOnDisk } from '../test/databases.ts';
import { makeClient, makeUser, TEST_PASSWORD } from '../test/factories.ts';
import { ApiClient, createTestApp, DB_KINDS, type TestApp } from '../test/harness.ts';

const OLD = 'clave-anterior-de-las-pruebas-0123456789abcdef';
const NEW = 'clave-nueva-de-las-pruebas-0123456789abcdefghij';
const keysOf = (secret: string, previous?: string) =>
  appKeys({
    SECRET_KEY: secret,
    SECRET_KEY_PREVIOUS: previous ? [previous] : undefined,
    dataDir: 'memory://',
    DATABASE_URL: undefined,
  });
const oldKeys = keysOf(OLD);
const newKeys = keysOf(NEW, OLD);
const ROTATED = { SECRET_KEY: NEW, SECRET_KEY_PREVIOUS: OLD };

let ipCounter = 1;
const nextIp = () => `10.88.${Math.floor(ipCounter / 250)}.${(ipCounter++ % 250) + 1}`;

type Db = Database['db'];

/** A rol-2 user enrolled in two-factor sign-in with a secret sealed under `key` (before the key changed). */
async function enrolledUnder(db: Db, key: Buffer) {
  const client = await makeClient(db);
  const user = await makeUser(db, { rol: 2, idCliente: client.id });
  const secret = newTotpSecret();
  await db
    .update(users)
    .set({ totpSecret: sealTotpSecret(key, user.id, secret), totpEnabledAt: new Date() })
    .where(eq(users.id, user.id));
  return { user, secret };
}

async function passwordStep(app: TestApp, usuario: string) {
  const c = new ApiClient(app.app, nextIp());
  const res = await c.login(usuario, TEST_PASSWORD);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json()).toEqual({ status: '2fa_requerido' });
  return c;
}

const totals = (counts: ColumnCounts[]) => ({
  reencrypted: counts.reduce((n, c) => n + c.reencrypted, 0),
  current: counts.reduce((n, c) => n + c.current, 0),
  unreadable: counts.reduce((n, c) => n + c.unreadable.length, 0),
});

async function sealedOf(db: Db, userId: number) {
  const [row] = await db
    .select({ s: users.totpSecret, p: users.totpPendingSecret })
    .from(users)
    .where(eq(users.id, userId));
  return row!;
}

// Two of these tests start the server twice, and one runs the command as its own process three times (each
// loads the server's code through tsx and opens the database): 39–47 s on a quiet 2-core machine, 63 s in a CI
// run beside the other suites, over the project's 60 s. The time is process start-up, not a wait.
vi.setConfig({ testTimeout: 180_000 });

describe.each(DB_KINDS)('key rotation (%s)', (kind) => {
  const apps: TestApp[] = [];
  const app = async (env: Record<string, string>, logLines?: string[]) => {
    const t = await createTestApp(kind, { env, logLines });
    apps.push(t);
    return t;
  };
  afterAll(async () => {
    await Promise.all(apps.map((t) => t.close()));
  });

  it('with the previous key configured, an enrolled user signs in as before; a form opened before the change still signs in', async () => {
    const t = await app(ROTATED);
    const { user, secret } = await enrolledUnder(t.database.db, oldKeys.encryption);
    const c = await passwordStep(t, user.usuario);
    const done = await c.post('/api/login/2fa', { codigo: codeAt(secret, stepAt(Date.now())) });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().user.id).toBe(user.id);

    // The sign-in form's anonymous session was signed by a server still on the old key.
    const before = await app({ SECRET_KEY: OLD });
    const form = new ApiClient(before.app, nextIp());
    await form.csrf();
    const plain = await makeUser(t.database.db, { rol: 1, idCliente: (await makeClient(t.database.db)).id });
    const after = new ApiClient(t.app, form.ip);
    for (const [k, v] of form.cookies) after.cookies.set(k, v);
    expect((await after.login(plain.usuario, TEST_PASSWORD)).statusCode).toBe(200);
    // Without the previous key that form's session is unknown: the usual 419.
    const lost = await app({ SECRET_KEY: NEW });
    const stranger = new ApiClient(lost.app, form.ip);
    for (const [k, v] of form.cookies) stranger.cookies.set(k, v);
    const refused = await stranger.login(plain.usuario, TEST_PASSWORD);
    expect(refused.statusCode).toBe(419);
  });

  it('without it, the code step answers a Spanish 403 to reset the second factor and logs a warning without the secret; backup codes still work', async () => {
    const lines: string[] = [];
    const t = await app({ SECRET_KEY: NEW }, lines);
    const { user, secret } = await enrolledUnder(t.database.db, oldKeys.encryption);
    const sealed = (await sealedOf(t.database.db, user.id)).s!;
    const codes = newBackupCodes();
    await t.database.db.transaction((tx) => replaceBackupCodes(tx, user.id, codes.map(hashBackupCode)));

    const c = await passwordStep(t, user.usuario);
    const res = await c.post('/api/login/2fa', { codigo: codeAt(secret, stepAt(Date.now())) });
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json()).toMatchObject({ code: 'TWO_FACTOR_UNREADABLE', msg: MSG.dosPasosIlegible });
    const warned = lines.map((l) => JSON.parse(l)).filter((l) => l.userId === user.id && l.level === 40);
    expect(warned).toHaveLength(1);
    expect(warned[0].msg).toContain('no se abre con ninguna clave configurada');
    const all = lines.join('\n');
    expect(all).not.toContain(secret);
    expect(all).not.toContain(sealed);

    // A backup code is kept as a hash, not sealed: it still signs in.
    const withBackup = await c.post('/api/login/2fa', { codigo_respaldo: codes[0] });
    expect(withBackup.statusCode, withBackup.body).toBe(200);
  });

  /** Rows sealed under the old key, one under the new one, one under no known key, on a database of its own. */
  async function sealedRows(t: TestApp, n = 3) {
    const db = t.database.db;
    const old = [];
    for (let i = 0; i < n; i++) old.push(await enrolledUnder(db, oldKeys.encryption));
    const current = await enrolledUnder(db, newKeys.encryption);
    const lost = await enrolledUnder(db, randomBytes(32));
    const pendingSecret = newTotpSecret();
    await db
      .update(users)
      .set({ totpPendingSecret: sealTotpSecret(oldKeys.encryption, current.user.id, pendingSecret) })
      .where(eq(users.id, current.user.id));
    const [hook] = await db
      .insert(webhookEndpoints)
      .values({ url: 'https://receptor.example/h', eventos: ['pedido.creado'], secretoCifrado: '' })
      .returning();
    await db
      .update(webhookEndpoints)
      .set({ secretoCifrado: sealSecret(oldKeys.encryption, 'whsec_rotacion', secretContext(hook!.id)) })
      .where(eq(webhookEndpoints.id, hook!.id));
    // The VAPID key pair (decision 0117) as if made before the key changed.
    const [vapid] = await db.select().from(pushVapid);
    const vapidPrivate = openWithRing(
      encryptionRing(t.app.keys),
      vapid!.clavePrivadaCifrada,
      vapidContext(1),
    ).plaintext;
    await db
      .update(pushVapid)
      .set({ clavePrivadaCifrada: sealSecret(oldKeys.encryption, vapidPrivate, vapidContext(1)) });
    // A client's single sign-on secret (decision 0120) sealed under the old key, and one under the new.
    const ssoClient = await makeClient(db);
    const ssoCurrent = await makeClient(db);
    const ssoRow = (idCliente: number, key: Buffer, secreto: string) => ({
      idCliente,
      emisor: 'https://93.184.216.34/tenant/v2.0',
      idClienteOidc: 'portal',
      secretoCifrado: sealSecret(key, secreto, ssoContext(idCliente)),
      dominios: [`rotacion-${idCliente}.com.mx`],
    });
    await db
      .insert(clientSso)
      .values([
        ssoRow(ssoClient.id, oldKeys.encryption, 'sso-rotacion'),
        ssoRow(ssoCurrent.id, newKeys.encryption, 'sso-actual'),
      ]);
    return { old, current, lost, pendingSecret, hook: hook!, vapidPrivate, ssoClient };
  }

  it('secrets:rotate seals every old secret under the new key; a second run changes nothing and says so', async () => {
    const t = await app(ROTATED);
    const db = t.database.db;
    const rows = await sealedRows(t);
    const currentBefore = (await sealedOf(db, rows.current.user.id)).s;

    const first = await rotateSecrets(db, t.app.keys, { batchSize: 2 });
    expect(first.map((c) => [c.reencrypted, c.current, c.unreadable])).toEqual([
      [3, 1, [rows.lost.user.id]],
      [1, 0, []],
      [1, 0, []],
      [1, 0, []],
      [1, 1, []],
    ]);
    // Each now opens with the new key alone; what was current is untouched.
    for (const { user, secret } of rows.old) {
      const sealed = (await sealedOf(db, user.id)).s!;
      expect(openSecret(keysOf(NEW).encryption, sealed, `totp:${user.id}`)).toBe(secret);
    }
    expect((await sealedOf(db, rows.current.user.id)).s).toBe(currentBefore);
    expect(
      openSecret(
        keysOf(NEW).encryption,
        (await sealedOf(db, rows.current.user.id)).p!,
        `totp:${rows.current.user.id}`,
      ),
    ).toBe(rows.pendingSecret);
    const [hook] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, rows.hook.id));
    expect(openSecret(keysOf(NEW).encryption, hook!.secretoCifrado, secretContext(rows.hook.id))).toBe(
      'whsec_rotacion',
    );
    const [vapid] = await db.select().from(pushVapid);
    expect(openSecret(keysOf(NEW).encryption, vapid!.clavePrivadaCifrada, vapidContext(1))).toBe(
      rows.vapidPrivate,
    );
    const [sso] = await db.select().from(clientSso).where(eq(clientSso.idCliente, rows.ssoClient.id));
    expect(openSecret(keysOf(NEW).encryption, sso!.secretoCifrado, ssoContext(rows.ssoClient.id))).toBe(
      'sso-rotacion',
    );
    const report = rotationReport(first);
    expect(report).toContain(
      'Secretos de verificación en dos pasos: vueltos a cifrar 3, ya con la clave actual 1, ilegibles 1',
    );
    expect(report).toContain(
      'Clave privada de las notificaciones push (VAPID): vueltos a cifrar 1, ya con la clave actual 0, ilegibles 0',
    );
    expect(report).toContain(
      'Secretos de cliente del inicio de sesión con la cuenta de la empresa: vueltos a cifrar 1, ya con la clave actual 1, ilegibles 0',
    );
    expect(report).toContain('Total: vueltos a cifrar 7, ya con la clave actual 2, ilegibles 1');

    const snapshot = await db.select({ id: users.id, s: users.totpSecret }).from(users).orderBy(users.id);
    const second = await rotateSecrets(db, t.app.keys);
    expect(totals(second)).toEqual({ reencrypted: 0, current: 9, unreadable: 1 });
    expect(rotationReport(second)).toContain('Nada que volver a cifrar');
    expect(await db.select({ id: users.id, s: users.totpSecret }).from(users).orderBy(users.id)).toEqual(
      snapshot,
    );
  });

  it('a row an instance changes between the read and the write is never overwritten', async () => {
    const t = await app(ROTATED);
    const db = t.database.db;
    const rows = await sealedRows(t, 2);
    const [a, b] = rows.old as [(typeof rows.old)[0], (typeof rows.old)[0]];
    // A new enrolment under the new key (a) and one by an instance still on the old key (b), meanwhile.
    const fresh = { a: newTotpSecret(), b: newTotpSecret() };
    const theirs = sealTotpSecret(newKeys.encryption, a.user.id, fresh.a);
    let changed = false;
    const counts = await rotateSecrets(db, t.app.keys, {
      afterRead: async (column) => {
        if (changed || column.column !== 'totp_secret') return;
        changed = true;
        await db.update(users).set({ totpSecret: theirs }).where(eq(users.id, a.user.id));
        await db
          .update(users)
          .set({ totpSecret: sealTotpSecret(oldKeys.encryption, b.user.id, fresh.b) })
          .where(eq(users.id, b.user.id));
      },
    });
    expect(changed).toBe(true);
    expect((await sealedOf(db, a.user.id)).s).toBe(theirs);
    const bSealed = (await sealedOf(db, b.user.id)).s!;
    expect(openSecret(keysOf(NEW).encryption, bSealed, `totp:${b.user.id}`)).toBe(fresh.b);
    expect(counts[0]).toMatchObject({ reencrypted: 1, current: 2 });
  });

  it('an interrupted run keeps what it did, and the next one finishes', async () => {
    const t = await app(ROTATED);
    const db = t.database.db;
    const rows = await sealedRows(t, 5);
    const stop = new AbortController();
    let batches = 0;
    await expect(
      rotateSecrets(db, t.app.keys, {
        batchSize: 2,
        signal: stop.signal,
        afterRead: async () => {
          if (++batches === 2) stop.abort();
        },
      }),
    ).rejects.toThrow();
    const opensWithNew = async () => {
      let n = 0;
      for (const { user } of rows.old) {
        try {
          openSecret(keysOf(NEW).encryption, (await sealedOf(db, user.id)).s!, `totp:${user.id}`);
          n++;
        } catch {}
      }
      return n;
    };
    expect(await opensWithNew()).toBe(2);
    const rest = await rotateSecrets(db, t.app.keys, { batchSize: 2 });
    expect(rest[0]).toMatchObject({ reencrypted: 3, current: 3 });
    expect(await opensWithNew()).toBe(5);
  });

  it('npm run secrets:rotate: the report in Spanish, then "nada que volver a cifrar"', async () => {
    const target = await commandTarget(kind);
    try {
      const { user, secret } = await enrolledUnder(target.database.db, oldKeys.encryption);
      // A VAPID key pair made under the old key (a server on PostgreSQL made one at its start).
      await target.database.db.delete(pushVapid);
      await target.database.db.insert(pushVapid).values({
        clavePublica: 'clave-publica-de-prueba',
        clavePrivadaCifrada: sealSecret(oldKeys.encryption, 'clave-privada-de-prueba', vapidContext(1)),
      });
      if (kind === 'pglite') {
        // While another process holds the embedded database, the command refuses.
        const held = await runCommand('secrets-rotate', [], target.env);
        expect(held.code).toBe(1);
        expect(held.stderr).toContain('está abierta por otro proceso');
        await target.database.close();
      }
      const first = await runCommand('secrets-rotate', [], target.env);
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout).toContain(
        'Secretos de verificación en dos pasos: vueltos a cifrar 1, ya con la clave actual 0, ilegibles 0',
      );
      expect(first.stdout).toContain(
        'Clave privada de las notificaciones push (VAPID): vueltos a cifrar 1, ya con la clave actual 0, ilegibles 0',
      );
      const second = await runCommand('secrets-rotate', [], target.env);
      expect(second.code, second.stderr).toBe(0);
      expect(second.stdout).toContain('Total: vueltos a cifrar 0, ya con la clave actual 2, ilegibles 0');
      expect(second.stdout).toContain('Nada que volver a cifrar');
      const check = await target.reopen();
      const [row] = await check.db.select().from(users).where(eq(users.id, user.id));
      expect(openSecret(keysOf(NEW).encryption, row!.totpSecret!, `totp:${user.id}`)).toBe(secret);
      const [vapid] = await check.db.select().from(pushVapid);
      expect(openSecret(keysOf(NEW).encryption, vapid!.clavePrivadaCifrada, vapidContext(1))).toBe(
        'clave-privada-de-prueba',
      );
    } finally {
      await target.drop();
    }
  });
});

/** A database the command can open from another process: a PGlite directory, or the PostgreSQL test's. */
async function commandTarget(kind: 'pglite' | 'postgres') {
  if (kind === 'postgres') {
    const t = await createTestApp('postgres');
    return {
      database: t.database,
      env: { DATABASE_URL: t.database.url!, ...ROTATED },
      reopen: async () => t.database,
      drop: () => t.close(),
    };
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'portal-rotacion-'));
  const database = await pgliteOnDisk(dir);
  let reopened: Database | undefined;
  return {
    database,
    env: { DATA_DIR: dir, ...ROTATED },
    reopen: async () => {
      reopened = await openDatabase({ dataDir: dir });
      return reopened;
    },
    drop: async () => {
      await reopened?.close();
      if (existsSync(path.join(dir, 'pglite', 'postmaster.pid')))
        await database.close().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
