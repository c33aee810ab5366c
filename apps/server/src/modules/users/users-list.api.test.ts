import { USERS_PER_PAGE } from '@portal/shared/limits';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordTokens, sessions, systemLogs, userCategoryBudgets, users } from '../../db/schema/index.ts';
import { MSG } from '../../messages.ts';
import { signedInAdmin } from '../../test/admin-fixtures.ts';
import { makeCategory, makeClient, makeUser, TEST_PASSWORD, uniq } from '../../test/factories.ts';
import { ApiClient, createTestApp, DB_KINDS, type TestApp } from '../../test/harness.ts';
import { plantLinks } from '../../test/links.ts';

describe.each(
  DB_KINDS,
)('administration: the users list, its filters and sorts, bulk deactivation (%s)', (kind) => {
  let t: TestApp;
  let admin: ApiClient;
  let adminUser: Awaited<ReturnType<typeof signedInAdmin>>['user'];
  beforeAll(async () => {
    t = await createTestApp(kind);
    const a = await signedInAdmin(t.app, t.database.db);
    admin = a.api;
    adminUser = a.user;
  });
  afterAll(async () => {
    await t?.close();
  });
  const db = () => t.database.db;
  type Row = {
    id: number;
    usuario: string;
    nombre: string;
    rol: number;
    activo: boolean;
    ultimo_acceso: string | null;
  };
  const list = async (query: string) => {
    const res = await admin.get(`/api/usuarios?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { usuarios: Row[]; total: number };
  };
  const names = (rows: Row[]) => rows.map((u) => u.usuario);

  it('filters by role and status, sorts by username, name and last sign-in with the id as tiebreak', async () => {
    const client = await makeClient(db());
    const tag = uniq('lst').toLowerCase();
    const at = (minutes: number) => new Date(Date.UTC(2026, 10, 20, 12, minutes));
    const spec = [
      { usuario: `${tag}_a`, nombre: 'Zoe', rol: 1, activo: true, ultimoAcceso: at(30) },
      { usuario: `${tag}_b`, nombre: 'álvaro', rol: 2, activo: true, ultimoAcceso: null },
      { usuario: `${tag}_c`, nombre: 'Bruno', rol: 1, activo: false, ultimoAcceso: at(10) },
      { usuario: `${tag}_d`, nombre: 'Carla', rol: 3, activo: true, ultimoAcceso: at(20) },
      { usuario: `${tag}_e`, nombre: 'bruno', rol: 1, activo: true, ultimoAcceso: null },
    ];
    for (const u of spec) await makeUser(db(), { ...u, idCliente: client.id });
    await makeUser(db(), { rol: 1, idCliente: (await makeClient(db())).id, usuario: `${tag}_otro` });
    const base = `id_cliente=${client.id}`;

    // The default: by username; every row carries its last sign-in (null = never).
    const all = await list(base);
    expect(names(all.usuarios)).toEqual(spec.map((u) => u.usuario));
    expect(all.usuarios[0]!.ultimo_acceso).toBe(at(30).toISOString());
    expect(all.usuarios[1]!.ultimo_acceso).toBeNull();

    expect(names((await list(`${base}&rol=1`)).usuarios)).toEqual([`${tag}_a`, `${tag}_c`, `${tag}_e`]);
    expect((await list(`${base}&rol=1`)).total).toBe(3);
    expect(names((await list(`${base}&estatus=inactivo`)).usuarios)).toEqual([`${tag}_c`]);
    const activeBuyers = await list(`${base}&rol=1&estatus=activo&orden=usuario_desc`);
    expect(names(activeBuyers.usuarios)).toEqual([`${tag}_e`, `${tag}_a`]);
    expect(activeBuyers.total).toBe(2);

    // Names ignore case; equal names keep the id order (ascending, then descending).
    expect(names((await list(`${base}&orden=nombre_asc`)).usuarios)).toEqual([
      `${tag}_c`,
      `${tag}_e`,
      `${tag}_d`,
      `${tag}_a`,
      `${tag}_b`,
    ]);
    expect(names((await list(`${base}&orden=nombre_desc`)).usuarios)).toEqual([
      `${tag}_b`,
      `${tag}_a`,
      `${tag}_d`,
      `${tag}_e`,
      `${tag}_c`,
    ]);
    // Never signed in counts as the oldest: first ascending, last descending.
    expect(names((await list(`${base}&orden=ultimo_acceso_desc`)).usuarios)).toEqual([
      `${tag}_a`,
      `${tag}_d`,
      `${tag}_c`,
      `${tag}_e`,
      `${tag}_b`,
    ]);
    expect(names((await list(`${base}&orden=ultimo_acceso_asc`)).usuarios)).toEqual([
      `${tag}_b`,
      `${tag}_e`,
      `${tag}_c`,
      `${tag}_d`,
      `${tag}_a`,
    ]);
    // A filter with the search and a sort together.
    expect(names((await list(`${base}&q=bruno&orden=ultimo_acceso_desc`)).usuarios)).toEqual([
      `${tag}_c`,
      `${tag}_e`,
    ]);
  });

  it('a deep page holds the right users, each with its own category budgets, in every sort', async () => {
    const client = await makeClient(db(), { modoPresupuesto: 'categoria' });
    const category = await makeCategory(db(), client.id);
    const other = await makeCategory(db(), client.id, 'Limpieza');
    const tag = uniq('deep').toLowerCase();
    const made: { id: number; usuario: string }[] = [];
    for (let i = 0; i < USERS_PER_PAGE * 2 + 3; i++) {
      const u = await makeUser(db(), {
        rol: 1,
        idCliente: client.id,
        usuario: `${tag}_${String(i).padStart(2, '0')}`,
        nombre: `Persona ${String(50 - i).padStart(2, '0')}`,
      });
      await db()
        .insert(userCategoryBudgets)
        .values([
          { userId: u.id, categoryId: category.id, presupuesto: 100_00 * (i + 1) },
          ...(i % 2 ? [{ userId: u.id, categoryId: other.id, presupuesto: 7_00 + i }] : []),
        ]);
      made.push(u);
    }
    const budgetsOf = (i: number) =>
      JSON.stringify(
        [
          { id: category.id, presupuesto: (i + 1) * 100 },
          ...(i % 2 ? [{ id: other.id, presupuesto: (7_00 + i) / 100 }] : []),
        ].sort((a, b) => a.id - b.id),
      );
    const byUsername = made.map((u, i) => ({ usuario: u.usuario, categorias: budgetsOf(i) }));
    const page = async (query: string) =>
      (await list(`id_cliente=${client.id}&${query}`)).usuarios.map((u) => ({
        usuario: u.usuario,
        categorias: (u as unknown as { categorias: string }).categorias,
      }));
    expect(await page('page=2')).toEqual(byUsername.slice(USERS_PER_PAGE, USERS_PER_PAGE * 2));
    expect(await page('page=3&rol=1&estatus=activo')).toEqual(byUsername.slice(USERS_PER_PAGE * 2));
    // By name the order turns around (the names count down).
    const byName = [...byUsername].reverse();
    expect(await page('page=2&orden=nombre_asc')).toEqual(byName.slice(USERS_PER_PAGE, USERS_PER_PAGE * 2));
    expect(await page('page=4')).toEqual([]);
    expect((await list(`id_cliente=${client.id}&page=4`)).total).toBe(USERS_PER_PAGE * 2 + 3);
  });

  it('refuses an unknown sort, role or status with a Spanish 400', async () => {
    for (const [query, msg] of [
      ['orden=precio_asc', MSG.ordenInvalido],
      ['orden=nombre', MSG.ordenInvalido],
      ['orden=NOMBRE_ASC', MSG.ordenInvalido],
      ['rol=4', MSG.rolFiltroInvalido],
      ['rol=0', MSG.rolFiltroInvalido],
      ['rol=uno', MSG.rolFiltroInvalido],
      ['estatus=borrado', MSG.estatusUsuarioInvalido],
    ] as const) {
      const res = await admin.get(`/api/usuarios?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().msg, query).toBe(msg);
    }
  });

  it('a sign-in sets the last sign-in, in the same transaction as its log entry', async () => {
    const client = await makeClient(db());
    const user = await makeUser(db(), { rol: 1, idCliente: client.id });
    expect(user.ultimoAcceso).toBeNull();
    // A wrong password is not a sign-in.
    expect((await new ApiClient(t.app).login(user.usuario, 'Equivocada#1')).statusCode).toBe(401);
    const [still] = await db().select().from(users).where(eq(users.id, user.id));
    expect(still!.ultimoAcceso).toBeNull();
    await new ApiClient(t.app).loginOk(user.usuario, TEST_PASSWORD);
    const [after] = await db().select().from(users).where(eq(users.id, user.id));
    const [entry] = await db()
      .select()
      .from(systemLogs)
      .where(and(eq(systemLogs.userId, user.id), eq(systemLogs.eventType, 'login')));
    expect(after!.ultimoAcceso?.getTime()).toBe(entry!.createdAt.getTime());
    const listed = await list(`id_cliente=${client.id}`);
    expect(listed.usuarios[0]!.ultimo_acceso).toBe(after!.ultimoAcceso!.toISOString());
  });

  async function buyersWithSessions(n: number, idCliente: number) {
    const out: { user: typeof users.$inferSelect; api: ApiClient }[] = [];
    for (let i = 0; i < n; i++) {
      const user = await makeUser(db(), { rol: 1 + (i % 3 === 2 ? 1 : 0), idCliente });
      out.push({ user, api: await new ApiClient(t.app).loginOk(user.usuario, TEST_PASSWORD) });
    }
    return out;
  }

  it('bulk deactivation: a preview counts, the change ends the sessions and retires the links, one log entry', async () => {
    const client = await makeClient(db());
    const people = await buyersWithSessions(3, client.id);
    // A second session for the first one: 4 open sessions among 3 users.
    const again = await new ApiClient(t.app).loginOk(people[0]!.user.usuario, TEST_PASSWORD);
    const inactive = await makeUser(db(), { rol: 1, idCliente: client.id, activo: false });
    const untouched = await buyersWithSessions(1, client.id);
    const ids = [...people.map((p) => p.user.id), inactive.id];
    await plantLinks(db(), people[1]!.user.id);

    const preview = await admin.post('/api/usuarios/desactivar_lote', { ids, vista_previa: true });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json()).toEqual({
      status: 'ok',
      msg: 'Se desactivarán 3 usuarios y se cerrarán 4 sesiones abiertas.',
      vista_previa: true,
      desactivados: 3,
      ya_inactivos: 1,
      sesiones_cerradas: 4,
    });
    // The preview changed nothing.
    expect((await people[0]!.api.get('/api/sesion')).statusCode).toBe(200);
    expect((await list(`id_cliente=${client.id}&estatus=inactivo`)).total).toBe(1);

    const done = await admin.post('/api/usuarios/desactivar_lote', { ids });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({
      vista_previa: false,
      desactivados: 3,
      ya_inactivos: 1,
      sesiones_cerradas: 4,
      msg: '3 usuarios desactivados; se cerraron 4 sesiones.',
    });
    const rows = await db().select().from(users).where(inArray(users.id, ids));
    expect(rows.every((r) => !r.activo)).toBe(true);
    expect(await db().select().from(sessions).where(inArray(sessions.userId, ids))).toEqual([]);
    for (const p of people) expect((await p.api.get('/api/sesion')).statusCode).toBe(401);
    expect((await again.get('/api/sesion')).statusCode).toBe(401);
    const live = await db()
      .select()
      .from(passwordTokens)
      .where(and(eq(passwordTokens.userId, people[1]!.user.id), isNull(passwordTokens.usedAt)));
    expect(live).toEqual([]);
    const refused = await new ApiClient(t.app).login(people[0]!.user.usuario, TEST_PASSWORD);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().msg).toBe(MSG.usuarioInactivo);
    // Another user of the client keeps its session.
    expect((await untouched[0]!.api.get('/api/sesion')).statusCode).toBe(200);

    const entries = await db()
      .select()
      .from(systemLogs)
      .where(
        and(eq(systemLogs.eventType, 'usuarios_desactivados_lote'), eq(systemLogs.idCliente, client.id)),
      );
    expect(entries).toHaveLength(1);
    expect(entries[0]!.userId).toBe(adminUser.id);
    expect(entries[0]!.metadata).toMatchObject({
      id_cliente: client.id,
      usuarios: 3,
      ya_inactivos: 1,
      sesiones_cerradas: 4,
      ids_usuarios: people.map((p) => p.user.id).sort((a, b) => a - b),
    });

    // Again: nothing left to deactivate, no new entry.
    const twice = await admin.post('/api/usuarios/desactivar_lote', { ids });
    expect(twice.json()).toMatchObject({ desactivados: 0, ya_inactivos: 4, sesiones_cerradas: 0 });
    const after = await db()
      .select()
      .from(systemLogs)
      .where(
        and(eq(systemLogs.eventType, 'usuarios_desactivados_lote'), eq(systemLogs.idCliente, client.id)),
      );
    expect(after).toHaveLength(1);
  });

  it('any id of another client, of an administrator or missing is 404 and nothing changes', async () => {
    const client = await makeClient(db());
    const mine = await buyersWithSessions(2, client.id);
    const foreign = await buyersWithSessions(1, (await makeClient(db())).id);
    const otherAdmin = await makeUser(db(), { rol: 4, idCliente: null });
    const ids = mine.map((p) => p.user.id);
    for (const extra of [foreign[0]!.user.id, otherAdmin.id, adminUser.id, 2_000_000_000]) {
      for (const vista_previa of [true, false]) {
        const res = await admin.post('/api/usuarios/desactivar_lote', { ids: [...ids, extra], vista_previa });
        expect(res.statusCode, String(extra)).toBe(404);
        expect(res.json().msg).toBe(MSG.usuarioNoEncontrado);
      }
    }
    // The other client's user first: the same 404.
    const reversed = await admin.post('/api/usuarios/desactivar_lote', {
      ids: [foreign[0]!.user.id, ...ids],
    });
    expect(reversed.statusCode).toBe(404);
    const rows = await db()
      .select()
      .from(users)
      .where(inArray(users.id, [...ids, foreign[0]!.user.id, otherAdmin.id]));
    expect(rows.every((r) => r.activo)).toBe(true);
    for (const p of [...mine, ...foreign]) expect((await p.api.get('/api/sesion')).statusCode).toBe(200);
  });

  it('refuses an empty list, more than 500 ids and bad ids with a Spanish 400; only rol 4, with XSRF', async () => {
    const client = await makeClient(db());
    const user = await makeUser(db(), { rol: 1, idCliente: client.id });
    const tooMany = Array.from({ length: 501 }, (_, i) => user.id + i);
    for (const body of [{ ids: [] }, { ids: tooMany }, {}, { ids: 'todos' }]) {
      const res = await admin.post('/api/usuarios/desactivar_lote', body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 40)).toBe(400);
      expect(res.json().msg).toBe(MSG.loteUsuarios);
    }
    for (const body of [{ ids: [-1] }, { ids: [1.5] }, { ids: [user.id], vista_previa: 'si' }]) {
      const res = await admin.post('/api/usuarios/desactivar_lote', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().msg).toBe(MSG.datosInvalidos);
    }
    // 500 ids are accepted by the schema (then 404: they are not all users).
    const fiveHundred = Array.from({ length: 500 }, (_, i) => 1_900_000_000 + i);
    expect((await admin.post('/api/usuarios/desactivar_lote', { ids: fiveHundred })).statusCode).toBe(404);

    for (const rol of [1, 2, 3]) {
      const u = await makeUser(db(), { rol, idCliente: client.id });
      const api = await new ApiClient(t.app).loginOk(u.usuario, TEST_PASSWORD);
      expect((await api.post('/api/usuarios/desactivar_lote', { ids: [user.id] })).statusCode).toBe(403);
    }
    expect(
      (await new ApiClient(t.app).post('/api/usuarios/desactivar_lote', { ids: [user.id] })).statusCode,
    ).toBe(401);
    const noXsrf = await admin.request(
      'POST',
      '/api/usuarios/desactivar_lote',
      { ids: [user.id] },
      { xsrf: null },
    );
    expect(noXsrf.statusCode).toBe(419);
    const [row] = await db().select().from(users).where(eq(users.id, user.id));
    expect(row!.activo).toBe(true);
  });
});
