import { formatCentavos } from '@portal/shared/domain/money';
import { MAX_ID } from '@portal/shared/limits';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  budgetChangeRequests,
  type clients,
  emailOutbox,
  systemLogs,
  userCategoryBudgets,
  users,
} from '../../db/schema/index.ts';
import { csvRow } from '../../lib/csv.ts';
import { MSG } from '../../messages.ts';
import { postForm, signedInAdmin } from '../../test/admin-fixtures.ts';
import {
  CLIENT_NOT_FOUND,
  FORBIDDEN,
  lacks,
  nextIp,
  clientWithAdmin as signedInClientAdmin,
  USER_NOT_FOUND,
} from '../../test/client-admin.ts';
import { makeCategory, makeClient, makeUser, TEST_PASSWORD, uniq } from '../../test/factories.ts';
import { ApiClient, createTestApp, DB_KINDS, type TestApp } from '../../test/harness.ts';
import { linkIn } from '../../test/links.ts';
import { enrolTwoFactor } from '../../test/two-factor.ts';
import { waitForImport } from '../../test/uploads.ts';

type UserRow = typeof users.$inferSelect;
type ClientRow = typeof clients.$inferSelect;

const ROLE_NOT_ALLOWED = { code: 'ROLE_NOT_ALLOWED', msg: MSG.rolNoPermitidoCliente };

