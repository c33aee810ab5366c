import { businessDate } from '@portal/shared/domain/time';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, users } from '../../db/schema/index.ts';
import { integrationToken } from '../../test/admin-fixtures.ts';
import { makeBuyer } from '../../test/buyer-fixtures.ts';
import { assign, makeUser, TEST_PASSWORD } from '../../test/factories.ts';
import { ApiClient, createTestApp, DB_KINDS, type TestApp } from '../../test/harness.ts';
import { pdfText } from '../../test/pdf-text.ts';

/**
 * The delivery address is copied onto the order by the purchase's own statement; the purchase order, the
 * fulfilment export, the authorizers' report and the v1 API print the order's copy, so a later profile edit changes none of them
 * (docs/domain.md "Fulfilment", decision 0094).
 */
describe.each(DB_KINDS)('the delivery address copied onto the order (%s)', (kind) => {
  let t: TestApp;
  let operator: ApiClient;
  beforeAll(async () => {
    t = await createTestApp(kind);
    const op = await makeUser(db(), { rol: 4, idCliente: null });
    operator = await new ApiClient(t.app).loginOk(op.usuario, TEST_PASSWORD);
  });
  afterAll(async () => t?.close());
  const db = () => t.database.db;

  const OLD = {
    direccionEntrega: 'Almacén norte, andén 3',
    calle: 'Av. Industria 100',
    colonia: 'Centro',
    ciudad: 'Monterrey',
    estado: 'Nuevo León',
    cp: '64000',
  };
  const OLD_LINE = 'Almacén norte, andén 3, Av. Industria 100, Centro, Monterrey, Nuevo León, C.P. 64000';

  it('the purchase copies the profile; PDF, export and API keep it after the profile changes', async () => {
    const b = await makeBuyer(t, { client: { cantidadAutorizadores: 0 } });
    await db().update(users).set(OLD).where(eq(users.id, b.user.id));
    const p = await b.product(1000);
    await assign(db(), b.user.id, p.id, 5);
    await b.api.post('/api/carrito/nuevo_item', { item: { id: p.id, cantidad: 1 } });
    const res = await b.api.post('/api/compra', {
      orden: [{ id: p.id, cantidad: 1 }],
      fecha: businessDate(new Date()),
    });
    expect(res.statusCode, res.body).toBe(201);
    const id: number = res.json().pedido.id;
    expect(res.json().pedido.status).toBe('aprobado');
    const [row] = await db().select({ entrega: orders.entrega }).from(orders).where(eq(orders.id, id));
    expect(row!.entrega).toEqual({
      direccion_entrega: OLD.direccionEntrega,
      calle: OLD.calle,
      colonia: OLD.colonia,
      ciudad: OLD.ciudad,
      estado: OLD.estado,
      cp: OLD.cp,
    });

    // The buyer moves: the profile says otherwise from now on.
    await db()
      .update(users)
      .set({
        direccionEntrega: 'Bodega sur',
        calle: 'Calle Nueva 5',
        colonia: 'Obrera',
        ciudad: 'Saltillo',
        estado: 'Coahuila',
        cp: '25000',
      })
      .where(eq(users.id, b.user.id));

    const pdf = await b.api.get(`/api/historial/${id}/pdf`);
    expect(pdf.statusCode).toBe(200);
    const { text } = await pdfText(pdf.rawPayload);
    expect(text).toContain('Almacén norte, andén 3, Av. Industria 100, Centro, Monterrey,');
    expect(text).toContain('C.P. 64000');
    expect(text).not.toContain('Saltillo');

    const exported = await operator.post(
      '/api/surtido/exportar',
      { ids: [id] },
      { headers: { accept: 'application/json' } },
    );
    expect(exported.statusCode, exported.body).toBe(200);
    const body = exported.json();
    const column = body.columnas.indexOf('Dirección de entrega');
    expect(body.filas[0][column]).toBe(OLD_LINE);

    const admin = await new ApiClient(t.app).loginOk(
      (await makeUser(db(), { rol: 4, idCliente: null })).usuario,
      TEST_PASSWORD,
    );
    const token = await integrationToken(admin, { id_cliente: b.client.id, permisos: ['pedidos:leer'] });
    const v1 = await t.app.inject({
      method: 'GET',
      url: `/api/v1/pedidos/${id}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(v1.statusCode, v1.body).toBe(200);
    expect(v1.json().entrega).toEqual({
      direccion_entrega: OLD.direccionEntrega,
      calle: OLD.calle,
      colonia: OLD.colonia,
      ciudad: OLD.ciudad,
      estado: OLD.estado,
      cp: OLD.cp,
      completa: OLD_LINE,
    });
    expect(v1.json().comprador.direccion_entrega).toBe(OLD.direccionEntrega);
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/v1/pedidos',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(list.json().pedidos.find((o: { id: number }) => o.id === id).entrega.completa).toBe(OLD_LINE);

    // The authorizers' CSV report too: the order's address, in its columns.
    const approver = await makeUser(db(), { rol: 2, idCliente: b.client.id });
    const r2 = await new ApiClient(t.app).loginOk(approver.usuario, TEST_PASSWORD);
    const today = businessDate(new Date());
    const report = await r2.post('/api/reporte/autorizador', {
      tipo: 'general',
      fecha_inicio: today,
      fecha_fin: today,
    });
    expect(report.statusCode, report.body).toBe(200);
    const line = report.body.split('\r\n').find((l) => l.startsWith(String(id).padStart(5, '0')));
    expect(line).toContain('"Almacén norte, andén 3",Av. Industria 100,Centro,Monterrey,64000,Nuevo León,');
    expect(report.body).not.toContain('Saltillo');
  });
});
