/**
 * The changes that must stop a signed-in buyer's very next request on another instance (docs/domain.md,
 * "Sessions", decision 0071), shared by the scenarios that run two instances: behind nginx
 * (reliability.test.ts) and through a connection pooler (pgbouncer.test.ts).
 */
import { addDays, businessDate } from '@portal/shared/domain/time';
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Db } from '../src/db/client.ts';
import { multipart } from '../src/test/admin-fixtures.ts';
import { makeClient, makeUser, makeWeek, TEST_PASSWORD } from '../src/test/factories.ts';
import { Client, codeOf, type Reply } from './client.ts';
import { rows } from './fixtures.ts';
import type { ServerInstance } from './stack.ts';

/** What /healthz says of an instance's session cache: 'activa' or 'inactiva' (decision 0071). */
export async function cacheState(instance: ServerInstance): Promise<string> {
  const res = await new Client(instance.url).get('/healthz');
  return (res.body as { cache_sesiones?: string } | null)?.cache_sesiones ?? '';
}

/** A distributor administrator (rol 4) signed in on `instance`. */
export async function adminOn(db: Db, instance: ServerInstance): Promise<Client> {
  const user = await makeUser(db, { rol: 4, idCliente: null });
  const c = new Client(instance.url);
  await c.signIn(user.usuario, TEST_PASSWORD);
  return c;
}

export interface Revocation {
  /** A fresh buyer signed in on A, its session used on B; and how a refusal looks. */
  prepare(): Promise<{ onB: Client; expectRefused: (r: Reply, name: string) => void }>;
  /** The change, made through A (or straight in the database). */
  apply(): Promise<void>;
}

/**
 * Each change that must stop a signed-in buyer's very next request (docs/domain.md, "Sessions"), each with a
 * buyer of its own: the change goes through instance `a`, the request to instance `b`.
 */
export async function revocations(
  db: Db,
  admin: Client,
  a: ServerInstance,
  b: ServerInstance,
): Promise<Record<string, Revocation>> {
  const today = businessDate(new Date());
  const refusedWith =
    (...statuses: number[]) =>
    (r: Reply, name: string) =>
      expect(statuses, `${name}: ${r.status} ${r.text}`).toContain(r.status);
  const make = (
    change: (ctx: {
      user: Awaited<ReturnType<typeof makeUser>>;
      client: Awaited<ReturnType<typeof makeClient>>;
      onA: Client;
    }) => Promise<void>,
    refused: (r: Reply, name: string) => void,
    withWeek = false,
  ): Revocation => {
    let ctx: Parameters<typeof change>[0] | undefined;
    return {
      async prepare() {
        const client = await makeClient(db);
        if (withWeek)
          await makeWeek(db, { idCliente: client.id, inicio: addDays(today, -1), fin: addDays(today, 3) });
        const user = await makeUser(db, { rol: 1, idCliente: client.id });
        const onA = new Client(a.url);
        await onA.signIn(user.usuario, TEST_PASSWORD);
        ctx = { user, client, onA };
        return { onB: onA.at(b.url), expectRefused: refused };
      },
      apply: () => change(ctx!),
    };
  };
  const putUser = async (user: Awaited<ReturnType<typeof makeUser>>, activo: boolean) => {
    const res = await admin.request('PUT', `/api/usuarios/${user.id}`, {
      usuario: user.usuario,
      user_id: user.email,
      nombre: user.nombre,
      direccion_entrega: 'Calle 2',
      rol: 1,
      active_week: 1,
      entrega_week: 1,
      activo,
    });
    expect(res.status, res.text).toBe(200);
  };
  return {
    deactivation: make(({ user }) => putUser(user, false), refusedWith(401)),
    passwordReset: make(async ({ user }) => {
      const res = await admin.post(`/api/recuperar/password/${user.id}`);
      expect(res.status, res.text).toBe(200);
    }, refusedWith(401)),
    clientDeactivation: make(async ({ client }) => {
      const form = multipart({
        nombre: client.nombre,
        presupuesto_default: 5000,
        limite_de_compras: 4,
        cantidad_autorizadores: 2,
        activo: 0,
      });
      const res = await admin.post(`/api/clientes/update/${client.id}`, form.body, form.headers);
      expect(res.status, res.text).toBe(200);
    }, refusedWith(401)),
    weekClosed: make(
      async ({ client }) => {
        const [week] = await rows<{ id: number }>(
          db,
          sql`select id from weeks where id_cliente = ${client.id}`,
        );
        const res = await admin.request('PUT', `/api/calendario_semanas/${week!.id}`, { activo: false });
        expect(res.status, res.text).toBe(200);
      },
      (r, name) => expect(`${r.status} ${codeOf(r)}`, name).toBe('403 OUTSIDE_WEEK'),
      true,
    ),
    signOut: make(async ({ onA }) => {
      const res = await onA.get('/api/logout');
      expect(res.status, res.text).toBe(200);
    }, refusedWith(401)),
  };
}
