import { businessDate, formatIsoDate } from '@portal/shared/domain/time';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, users } from '../../db/schema/index.ts';
import { MSG } from '../../messages.ts';
import { signedInAdmin } from '../../test/admin-fixtures.ts';
import { makeBuyer } from '../../test/buyer-fixtures.ts';
import { assign, makeClient, makeUser, TEST_PASSWORD, uniq } from '../../test/factories.ts';
import { ApiClient, createTestApp, DB_KINDS, type TestApp } from '../../test/harness.ts';
import { pdfText } from '../../test/pdf-text.ts';

/**
 * The remisión (packing slip) of each shipment (issue 41 item 7, decision 0125): an order approved through the
 * real approval, shipped twice with the operator's route, each remisión downloaded by the operator, the buyer
 * and the client's approvers, and read back.
 */
describe.each(DB_KINDS)('remisión of a shipment (%s)', (kind) => {
  let t: TestApp;
  let operator: ApiClient;
  beforeAll(async () => {
    t = await createTestApp(kind);
    operator = (await signedInAdmin(t.app, db())).api;
  });
  afterAll(async () => t?.close());
  const db = () => t.database.db;
  const today = () => businessDate(t.app.clock.now(), t.app.deps.config.BUSINESS_TZ);

  const ADDRESS = {
    direccionEntrega: 'Almacén central, andén 4',
    calle: 'Av. Constitución 2050',
    colonia: 'Obispado',
    ciudad: 'Monterrey',
    estado: 'Nuevo León',
    cp: '64060',
  };

  /** A client with one approval level, its buyer, approvers and another buyer, and another client's approver. */
  async function world() {
    const tag = uniq('remision');
    const b = await makeBuyer(t, {
      presupuesto: 10_000_000,
      client: { nombre: `Ferretería Núñez ${tag}`, cantidadAutorizadores: 1 },
    });
    const { client } = b;
    await db()
      .update(users)
      .set({ ...ADDRESS, nombre: 'José Peña' })
      .where(eq(users.id, b.user.id));
    const toner = await b.product(10_000, { nombre: `Tóner ${tag}`, existencia: 20 });
    const hojas = await b.product(2_550, { nombre: `Hojas ${tag}`, existencia: null });
    await assign(db(), b.user.id, toner.id, 100);
    await assign(db(), b.user.id, hojas.id, 100);
    const someone = (rol: 1 | 2 | 3, idCliente = client.id) => makeUser(db(), { rol, idCliente });
    const otherClient = await makeClient(db(), { nombre: `Otro ${tag}`, cantidadAutorizadores: 1 });
    const login = async (u: Promise<{ usuario: string }>) =>
      new ApiClient(t.app).loginOk((await u).usuario, TEST_PASSWORD);
    const api = {
      buyer: b.api,
      r2: await login(someone(2)),
      r3: await login(someone(3)),
      otherBuyer: await login(someone(1)),
      otherR2: await login(someone(2, otherClient.id)),
    };

    // 5 tóner and 2 hojas, approved by the approver; the order's copy of the address gets who receives.
    const o = await b.order(
      [
        [toner, 5],
        [hojas, 2],
      ],
      'pendiente',
      true,
    );
    const [row] = await db().select({ entrega: orders.entrega }).from(orders).where(eq(orders.id, o.id));
    await db()
      .update(orders)
      .set({ entrega: { ...row!.entrega, contacto: 'Ana López', telefono: '8112345678' } })
      .where(eq(orders.id, o.id));
    const approval = await api.r2.post('/api/update/compra', {
      id: o.id,
      orden: [
        { id: toner.id, cantidad: 5 },
        { id: hojas.id, cantidad: 2 },
      ],
    });
    expect(approval.statusCode, approval.body).toBe(200);
    const [tonerLine, hojasLine] = o.lineIds as [number, number];
    return { client, toner, hojas, api, order: o, tonerLine, hojasLine, buyer: b };
  }

  it('each shipment prints its own lines, units, guía, the address and the signature box, for every role', async () => {
    const w = await world();
    const first = await operator.post(`/api/surtido/${w.order.id}/envios`, {
      lineas: [{ id: w.tonerLine, cantidad: 3 }],
      guia: 'GUIA-UNO-111',
      paqueteria: 'estafeta',
    });
    expect(first.statusCode, first.body).toBe(200);
    const second = await operator.post(`/api/surtido/${w.order.id}/envios`, {
      lineas: [{ id: w.hojasLine, cantidad: 2 }],
      guia: 'GUIA-DOS-222',
    });
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json().envio.numero).toBe(2);

    const numero = String(w.order.id).padStart(5, '0');
    const shipments = [
      { n: 1, guia: 'GUIA-UNO-111', own: w.toner, other: w.hojas, units: 3, carrier: 'Estafeta' },
      { n: 2, guia: 'GUIA-DOS-222', own: w.hojas, other: w.toner, units: 2, carrier: '—' },
    ];
    for (const s of shipments) {
      const urls = [
        [operator, `/api/surtido/${w.order.id}/envios/${s.n}/remision`],
        [w.api.buyer, `/api/historial/${w.order.id}/envios/${s.n}/remision`],
        [w.api.r2, `/api/pedidos/${w.order.id}/envios/${s.n}/remision`],
        [w.api.r3, `/api/pedidos/${w.order.id}/envios/${s.n}/remision`],
      ] as const;
      for (const [api, url] of urls) {
        const res = await api.get(url);
        expect(res.statusCode, `${url} ${res.body.slice(0, 200)}`).toBe(200);
        expect(res.headers['content-type']).toBe('application/pdf');
        expect(res.headers['content-disposition']).toBe(
          `attachment; filename="remision-${numero}-${s.n}.pdf"`,
        );
        expect(res.headers['cache-control']).toBe('private, no-store');
        const { text, pages } = await pdfText(res.rawPayload);
        expect(pages).toBe(1);
        expect(text).toContain(`Remisión ${numero}-${s.n}`);
        expect(text).toContain(`Envío ${s.n} de 2`);
        expect(text).toContain(w.client.nombre);
        expect(text).toContain('José Peña');
        expect(text).toContain(
          'Almacén central, andén 4, Av. Constitución 2050, Obispado, Monterrey, Nuevo León, C.P. 64060',
        );
        expect(text).toContain('Recibe: Ana López');
        expect(text).toContain('Tel. 81 1234 5678');
        expect(text).toContain(formatIsoDate(today()));
        expect(text).toContain(`Paquetería: ${s.carrier}`);
        expect(text).toContain(`Guía: ${s.guia}`);
        expect(text).toContain(s.own.nombre);
        expect(text).toContain(`CL-${s.own.id} `);
        expect(text).toContain(`Total de unidades: ${s.units}`);
        expect(text).not.toContain(s.other.nombre);
        expect(text).not.toContain(s.n === 1 ? 'GUIA-DOS-222' : 'GUIA-UNO-111');
        // A packing slip: no prices.
        expect(text).not.toContain('$');
        expect(text).toContain('Recibí de conformidad');
        expect(text).toContain('Nombre');
        expect(text).toContain('Firma');
      }
    }
  });

  it('another buyer, another client’s approver, a missing shipment and a missing order answer 404', async () => {
    const w = await world();
    const shipped = await operator.post(`/api/surtido/${w.order.id}/envios`, {
      lineas: [{ id: w.tonerLine, cantidad: 1 }],
    });
    expect(shipped.statusCode, shipped.body).toBe(200);
    const cases = [
      [w.api.otherBuyer, `/api/historial/${w.order.id}/envios/1/remision`, MSG.pedidoNoEncontrado],
      [w.api.otherR2, `/api/pedidos/${w.order.id}/envios/1/remision`, MSG.pedidoNoEncontrado],
      [operator, `/api/surtido/${w.order.id}/envios/3/remision`, MSG.remisionNoEncontrada],
      [w.api.buyer, `/api/historial/${w.order.id}/envios/2/remision`, MSG.remisionNoEncontrada],
      [w.api.r2, `/api/pedidos/${w.order.id}/envios/3/remision`, MSG.remisionNoEncontrada],
      [operator, '/api/surtido/2147483647/envios/1/remision', MSG.pedidoNoEncontrado],
    ] as const;
    for (const [api, url, msg] of cases) {
      const res = await api.get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().msg, url).toBe(msg);
    }
    // An order with no shipment yet has no remisión either; a shipment number must be a positive integer.
    const other = await w.buyer.order([[w.toner, 1]], 'pendiente', true);
    const pending = await w.api.buyer.get(`/api/historial/${other.id}/envios/1/remision`);
    expect(pending.statusCode).toBe(404);
    expect(pending.json().msg).toBe(MSG.remisionNoEncontrada);
    for (const bad of ['0', '-1', 'uno'])
      expect((await operator.get(`/api/surtido/${w.order.id}/envios/${bad}/remision`)).statusCode).toBe(400);
  });
});
