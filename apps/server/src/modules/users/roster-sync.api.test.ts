import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, orders, passwordTokens, sessions, systemLogs, users } from '../../db/schema/index.ts';
import { MSG } from '../../messages.ts';
import { postForm, signedInAdmin } from '../../test/admin-fixtures.ts';
import {
  makeCategory,
  makeClient,
  makeOrder,
  makeProduct,
  makeUser,
  TEST_PASSWORD,
  uniq,
} from '../../test/factories.ts';
import { ApiClient, createTestApp, DB_KINDS, type TestApp } from '../../test/harness.ts';
import { enrolTwoFactor } from '../../test/two-factor.ts';

describe.each(DB_KINDS)('the HR list sync: POST /api/cliente/sincronizar (%s)', (kind) => {
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

  const csv = (rows: string[][]) =>
    Buffer.from(['usuario,correo,nombre,rol', ...rows.map((r) => r.join(','))].join('\n'), 'utf8');
  const send = (api: ApiClient, fields: Record<string, string | number | undefined>, data: Buffer) =>
    postForm(api, '/api/cliente/sincronizar', fields, {
      archivo: { data, filename: 'personal.csv', contentType: 'text/csv' },
    });

  /** A client with a buyer who stays (renamed), a buyer who leaves with a waiting order, an inactive one who returns. */
  async function company() {
    const client = await makeClient(db(), { cantidadAutorizadores: 1 });
    const stays = await makeUser(db(), { rol: 1, idCliente: client.id, nombre: 'Nombre Viejo' });
    const leaves = await makeUser(db(), { rol: 1, idCliente: client.id });
    const returns = await makeUser(db(), { rol: 2, idCliente: client.id, activo: false });
    const manager = await makeUser(db(), { rol: 5, idCliente: client.id });
    const category = await makeCategory(db(), client.id);
    const product = await makeProduct(db(), {
      idCliente: client.id,
      idCategoria: category.id,
      precio: 10000,
    });
    const order = await makeOrder(db(), {
      idUser: leaves.id,
      idCliente: client.id,
      status: 'pendiente',
      lines: [{ productId: product.id, precio: 10000, cantidad: 1, idCategoria: category.id }],
    });
    return { client, stays, leaves, returns, manager, order };
  }

  it('previews without changing anything, then applies: joiners, changes, a returner and a leaver', async () => {
    const c = await company();
    const joiner = uniq('nuevo');
    const data = csv([
      [c.stays.usuario, c.stays.email, 'Nombre Nuevo', ''],
      [c.returns.usuario, c.returns.email, c.returns.nombre, '2'],
      [joiner, `${joiner}@example.test`, 'Ana Nueva', 'Autorizador'],
    ]);
    const preview = await send(admin, { id_cliente: c.client.id, vista_previa: 1 }, data);
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json()).toMatchObject({
      vista_previa: true,
      altas: 1,
      cambios: 1,
      reactivados: 1,
      bajas: 1,
      errores: [],
      msg: MSG.sincronizarVistaPrevia(1, 2, 1),
    });
    expect(preview.json().detalle.bajas).toEqual([
      expect.objectContaining({ id: c.leaves.id, usuario: c.leaves.usuario }),
    ]);
    // Nothing changed: the leaver is active, the joiner does not exist, the order still waits.
    const [leaver] = await db().select().from(users).where(eq(users.id, c.leaves.id));
    expect(leaver!.activo).toBe(true);
    expect(await db().select().from(users).where(eq(users.usuario, joiner))).toHaveLength(0);

    // The leaver has a session open.
    const leaverApi = await new ApiClient(t.app).loginOk(c.leaves.usuario, TEST_PASSWORD);
    const applied = await send(admin, { id_cliente: c.client.id }, data);
    expect(applied.statusCode, applied.body).toBe(200);
    expect(applied.json()).toMatchObject({
      vista_previa: false,
      altas: 1,
      bajas: 1,
      pedidos_retirados: 1,
      msg: MSG.sincronizado(1, 2, 1, 1),
    });
    const rows = await db()
      .select()
      .from(users)
      .where(inArray(users.id, [c.stays.id, c.leaves.id, c.returns.id, c.manager.id]));
    const by = new Map(rows.map((r) => [r.id, r]));
    expect(by.get(c.stays.id)).toMatchObject({ activo: true, nombre: 'Nombre Nuevo' });
    expect(by.get(c.leaves.id)).toMatchObject({ activo: false });
    expect(by.get(c.returns.id)).toMatchObject({ activo: true });
    // The client administrator is not on the list and keeps its account.
    expect(by.get(c.manager.id)).toMatchObject({ activo: true });
    const [created] = await db().select().from(users).where(eq(users.usuario, joiner));
    expect(created).toMatchObject({ rol: 2, idCliente: c.client.id, activo: true, passwordHash: null });
    // The joiner gets a welcome link; the leaver's waiting order is withdrawn and its session ended.
    const links = await db().select().from(passwordTokens).where(eq(passwordTokens.userId, created!.id));
    expect(links).toHaveLength(1);
    const [order] = await db().select().from(orders).where(eq(orders.id, c.order.id));
    expect(order!.status).toBe('cancelado');
    expect(await db().select().from(sessions).where(eq(sessions.userId, c.leaves.id))).toHaveLength(0);
    expect((await leaverApi.get('/api/sesion')).statusCode).toBe(401);
    const [entry] = await db()
      .select()
      .from(systemLogs)
      .where(and(eq(systemLogs.eventType, 'usuarios_sincronizados'), eq(systemLogs.idCliente, c.client.id)));
    expect(entry!.metadata).toMatchObject({ altas: 1, bajas: 1, pedidos_retirados: 1 });

    // The same list again changes nothing.
    const again = await send(admin, { id_cliente: c.client.id }, data);
    expect(again.json()).toMatchObject({ altas: 0, cambios: 0, reactivados: 0, bajas: 0, sin_cambio: 3 });
  });

  it('refuses a list with errors as a whole (400 naming the rows) and shows them in the preview', async () => {
    const c = await company();
    const other = await makeClient(db());
    const foreign = await makeUser(db(), { rol: 1, idCliente: other.id });
    const data = csv([
      [c.stays.usuario, 'no-es-correo', 'X', ''],
      [foreign.usuario, foreign.email, foreign.nombre, ''],
      ['con espacio', 'a@example.test', 'Y', ''],
      [uniq('s'), 'b@example.test', 'Z', '3'],
      [c.stays.usuario, c.stays.email, 'W', ''],
    ]);
    const preview = await send(admin, { id_cliente: c.client.id, vista_previa: 1 }, data);
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json().errores).toEqual([
      { fila: 2, campo: 'correo', motivo: MSG.impCorreo, valor: 'no-es-correo' },
      { fila: 3, campo: 'usuario', motivo: MSG.impUsuarioAjeno, valor: foreign.usuario },
      { fila: 4, campo: 'usuario', motivo: MSG.impUsuarioEspacios, valor: 'con espacio' },
      { fila: 5, campo: 'rol', motivo: MSG.impRolSuper, valor: '3' },
      { fila: 6, campo: 'usuario', motivo: MSG.impRepetido(2), valor: c.stays.usuario },
    ]);
    const applied = await send(admin, { id_cliente: c.client.id }, data);
    expect(applied.statusCode).toBe(400);
    expect(applied.json()).toMatchObject({ code: 'ROSTER_ERRORS', msg: MSG.sincronizarConErrores(5) });
    expect(applied.json().errors['fila 2 correo']).toBe(MSG.impCorreo);
    const [leaver] = await db().select().from(users).where(eq(users.id, c.leaves.id));
    expect(leaver!.activo).toBe(true);
  });

  it('refuses a file without the columns, an empty list and no file, in Spanish', async () => {
    const c = await company();
    const noColumns = await send(admin, { id_cliente: c.client.id }, Buffer.from('nombre\nAna\n'));
    expect(noColumns.statusCode).toBe(400);
    expect(noColumns.json().msg).toBe(MSG.sincronizarEncabezado);
    const onlyHeader = await send(admin, { id_cliente: c.client.id }, Buffer.from('usuario,correo,nombre\n'));
    expect(onlyHeader.statusCode).toBe(400);
    expect(onlyHeader.json().msg).toBe(MSG.csvSinRegistros);
    const noFile = await postForm(admin, '/api/cliente/sincronizar', { id_cliente: c.client.id });
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json().msg).toBe(MSG.sincronizarArchivo);
    const noClient = await send(admin, {}, csv([['a', 'a@example.test', 'A', '']]));
    expect(noClient.statusCode).toBe(400);
  });

  it('a client administrator syncs its own client only, and only when its client allows usuarios', async () => {
    const c = await company();
    const other = await makeClient(db());
    const manager = await makeUser(db(), { rol: 5, idCliente: c.client.id });
    const api = await new ApiClient(t.app).loginOk(manager.usuario, TEST_PASSWORD);
    await enrolTwoFactor(api);
    const data = csv([[c.stays.usuario, c.stays.email, c.stays.nombre, '']]);
    const foreign = await send(api, { id_cliente: other.id, vista_previa: 1 }, data);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().code).toBe('CLIENT_NOT_FOUND');
    const own = await send(api, { vista_previa: 1 }, data);
    expect(own.statusCode, own.body).toBe(200);
    // Its colleague (the other rol 5) is neither a leaver nor changed.
    expect(own.json()).toMatchObject({ bajas: 1, altas: 0 });
    expect(own.json().detalle.bajas.map((b: { id: number }) => b.id)).toEqual([c.leaves.id]);
    await db().update(clients).set({ permisosCliente: [] }).where(eq(clients.id, c.client.id));
    const refused = await send(api, { vista_previa: 1 }, data);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('CLIENT_PERMISSION');
  });
});
