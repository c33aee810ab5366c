/**
 * The users list's total from the kept counts (decision 0078, migration 0028) against counting the users,
 * after every step of a random sequence of creations (administrators among them), role, status and client
 * changes, deletions and merges, some run at once. The seed is printed; `USER_COUNTS_SEED=<n>` replays it.
 */
import { and, count, eq, ne, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userCounts, users } from '../../db/schema/index.ts';
import { signedInAdmin } from '../../test/admin-fixtures.ts';
import { makeClient, makeUser } from '../../test/factories.ts';
import { type ApiClient, createTestApp, DB_KINDS, type TestApp } from '../../test/harness.ts';
import { generator } from '../../test/random.ts';
import { mergeUserCounts } from './users.repository.ts';

const SEED = Number(process.env.USER_COUNTS_SEED ?? Date.now() % 1_000_000);
const STEPS = 30;

describe.each(DB_KINDS)('users list totals from the kept counts (%s)', (kind) => {
  let t: TestApp;
  let admin: ApiClient;
  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = (await signedInAdmin(t.app, t.database.db)).api;
  });
  afterAll(async () => {
    await t?.close();
  });
  const db = () => t.database.db;

  type Filter = { id_cliente?: number; rol?: number; estatus?: 'activo' | 'inactivo'; q?: string };

  /** The total the list answers for `f`, and the users counted directly. */
  async function totals(f: Filter) {
    const params = new URLSearchParams(
      Object.entries(f).map(([k, v]) => [k, String(v)] as [string, string]),
    ).toString();
    const res = await admin.get(`/api/usuarios${params ? `?${params}` : ''}`);
    expect(res.statusCode, res.body).toBe(200);
    const conditions: SQL[] = [ne(users.rol, 4)];
    if (f.id_cliente !== undefined) conditions.push(eq(users.idCliente, f.id_cliente));
    if (f.rol !== undefined) conditions.push(eq(users.rol, f.rol));
    if (f.estatus !== undefined) conditions.push(eq(users.activo, f.estatus === 'activo'));
    const [counted] = await db()
      .select({ n: count() })
      .from(users)
      .where(and(...conditions));
    return { listed: res.json().total as number, counted: counted!.n };
  }

  function shapes(a: number, b: number): Filter[] {
    return [
      {},
      { id_cliente: a },
      { id_cliente: b },
      { rol: 1 },
      { rol: 3 },
      { estatus: 'activo' },
      { estatus: 'inactivo' },
      { id_cliente: a, rol: 2 },
      { id_cliente: b, estatus: 'inactivo' },
      { id_cliente: a, rol: 1, estatus: 'activo' },
      { rol: 2, estatus: 'inactivo' },
    ];
  }

  async function expectExact(a: number, b: number, step: string) {
    for (const f of shapes(a, b)) {
      const { listed, counted } = await totals(f);
      expect(listed, `${step}: ${JSON.stringify(f)} (seed ${SEED})`).toBe(counted);
    }
  }

  it('a random sequence of creations, changes, deletions and merges keeps every total exact', async () => {
    console.log(`users counts seed: ${SEED} (USER_COUNTS_SEED=${SEED} replays it)`);
    const r = generator(SEED);
    const a = (await makeClient(db())).id;
    const b = (await makeClient(db())).id;
    const ids: number[] = [];
    const create = async () => {
      // Now and then an administrator, never listed nor counted.
      const admin = r.int(8) === 0;
      const u = await makeUser(db(), {
        rol: admin ? 4 : 1 + r.int(3),
        idCliente: admin ? null : r.pick([a, b]),
        activo: r.int(4) !== 0,
      });
      if (!admin) ids.push(u.id);
    };
    const change = async () => {
      if (ids.length === 0) return create();
      const id = r.pick(ids);
      const what = r.int(3);
      const set =
        what === 0
          ? { rol: 1 + r.int(3) }
          : what === 1
            ? { activo: r.int(2) === 0 }
            : { idCliente: r.pick([a, b]) };
      await db().update(users).set(set).where(eq(users.id, id));
    };
    const remove = async () => {
      if (ids.length === 0) return create();
      const id = ids.splice(r.int(ids.length), 1)[0]!;
      await db().delete(users).where(eq(users.id, id));
    };
    const merge = () => mergeUserCounts(db());
    const steps = [create, create, change, change, remove, merge];
    for (let i = 0; i < 6; i++) await create();
    await expectExact(a, b, 'start');
    for (let step = 0; step < STEPS; step++) {
      if (r.int(4) === 0) {
        // Several at once, merges among them: appended rows never wait on each other.
        const batch = Array.from({ length: 3 + r.int(4) }, () => r.pick(steps));
        await Promise.all(batch.map((s) => s()));
        await expectExact(a, b, `step ${step} (at once: ${batch.map((s) => s.name).join(', ')})`);
      } else {
        const s = r.pick(steps);
        await s();
        await expectExact(a, b, `step ${step} (${s.name})`);
      }
    }
  });

  it('users moved between two clients in opposite directions at once all move (no deadlock), totals exact', async () => {
    const a = (await makeClient(db(), {})).id;
    const b = (await makeClient(db(), {})).id;
    const inA = await Promise.all(Array.from({ length: 4 }, () => makeUser(db(), { rol: 1, idCliente: a })));
    const inB = await Promise.all(Array.from({ length: 4 }, () => makeUser(db(), { rol: 1, idCliente: b })));
    const move = (list: { id: number }[], idCliente: number) =>
      list.map((u) => db().update(users).set({ idCliente }).where(eq(users.id, u.id)));
    for (let round = 0; round < 10; round++) {
      // Each move bumps both clients' version rows (decision 0088): in one order, so they queue.
      const even = round % 2 === 0;
      await Promise.all([...move(inA, even ? b : a), ...move(inB, even ? a : b)]);
    }
    await expectExact(a, b, 'after the moves');
  });

  it('a sign-in, a name or a password leaves the counts alone; a role, status or client change does not', async () => {
    const c = await makeClient(db());
    const u = await makeUser(db(), { rol: 1, idCliente: c.id });
    const rows = async () => (await db().select({ n: count() }).from(userCounts))[0]!.n;
    const before = await rows();
    await db()
      .update(users)
      .set({ ultimoAcceso: new Date(), nombre: 'Otro Nombre', passwordChangedAt: new Date() })
      .where(eq(users.id, u.id));
    // Setting a counted column to the value it has appends nothing either.
    await db().update(users).set({ activo: true, rol: 1 }).where(eq(users.id, u.id));
    expect(await rows()).toBe(before);
    await db().update(users).set({ activo: false }).where(eq(users.id, u.id));
    expect(await rows()).toBe(before + 2);
    expect((await totals({ id_cliente: c.id, estatus: 'inactivo' })).listed).toBe(1);
    expect((await totals({ id_cliente: c.id, estatus: 'activo' })).listed).toBe(0);
  });

  it('the list merges many rows of a key when it reads them, and the total stays exact', async () => {
    const c = await makeClient(db());
    for (let i = 0; i < 70; i++)
      await makeUser(db(), { rol: 1 + (i % 3), idCliente: c.id, activo: i % 5 !== 0 });
    const ofClient = async () =>
      (await db().select({ n: count() }).from(userCounts).where(eq(userCounts.idCliente, c.id)))[0]!.n;
    expect(await ofClient()).toBe(70);
    const { listed, counted } = await totals({ id_cliente: c.id });
    expect(listed).toBe(70);
    expect(counted).toBe(70);
    // One row per role and status at most.
    expect(await ofClient()).toBeLessThanOrEqual(6);
    // A page past the end has no row to bring the total with it, and still answers it.
    const past = await admin.get(`/api/usuarios?id_cliente=${c.id}&page=99`);
    expect(past.statusCode, past.body).toBe(200);
    expect(past.json()).toMatchObject({ usuarios: [], total: 70 });
    expect((await totals({ id_cliente: c.id })).listed).toBe(70);
    expect((await totals({ id_cliente: c.id, rol: 2, estatus: 'activo' })).listed).toBe(
      (await totals({ id_cliente: c.id, rol: 2, estatus: 'activo' })).counted,
    );
  });

  it('a search still counts the users it finds', async () => {
    const c = await makeClient(db());
    const found = await makeUser(db(), { rol: 1, idCliente: c.id, nombre: 'Zacarías Quintanilla' });
    await makeUser(db(), { rol: 1, idCliente: c.id });
    const res = await admin.get(`/api/usuarios?id_cliente=${c.id}&q=quintanilla`);
    expect(res.statusCode).toBe(200);
    expect(res.json().total).toBe(1);
    expect(res.json().usuarios.map((u: { id: number }) => u.id)).toEqual([found.id]);
    // Removing the users of the client leaves its total at zero, through the kept counts.
    await db().delete(users).where(eq(users.idCliente, c.id));
    expect((await totals({ id_cliente: c.id })).listed).toBe(0);
  });
});