describe.each(DB_KINDS)('the client administrator, rol 5 (%s)', (kind) => {
  let t: TestApp;
  let distributor: ApiClient;
  let distributorUser: UserRow;
  beforeAll(async () => {
    t = await createTestApp(kind);
    const a = await signedInAdmin(t.app, t.database.db);
    distributor = a.api;
    distributorUser = a.user;
  });
  afterAll(async () => {
    await t?.close();
  });
  const db = () => t.database.db;

  /** A client (as given) with its administrator (rol 5) signed in and enrolled in two-factor sign-in. */
  const clientWithAdmin = (values: Partial<typeof clients.$inferInsert> = {}) =>
    signedInClientAdmin(t, values);

  /** Its permissions: managing people and budgets, with a cap of $2,000 and a default budget of $1,000. */
  const capped = (values: Partial<typeof clients.$inferInsert> = {}) =>
    clientWithAdmin({
      permisosCliente: ['usuarios', 'presupuestos'],
      presupuestoDefault: 100_000,
      topePresupuesto: 200_000,
      limiteDeCompras: 4,
      ...values,
    });

  const member = (idCliente: number, rol = 1, values: Partial<typeof users.$inferInsert> = {}) =>
    makeUser(db(), { rol, idCliente, direccionEntrega: 'Av. Juárez 10', ...values });

  /** The users form of a new account (no client: a client administrator's is its own). */
  function form(extra: Record<string, unknown> = {}) {
    const usuario = uniq('gente');
    return {
      usuario,
      user_id: `${usuario}@example.test`,
      nombre: 'Marta Gómez',
      rol: 1,
      direccion_entrega: 'Av. Juárez 10',
      active_week: 1,
      entrega_week: 2,
      ...extra,
    };
  }

  /** The users form as the web sends it back for a stored account (its budget and limit), with changes. */
  function formOf(user: UserRow, extra: Record<string, unknown> = {}) {
    return {
      usuario: user.usuario,
      user_id: user.email,
      nombre: user.nombre,
      rol: user.rol,
      direccion_entrega: user.direccionEntrega || 'Av. Juárez 10',
      active_week: user.activeWeek,
      entrega_week: user.entregaWeek,
      presupuesto_default: user.presupuestoDefault / 100,
      limite_de_compras: user.limiteDeCompras,
      ...extra,
    };
  }

  async function row(id: number): Promise<UserRow> {
    const [found] = await db().select().from(users).where(eq(users.id, id));
    return found!;
  }

  const requestsOf = (userId: number) =>
    db()
      .select()
      .from(budgetChangeRequests)
      .where(eq(budgetChangeRequests.userId, userId))
      .orderBy(budgetChangeRequests.id);

  /** The client form as the distributor saves it (multipart), with changes. */
  const saveClient = (client: ClientRow, extra: Record<string, string | number>) =>
    postForm(distributor, `/api/clientes/update/${client.id}`, {
      nombre: client.nombre,
      presupuesto_default: client.presupuestoDefault / 100,
      limite_de_compras: client.limiteDeCompras,
      ...extra,
    });

  /** A budget above the cap asked for `user` by its client's administrator: the pending request's id. */
  async function askAboveCap(api: ApiClient, user: UserRow, pesos: number): Promise<number> {
    const res = await api.put(
      `/api/usuarios/${user.id}`,
      formOf(await row(user.id), { presupuesto_default: pesos }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().presupuesto_pendiente).toBe(pesos);
    const pending = (await requestsOf(user.id)).filter((r) => r.estado === 'pendiente');
    expect(pending).toHaveLength(1);
    return pending[0]!.id;
  }

  describe('the account', () => {
    it('is created by the distributor (rol 5) and must enrol in two-factor sign-in before anything else', async () => {
      const client = await makeClient(db());
      const data = form({ rol: 5, id_cliente: client.id, nombre: 'Gerente de Compras' });
      const created = await distributor.post('/api/usuarios', data);
      expect(created.statusCode, created.body).toBe(201);
      const { usuario } = created.json();
      expect(usuario).toMatchObject({ rol: 5, id_cliente: client.id, nombre: 'Gerente de Compras' });

      // Its welcome link sets its password, as for any account.
      const [mail] = await db().select().from(emailOutbox).where(eq(emailOutbox.userId, usuario.id));
      const set = await new ApiClient(t.app, nextIp()).post('/api/restablecer-password', {
        token: linkIn(mail!.text),
        newPass: TEST_PASSWORD,
        confirmPass: TEST_PASSWORD,
      });
      expect(set.statusCode, set.body).toBe(200);

      const api = new ApiClient(t.app, nextIp());
      const signed = await api.login(data.usuario, TEST_PASSWORD);
      expect(signed.statusCode, signed.body).toBe(200);
      expect(signed.json().user).toMatchObject({ rol: 5, dos_pasos: false, debe_activar_2fa: true });
      for (const [method, url, body] of [
        ['GET', '/api/usuarios', undefined],
        ['GET', '/api/cliente', undefined],
        ['GET', '/api/logs', undefined],
        ['GET', '/api/presupuestos/solicitudes', undefined],
        ['POST', '/api/usuarios', form()],
      ] as const) {
        const res = await api.request(method, url, body);
        expect(res.statusCode, url).toBe(403);
        expect(res.json(), url).toEqual({
          code: 'TWO_FACTOR_ENROLMENT_REQUIRED',
          msg: MSG.dosPasosRequerida,
        });
      }
      expect((await api.get('/api/2fa')).json()).toMatchObject({ activo: false, obligatorio: true });

      await enrolTwoFactor(api);
      const list = await api.get('/api/usuarios');
      expect(list.statusCode, list.body).toBe(200);
      expect(list.json().usuarios.map((u: { id: number }) => u.id)).toEqual([usuario.id]);
      // Mandatory: it cannot be turned off, and the next sign-in asks for the second step.
      const off = await api.post('/api/2fa/desactivar', { password: TEST_PASSWORD, codigo: '123456' });
      expect(off.statusCode).toBe(403);
      expect(off.json().code).toBe('TWO_FACTOR_REQUIRED');
      const again = await new ApiClient(t.app, nextIp()).login(data.usuario, TEST_PASSWORD);
      expect(again.json()).toEqual({ status: '2fa_requerido' });
    });

    it('GET /api/cliente: its own client, what it may change, its accounts by role and its pending budgets', async () => {
      const { client, user, api } = await capped({ nombre: uniq('Industrias Ñandú') });
      await member(client.id, 1);
      await member(client.id, 1);
      await member(client.id, 1, { activo: false });
      const rol2 = await member(client.id, 2);
      const rol3 = await member(client.id, 3);
      const buyer = await member(client.id, 1, { presupuestoDefault: 150_000 });
      const other = await clientWithAdmin();
      await member(other.client.id, 1);

      await askAboveCap(api, buyer, 2500);
      await askAboveCap(api, buyer, 2600); // replaces the first: one pending
      await askAboveCap(api, await member(client.id, 1, { presupuestoDefault: 150_000 }), 3000);

      const res = await api.get('/api/cliente');
      expect(res.statusCode, res.body).toBe(200);
      const home = res.json();
      expect(home.cliente).toMatchObject({
        id: client.id,
        nombre: client.nombre,
        permisos_cliente: ['usuarios', 'presupuestos'],
        tope_presupuesto: 2000,
        presupuesto_default: 1000,
      });
      expect(home.usuarios_por_rol).toEqual([
        { rol: 1, activos: 4, inactivos: 1 },
        { rol: 2, activos: 1, inactivos: 0 },
        { rol: 3, activos: 1, inactivos: 0 },
        { rol: 5, activos: 1, inactivos: 0 },
      ]);
      expect(home.solicitudes_pendientes).toBe(2);

      // Only rol 5: the distributor and the client's other roles are refused.
      const signIn = (u: UserRow) => new ApiClient(t.app, nextIp()).loginOk(u.usuario, TEST_PASSWORD);
      for (const caller of [distributor, await signIn(buyer), await signIn(rol2), await signIn(rol3)]) {
        const refused = await caller.get('/api/cliente');
        expect(refused.statusCode).toBe(403);
        expect(refused.json()).toEqual(FORBIDDEN);
      }
      expect(user.idCliente).toBe(client.id);
    });
  });

  describe('what it reaches: its own client, its accounts of roles 1–3', () => {
    it('lists only its client; another client named is answered like a missing one', async () => {
      const { client, user, api } = await clientWithAdmin();
      const own = [await member(client.id, 1), await member(client.id, 2), await member(client.id, 3)];
      const other = await makeClient(db());
      await member(other.id, 1);

      const list = await api.get('/api/usuarios');
      expect(list.statusCode, list.body).toBe(200);
      const ids = list.json().usuarios.map((u: { id: number }) => u.id);
      // Its own row is listed (read-only: see below).
      expect(ids.sort()).toEqual([...own.map((u) => u.id), user.id].sort());
      expect(list.json().total).toBe(4);
      expect((await api.get(`/api/usuarios?id_cliente=${client.id}`)).json().total).toBe(4);

      const foreign = await api.get(`/api/usuarios?id_cliente=${other.id}`);
      const missing = await api.get(`/api/usuarios?id_cliente=${MAX_ID}`);
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json()).toEqual(CLIENT_NOT_FOUND);
      expect(foreign.body).toBe(missing.body);
      expect(missing.statusCode).toBe(404);
    });

    it('another client’s user, an administrator, another client administrator and itself are missing ids', async () => {
      const { client, user, api } = await clientWithAdmin();
      const colleague = await member(client.id, 5);
      const own = await member(client.id, 2);
      const other = await clientWithAdmin();
      const foreign = await member(other.client.id, 1);
      const outOfReach = [foreign, distributorUser, colleague, user, other.user];

      const missing = await api.get(`/api/usuarios/${MAX_ID}`);
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toEqual(USER_NOT_FOUND);
      for (const target of outOfReach) {
        const res = await api.get(`/api/usuarios/${target.id}`);
        expect(res.statusCode, `GET rol ${target.rol}`).toBe(404);
        expect(res.body).toBe(missing.body);
        const put = await api.put(
          `/api/usuarios/${target.id}`,
          formOf(target, { nombre: 'Cambiado', rol: 1 }),
        );
        expect(put.statusCode, `PUT rol ${target.rol}`).toBe(404);
        expect(put.body).toBe(missing.body);
        const reset = await api.post(`/api/recuperar/password/${target.id}`);
        expect(reset.statusCode, `reset rol ${target.rol}`).toBe(404);
        expect(reset.body).toBe(missing.body);
      }
      for (const target of outOfReach) {
        const after = await row(target.id);
        expect(after.nombre).not.toBe('Cambiado');
        expect(after.passwordTemporary).toBe(false);
      }
      const mine = await api.get(`/api/usuarios/${own.id}`);
      expect(mine.statusCode).toBe(200);
      expect(mine.json().usuario).toMatchObject({ id: own.id, rol: 2, id_cliente: client.id });
    });

    it('creates in its own client only; never rol 4 or 5, nor turns an account into one', async () => {
      const { client, api } = await clientWithAdmin({ cantidadAutorizadores: 2 });
      const other = await makeClient(db());

      const plain = await api.post('/api/usuarios', form());
      expect(plain.statusCode, plain.body).toBe(201);
      expect(plain.json()).toMatchObject({ msg: MSG.creadoCorrectamente, presupuesto_pendiente: null });
      expect(plain.json().usuario).toMatchObject({ id_cliente: client.id, rol: 1 });
      const named = await api.post('/api/usuarios', form({ id_cliente: client.id, rol: 3 }));
      expect(named.statusCode, named.body).toBe(201);

      const tries = [
        [form({ id_cliente: other.id }), 404, CLIENT_NOT_FOUND],
        [form({ id_cliente: MAX_ID }), 404, CLIENT_NOT_FOUND],
        [form({ rol: 5 }), 403, ROLE_NOT_ALLOWED],
      ] as const;
      for (const [body, status, answer] of tries) {
        const res = await api.post('/api/usuarios', body);
        expect(res.statusCode, JSON.stringify(body)).toBe(status);
        expect(res.json()).toEqual(answer);
        expect(await db().select().from(users).where(eq(users.usuario, body.usuario))).toEqual([]);
      }
      const rol4 = await api.post('/api/usuarios', form({ rol: 4 }));
      expect(rol4.statusCode).toBe(400);
      expect(rol4.json()).toMatchObject({ code: 'VALIDATION', msg: MSG.rolInvalido });

      const buyer = await member(client.id, 1);
      const toAdmin = await api.put(
        `/api/usuarios/${buyer.id}`,
        formOf(buyer, { rol: 5, nombre: 'Ascendido' }),
      );
      expect(toAdmin.statusCode).toBe(403);
      expect(toAdmin.json()).toEqual(ROLE_NOT_ALLOWED);
      const toDistributor = await api.put(`/api/usuarios/${buyer.id}`, formOf(buyer, { rol: 4 }));
      expect(toDistributor.statusCode).toBe(400);
      expect(toDistributor.json()).toMatchObject({ code: 'VALIDATION', msg: MSG.rolInvalido });
      expect(await row(buyer.id)).toMatchObject({ rol: 1, nombre: buyer.nombre });
      // Moving a user to another client is refused as for the distributor.
      const moved = await api.put(`/api/usuarios/${buyer.id}`, formOf(buyer, { id_cliente: other.id }));
      expect(moved.statusCode).toBe(400);
      expect(moved.json().msg).toBe(MSG.cambioClienteNoPermitido);

      for (const rol of [2, 3, 1]) {
        const res = await api.put(`/api/usuarios/${buyer.id}`, formOf(buyer, { rol }));
        expect(res.statusCode, res.body).toBe(200);
        expect((await row(buyer.id)).rol).toBe(rol);
      }

      // Its import gives roles 1–3 only: a row asking for rol 5 is refused on the row, nobody is created.
      const asked = uniq('rol5');
      const cells: Record<string, string> = {
        usuario: asked,
        user_id: `${asked}@example.test`,
        nombre: 'Ascendida',
        rol: '5',
        direccion_entrega: 'Oficina',
        active_week: '1',
        entrega_week: '1',
      };
      // The users template's columns (modules/imports), by the specification's names.
      const USER_COLUMNS = [
        'usuario',
        'user_id',
        'nombre',
        'rol',
        'direccion_entrega',
        'calle',
        'colonia',
        'ciudad',
        'cp',
        'estado',
        'area',
        'localidad',
        'region',
        'coordinacion',
        'active_week',
        'entrega_week',
        'limite_de_compras',
        'presupuesto_default',
      ];
      const load = await postForm(
        api,
        '/api/load/usuarios',
        { id_cliente: client.id },
        {
          file: {
            filename: 'usuarios.csv',
            data: Buffer.from(csvRow(USER_COLUMNS) + csvRow(USER_COLUMNS.map((c) => cells[c] ?? ''))),
          },
        },
      );
      expect(load.statusCode, load.body).toBe(202);
      const job = await waitForImport(db(), load.json().id_importacion);
      expect(job.errors).toEqual([{ fila: 2, campo: 'rol', motivo: MSG.impRol, valor: '5' }]);
      expect(await db().select().from(users).where(eq(users.usuario, asked))).toEqual([]);
      // The second-factor reset stays the distributor's.
      const twoFactor = await api.post(`/api/recuperar/2fa/${buyer.id}`);
      expect(twoFactor.statusCode).toBe(403);
      expect(twoFactor.json()).toEqual(FORBIDDEN);
    });

    it('a bulk deactivation or access resend naming one foreign account answers 404 and changes nothing', async () => {
      const { client, user, api } = await clientWithAdmin();
      const a = await member(client.id, 1);
      const b = await member(client.id, 2, { passwordHash: null });
      const colleague = await member(client.id, 5);
      const other = await clientWithAdmin();
      const foreign = await member(other.client.id, 1, { passwordHash: null });
      const mailsBefore = await db().select({ n: count() }).from(emailOutbox);

      for (const intruder of [foreign, distributorUser, colleague, user]) {
        for (const vista_previa of [true, false]) {
          const res = await api.post('/api/usuarios/desactivar_lote', {
            ids: [a.id, b.id, intruder.id],
            vista_previa,
          });
          expect(res.statusCode, `rol ${intruder.rol}`).toBe(404);
          expect(res.json()).toEqual(USER_NOT_FOUND);
        }
        const resend = await api.post('/api/usuarios/reenviar-acceso', { ids: [b.id, intruder.id] });
        expect(resend.statusCode, `rol ${intruder.rol}`).toBe(404);
        expect(resend.json()).toEqual(USER_NOT_FOUND);
      }
      for (const u of [a, b, colleague, user, foreign]) expect((await row(u.id)).activo).toBe(true);
      expect(await db().select({ n: count() }).from(emailOutbox)).toEqual(mailsBefore);

      const resend = await api.post('/api/usuarios/reenviar-acceso', { ids: [b.id] });
      expect(resend.statusCode, resend.body).toBe(200);
      expect(resend.json()).toMatchObject({ enviados: 1, omitidos: 0 });
      const done = await api.post('/api/usuarios/desactivar_lote', { ids: [a.id, b.id] });
      expect(done.statusCode, done.body).toBe(200);
      expect(done.json()).toMatchObject({ desactivados: 2, ya_inactivos: 0 });
      expect([(await row(a.id)).activo, (await row(b.id)).activo]).toEqual([false, false]);
    });
  });

  describe('what its client allows (permisos_cliente)', () => {
    it('with no permission it reads everything and changes nothing; the distributor’s change applies at the next request', async () => {
      const { client, api } = await clientWithAdmin({ permisosCliente: [] });
      const buyer = await member(client.id, 1, { passwordHash: null });

      for (const url of [
        '/api/usuarios',
        `/api/usuarios/${buyer.id}`,
        '/api/cliente',
        '/api/logs',
        '/api/logs/tipos',
        '/api/presupuestos/solicitudes',
      ]) {
        const res = await api.get(url);
        expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
      }
      expect((await api.get('/api/cliente')).json().cliente.permisos_cliente).toEqual([]);

      const created = form();
      const writes = [
        () => api.post('/api/usuarios', created),
        () => api.put(`/api/usuarios/${buyer.id}`, formOf(buyer, { nombre: 'Cambiado' })),
        () => api.post('/api/usuarios/desactivar_lote', { ids: [buyer.id] }),
        () => api.post('/api/usuarios/desactivar_lote', { ids: [buyer.id], vista_previa: true }),
        () => api.post(`/api/recuperar/password/${buyer.id}`),
        () => api.post('/api/usuarios/reenviar-acceso', { ids: [buyer.id] }),
      ];
      for (const write of writes) {
        const res = await write();
        expect(res.statusCode, res.body).toBe(403);
        expect(res.json()).toEqual(lacks('usuarios'));
      }
      expect(await row(buyer.id)).toMatchObject({ nombre: buyer.nombre, activo: true, passwordHash: null });
      expect(await db().select().from(users).where(eq(users.usuario, created.usuario))).toEqual([]);
      expect(await db().select().from(emailOutbox).where(eq(emailOutbox.userId, buyer.id))).toEqual([]);

      // The distributor allows managing people: the same session may, at once.
      const allowed = await saveClient(client, { permisos_cliente: 'usuarios' });
      expect(allowed.statusCode, allowed.body).toBe(200);
      expect(allowed.json().cliente.permisos_cliente).toEqual(['usuarios']);
      expect((await api.post('/api/usuarios', created)).statusCode).toBe(201);
      const renamed = await api.put(`/api/usuarios/${buyer.id}`, formOf(buyer, { nombre: 'Renombrado' }));
      expect(renamed.statusCode, renamed.body).toBe(200);

      // Without `presupuestos`: a budget or a limit that changes is refused; the same ones pass.
      const stored = await row(buyer.id);
      for (const change of [{ presupuesto_default: 6000 }, { limite_de_compras: 9 }]) {
        const res = await api.put(`/api/usuarios/${buyer.id}`, formOf(stored, { ...change, nombre: 'Otro' }));
        expect(res.statusCode, JSON.stringify(change)).toBe(403);
        expect(res.json()).toEqual(lacks('presupuestos'));
      }
      expect(await row(buyer.id)).toMatchObject({
        nombre: 'Renombrado',
        presupuestoDefault: stored.presupuestoDefault,
        limiteDeCompras: stored.limiteDeCompras,
      });
      const same = await api.put(
        `/api/usuarios/${buyer.id}`,
        formOf(stored, { nombre: 'Con el mismo presupuesto' }),
      );
      expect(same.statusCode, same.body).toBe(200);
      // A new account: the client's budget and limit pass, others do not.
      const withBudget = await api.post('/api/usuarios', form({ presupuesto_default: 1234 }));
      expect(withBudget.statusCode).toBe(403);
      expect(withBudget.json()).toEqual(lacks('presupuestos'));
      const withDefaults = await api.post(
        '/api/usuarios',
        form({
          presupuesto_default: client.presupuestoDefault / 100,
          limite_de_compras: client.limiteDeCompras,
        }),
      );
      expect(withDefaults.statusCode, withDefaults.body).toBe(201);

      // Taken away again: refused at the next request.
      expect((await saveClient(client, { permisos_cliente: '' })).json().cliente.permisos_cliente).toEqual(
        [],
      );
      const refused = await api.put(
        `/api/usuarios/${buyer.id}`,
        formOf(await row(buyer.id), { nombre: 'Tarde' }),
      );
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual(lacks('usuarios'));
    });
  });

  describe('the budget cap (tope_presupuesto)', () => {
    it('a rise above the cap waits for the distributor: the user keeps its budget, the rest of the form applies', async () => {
      const { client, user, api } = await capped();
      const buyer = await member(client.id, 1, { presupuestoDefault: 150_000, limiteDeCompras: 4 });

      const res = await api.put(
        `/api/usuarios/${buyer.id}`,
        formOf(buyer, { presupuesto_default: 2500, nombre: 'Nombre Nuevo', limite_de_compras: 7 }),
      );
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({
        msg: MSG.presupuestoPendienteTope(formatCentavos(250_000), formatCentavos(200_000)),
        presupuesto_pendiente: 2500,
      });
      expect(res.json().usuario).toMatchObject({
        presupuesto_default: 1500,
        nombre: 'Nombre Nuevo',
        limite_de_compras: 7,
      });
      expect(await row(buyer.id)).toMatchObject({ presupuestoDefault: 150_000, nombre: 'Nombre Nuevo' });
      const [first] = await requestsOf(buyer.id);
      expect(first).toMatchObject({
        idCliente: client.id,
        presupuesto: 250_000,
        presupuestoAnterior: 150_000,
        categorias: null,
        estado: 'pendiente',
        requestedBy: user.id,
        decidedBy: null,
      });
      const [logged] = await db()
        .select()
        .from(systemLogs)
        .where(and(eq(systemLogs.eventType, 'presupuesto_solicitado'), eq(systemLogs.userId, user.id)));
      expect(logged).toMatchObject({ idCliente: client.id });

      // A second request replaces the first.
      await askAboveCap(api, buyer, 3000);
      const [replaced, second] = await requestsOf(buyer.id);
      expect(replaced).toMatchObject({ id: first!.id, estado: 'reemplazada' });
      expect(replaced!.decidedAt).not.toBeNull();
      expect(second).toMatchObject({
        estado: 'pendiente',
        presupuesto: 300_000,
        presupuestoAnterior: 150_000,
      });

      // Lowering applies at once; so does a rise that stays within the cap.
      for (const pesos of [1200, 1800, 2000]) {
        const lower = await api.put(
          `/api/usuarios/${buyer.id}`,
          formOf(await row(buyer.id), { presupuesto_default: pesos }),
        );
        expect(lower.statusCode, lower.body).toBe(200);
        expect(lower.json()).toMatchObject({ msg: MSG.modificadoCorrectamente, presupuesto_pendiente: null });
        expect((await row(buyer.id)).presupuestoDefault).toBe(pesos * 100);
      }
    });

    it('a budget the distributor set above the cap is kept and lowered freely; raising it waits', async () => {
      const { client, api } = await capped();
      const buyer = await member(client.id, 1, { presupuestoDefault: 150_000 });
      const raised = await distributor.put(
        `/api/usuarios/${buyer.id}`,
        formOf(buyer, { presupuesto_default: 5000 }),
      );
      expect(raised.statusCode, raised.body).toBe(200);
      expect(raised.json().presupuesto_pendiente).toBeNull();

      const kept = await api.put(
        `/api/usuarios/${buyer.id}`,
        formOf(await row(buyer.id), { nombre: 'Sin cambio' }),
      );
      expect(kept.json()).toMatchObject({ presupuesto_pendiente: null, msg: MSG.modificadoCorrectamente });
      await askAboveCap(api, buyer, 5500);
      expect((await row(buyer.id)).presupuestoDefault).toBe(500_000);
      const lowered = await api.put(
        `/api/usuarios/${buyer.id}`,
        formOf(await row(buyer.id), { presupuesto_default: 4000 }),
      );
      expect(lowered.json()).toMatchObject({ presupuesto_pendiente: null });
      expect((await row(buyer.id)).presupuestoDefault).toBe(400_000);
    });

    it('a budget set at once replaces the request still waiting: approving it later would undo the change', async () => {
      const { client, api } = await capped();
      const buyer = await member(client.id, 1, { presupuestoDefault: 150_000 });
      const id = await askAboveCap(api, buyer, 3000);
      const lowered = await api.put(
        `/api/usuarios/${buyer.id}`,
        formOf(await row(buyer.id), { presupuesto_default: 1200 }),
      );
      expect(lowered.statusCode, lowered.body).toBe(200);
      expect((await requestsOf(buyer.id)).map((r) => [r.id, r.estado])).toEqual([[id, 'reemplazada']]);
      const approve = await distributor.post(`/api/presupuestos/solicitudes/${id}/aprobar`);
      expect(approve.statusCode).toBe(409);
      expect((await row(buyer.id)).presupuestoDefault).toBe(120_000);

      // A form that keeps the budget leaves the request waiting.
      const waiting = await askAboveCap(api, buyer, 2800);
      await api.put(`/api/usuarios/${buyer.id}`, formOf(await row(buyer.id), { nombre: 'Otro nombre' }));
      expect((await requestsOf(buyer.id)).find((r) => r.id === waiting)?.estado).toBe('pendiente');
    });

    it('a new account asked above the cap gets the client’s budget and a pending request; without a cap nothing waits', async () => {
      const { client, api } = await capped();
      const res = await api.post('/api/usuarios', form({ presupuesto_default: 2500 }));
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({
        msg: `${MSG.creadoCorrectamente}. ${MSG.presupuestoPendienteTope(formatCentavos(250_000), formatCentavos(200_000))}`,
        presupuesto_pendiente: 2500,
      });
      const { usuario } = res.json();
      expect(usuario.presupuesto_default).toBe(1000);
      expect(await requestsOf(usuario.id)).toMatchObject([
        { presupuesto: 250_000, presupuestoAnterior: 100_000, estado: 'pendiente', idCliente: client.id },
      ]);
      const within = await api.post('/api/usuarios', form({ presupuesto_default: 1900 }));
      expect(within.json()).toMatchObject({
        presupuesto_pendiente: null,
        usuario: { presupuesto_default: 1900 },
      });

      const open = await clientWithAdmin({
        permisosCliente: ['usuarios', 'presupuestos'],
        topePresupuesto: null,
      });
      const big = await open.api.post('/api/usuarios', form({ presupuesto_default: 90_000 }));
      expect(big.json()).toMatchObject({
        presupuesto_pendiente: null,
        usuario: { presupuesto_default: 90_000 },
      });
    });

    it('category mode: the sum of the categories is capped, and approval writes the categories asked for', async () => {
      const { client, api } = await capped({ modoPresupuesto: 'categoria' });
      const papeleria = await makeCategory(db(), client.id, 'Papelería');
      const limpieza = await makeCategory(db(), client.id, 'Limpieza');
      const asked = [
        { id: papeleria.id, presupuesto: 1500 },
        { id: limpieza.id, presupuesto: 1000 },
      ];
      const res = await api.post('/api/usuarios', form({ categorias: asked }));
      expect(res.statusCode, res.body).toBe(201);
      const { usuario } = res.json();
      expect(res.json().presupuesto_pendiente).toBe(2500);
      expect(usuario).toMatchObject({ presupuesto_default: 0, categorias: '[]' });
      const [request] = await requestsOf(usuario.id);
      expect(request!.categorias).toEqual([
        { id: papeleria.id, presupuesto: 150_000 },
        { id: limpieza.id, presupuesto: 100_000 },
      ]);

      const approved = await distributor.post(`/api/presupuestos/solicitudes/${request!.id}/aprobar`);
      expect(approved.statusCode, approved.body).toBe(200);
      expect(approved.json().solicitud.categorias).toEqual([
        { id: papeleria.id, nombre: 'Papelería', presupuesto: 1500 },
        { id: limpieza.id, nombre: 'Limpieza', presupuesto: 1000 },
      ]);
      expect((await row(usuario.id)).presupuestoDefault).toBe(250_000);
      const stored = await db()
        .select({ id: userCategoryBudgets.categoryId, presupuesto: userCategoryBudgets.presupuesto })
        .from(userCategoryBudgets)
        .where(eq(userCategoryBudgets.userId, usuario.id));
      expect(stored.sort((a, b) => a.id - b.id)).toEqual(request!.categorias);

      // Within the cap: applied at once.
      const small = await api.post(
        '/api/usuarios',
        form({ categorias: [{ id: papeleria.id, presupuesto: 500 }] }),
      );
      expect(small.json()).toMatchObject({
        presupuesto_pendiente: null,
        usuario: { presupuesto_default: 500 },
      });
    });
  });

  describe('the distributor’s queue (GET /api/presupuestos/solicitudes)', () => {
    it('the distributor sees the pending requests of every client; a client administrator every state of its own', async () => {
      const a = await capped({ nombre: uniq('Cliente A') });
      const b = await capped({ nombre: uniq('Cliente B') });
      const a1 = await member(a.client.id, 1, { presupuestoDefault: 150_000 });
      const a2 = await member(a.client.id, 1, { presupuestoDefault: 150_000 });
      const b1 = await member(b.client.id, 1, { presupuestoDefault: 150_000 });
      const replacedA = await askAboveCap(a.api, a2, 2100);
      const pendingA2 = await askAboveCap(a.api, a2, 2200);
      const pendingA1 = await askAboveCap(a.api, a1, 2300);
      const pendingB = await askAboveCap(b.api, b1, 2400);
      const ours = new Set([replacedA, pendingA2, pendingA1, pendingB]);
      const ids = (res: Awaited<ReturnType<ApiClient['get']>>) =>
        (res.json().solicitudes as { id: number }[]).map((s) => s.id).filter((id) => ours.has(id));

      // Pending ones only, the oldest first (every page: other tests leave requests waiting too).
      const queue: { id: number; estado: string }[] = [];
      for (let page = 1; ; page++) {
        const res = await distributor.get(`/api/presupuestos/solicitudes?page=${page}`);
        expect(res.statusCode, res.body).toBe(200);
        queue.push(...res.json().solicitudes);
        if (queue.length >= res.json().total) break;
      }
      expect(new Set(queue.map((s) => s.estado))).toEqual(new Set(['pendiente']));
      expect(queue.map((s) => s.id).filter((id) => ours.has(id))).toEqual([pendingA2, pendingA1, pendingB]);
      const first = queue.find((s) => s.id === pendingA2);
      expect(first).toMatchObject({
        cliente: { id: a.client.id, nombre: a.client.nombre },
        usuario: { id: a2.id, usuario: a2.usuario },
        presupuesto: 2200,
        presupuesto_anterior: 1500,
        categorias: null,
        estado: 'pendiente',
        solicitado_por: 'Clara Administradora',
        decidido_por: null,
      });
      expect(ids(await distributor.get(`/api/presupuestos/solicitudes?id_cliente=${b.client.id}`))).toEqual([
        pendingB,
      ]);
      expect(ids(await distributor.get('/api/presupuestos/solicitudes?estado=reemplazada'))).toEqual([
        replacedA,
      ]);

      // Its own client's, every state, the newest first.
      const own = await a.api.get('/api/presupuestos/solicitudes');
      expect(own.statusCode, own.body).toBe(200);
      expect(own.json().solicitudes.map((s: { id: number }) => s.id)).toEqual([
        pendingA1,
        pendingA2,
        replacedA,
      ]);
      expect(own.json().total).toBe(3);
      const foreign = await a.api.get(`/api/presupuestos/solicitudes?id_cliente=${b.client.id}`);
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json()).toEqual(CLIENT_NOT_FOUND);
      expect(foreign.body).toBe((await a.api.get(`/api/presupuestos/solicitudes?id_cliente=${MAX_ID}`)).body);

      const buyer = await new ApiClient(t.app, nextIp()).loginOk(a1.usuario, TEST_PASSWORD);
      const refused = await buyer.get('/api/presupuestos/solicitudes');
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual(FORBIDDEN);
    });

    it('approving applies the budget, refusing keeps it; a decided request is 409, an unknown one 404; rol 5 cannot decide', async () => {
      const { client, api } = await capped();
      const buyer = await member(client.id, 1, { presupuestoDefault: 150_000 });
      const other = await member(client.id, 1, { presupuestoDefault: 150_000 });
      const id = await askAboveCap(api, buyer, 2500);
      const otherId = await askAboveCap(api, other, 2700);

      for (const path of ['aprobar', 'rechazar']) {
        const own = await api.post(`/api/presupuestos/solicitudes/${id}/${path}`);
        expect(own.statusCode).toBe(403);
        expect(own.json()).toEqual(FORBIDDEN);
      }
      expect((await requestsOf(buyer.id))[0]!.estado).toBe('pendiente');

      const approved = await distributor.post(`/api/presupuestos/solicitudes/${id}/aprobar`);
      expect(approved.statusCode, approved.body).toBe(200);
      expect(approved.json()).toMatchObject({
        status: 'ok',
        msg: MSG.solicitudPresupuestoAprobada,
        solicitud: { id, estado: 'aprobada', presupuesto: 2500, decidido_por: distributorUser.nombre },
      });
      expect(approved.json().solicitud.decidido_en).toEqual(expect.any(String));
      expect((await row(buyer.id)).presupuestoDefault).toBe(250_000);
      const [log] = await db()
        .select()
        .from(systemLogs)
        .where(
          and(eq(systemLogs.eventType, 'presupuesto_aprobado'), eq(systemLogs.userId, distributorUser.id)),
        )
        .orderBy(systemLogs.id);
      expect(log).toBeDefined();

      const refused = await distributor.post(`/api/presupuestos/solicitudes/${otherId}/rechazar`);
      expect(refused.statusCode, refused.body).toBe(200);
      expect(refused.json()).toMatchObject({
        msg: MSG.solicitudPresupuestoRechazada,
        solicitud: { estado: 'rechazada' },
      });
      expect((await row(other.id)).presupuestoDefault).toBe(150_000);

      const decided = { code: 'BUDGET_REQUEST_DECIDED', msg: MSG.solicitudPresupuestoYaDecidida };
      for (const [reqId, path] of [
        [id, 'aprobar'],
        [id, 'rechazar'],
        [otherId, 'aprobar'],
      ] as const) {
        const again = await distributor.post(`/api/presupuestos/solicitudes/${reqId}/${path}`);
        expect(again.statusCode).toBe(409);
        expect(again.json()).toEqual(decided);
      }
      expect((await row(buyer.id)).presupuestoDefault).toBe(250_000);
      expect((await row(other.id)).presupuestoDefault).toBe(150_000);
      const unknown = await distributor.post(`/api/presupuestos/solicitudes/${MAX_ID}/aprobar`);
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toEqual({
        code: 'BUDGET_REQUEST_NOT_FOUND',
        msg: MSG.solicitudPresupuestoNoEncontrada,
      });

      // The client administrator reads the decisions.
      const mine = (await api.get('/api/presupuestos/solicitudes')).json().solicitudes as {
        id: number;
        estado: string;
      }[];
      expect(mine.map((s) => [s.id, s.estado])).toEqual([
        [otherId, 'rechazada'],
        [id, 'aprobada'],
      ]);
      expect((await api.get('/api/cliente')).json().solicitudes_pendientes).toBe(0);
    });

    it('two decisions of one request at once: exactly one wins, the other answers 409', async () => {
      const { client, api } = await capped();
      const second = (await signedInAdmin(t.app, db())).api;
      for (const [first, other] of [
        ['aprobar', 'aprobar'],
        ['aprobar', 'rechazar'],
        ['rechazar', 'aprobar'],
        ['rechazar', 'rechazar'],
      ] as const) {
        const buyer = await member(client.id, 1, { presupuestoDefault: 150_000 });
        const id = await askAboveCap(api, buyer, 2500);
        const answers = await Promise.all([
          distributor.post(`/api/presupuestos/solicitudes/${id}/${first}`),
          second.post(`/api/presupuestos/solicitudes/${id}/${other}`),
        ]);
        const statuses = answers.map((r) => r.statusCode);
        expect(statuses.sort(), `${first}/${other}: ${answers.map((r) => r.body).join(' | ')}`).toEqual([
          200, 409,
        ]);
        const winner = answers.find((r) => r.statusCode === 200)!.json().solicitud.estado;
        const [stored] = await requestsOf(buyer.id);
        expect(stored!.estado).toBe(winner);
        expect((await row(buyer.id)).presupuestoDefault).toBe(winner === 'aprobada' ? 250_000 : 150_000);
        const loser = answers.find((r) => r.statusCode === 409)!;
        expect(loser.json()).toEqual({
          code: 'BUDGET_REQUEST_DECIDED',
          msg: MSG.solicitudPresupuestoYaDecidida,
        });
      }
    });

    it('an approval and a new request of the same user at once: both answer, one pending request is left', async () => {
      const { client, api } = await capped();
      for (let round = 0; round < 4; round++) {
        const buyer = await member(client.id, 1, { presupuestoDefault: 150_000 });
        const id = await askAboveCap(api, buyer, 2500);
        const [approve, ask] = await Promise.all([
          distributor.post(`/api/presupuestos/solicitudes/${id}/aprobar`),
          api.put(`/api/usuarios/${buyer.id}`, formOf(buyer, { presupuesto_default: 3000 })),
        ]);
        expect(ask.statusCode, ask.body).toBe(200);
        expect([200, 409], approve.body).toContain(approve.statusCode);
        const requests = await requestsOf(buyer.id);
        expect(requests.map((r) => r.estado)).toEqual([
          approve.statusCode === 200 ? 'aprobada' : 'reemplazada',
          'pendiente',
        ]);
        expect((await row(buyer.id)).presupuestoDefault).toBe(approve.statusCode === 200 ? 250_000 : 150_000);
      }
    });
  });

  describe('the system log', () => {
    it('GET /api/logs and its export hold only its own client’s entries; another client named is 404', async () => {
      const a = await clientWithAdmin();
      const b = await clientWithAdmin();
      const inA = form();
      const inB = form();
      const byDistributorInB = form({ id_cliente: b.client.id });
      expect((await a.api.post('/api/usuarios', inA)).statusCode).toBe(201);
      expect((await b.api.post('/api/usuarios', inB)).statusCode).toBe(201);
      expect((await distributor.post('/api/usuarios', byDistributorInB)).statusCode).toBe(201);

      const page = await a.api.get('/api/logs?event_type=usuario_creado');
      expect(page.statusCode, page.body).toBe(200);
      const logs = page.json().logs as { id_cliente: number | null; description: string }[];
      expect(logs.map((l) => l.description)).toEqual([`Usuario creado: ${inA.usuario} (rol 1)`]);
      const everything = (await a.api.get('/api/logs')).json().logs as { id_cliente: number | null }[];
      expect(everything.length).toBeGreaterThan(0);
      expect(new Set(everything.map((l) => l.id_cliente))).toEqual(new Set([a.client.id]));
      const distributorView = (
        await distributor.get(`/api/logs?id_cliente=${b.client.id}&event_type=usuario_creado`)
      )
        .json()
        .logs.map((l: { description: string }) => l.description);
      expect(distributorView.sort()).toEqual(
        [
          `Usuario creado: ${inB.usuario} (rol 1)`,
          `Usuario creado: ${byDistributorInB.usuario} (rol 1)`,
        ].sort(),
      );

      const exported = await a.api.get('/api/logs/exportar');
      expect(exported.statusCode).toBe(200);
      expect(exported.body).toContain(inA.usuario);
      expect(exported.body).not.toContain(inB.usuario);
      expect(exported.body).not.toContain(byDistributorInB.usuario);
      expect(exported.body).not.toContain(b.client.nombre);

      const exports = () =>
        db()
          .select({ n: count() })
          .from(systemLogs)
          .where(and(eq(systemLogs.eventType, 'registros_exportados'), eq(systemLogs.userId, a.user.id)));
      const before = await exports();
      for (const url of ['/api/logs', '/api/logs/exportar']) {
        const foreign = await a.api.get(`${url}?id_cliente=${b.client.id}`);
        expect(foreign.statusCode, url).toBe(404);
        expect(foreign.json()).toEqual(CLIENT_NOT_FOUND);
        expect(foreign.body).toBe((await a.api.get(`${url}?id_cliente=${MAX_ID}`)).body);
        const own = await a.api.get(`${url}?id_cliente=${a.client.id}`);
        expect(own.statusCode, url).toBe(200);
      }
      // A refused export is not logged as one; the allowed one is.
      expect(await exports()).toEqual([{ n: before[0]!.n + 1 }]);
    });
  });
});
