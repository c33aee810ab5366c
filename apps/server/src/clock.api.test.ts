import { addMonths } from '@portal/shared/domain/months';
import { businessDate } from '@portal/shared/domain/time';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clockAt, type ManualClock, manualClock } from './lib/clock.ts';
import { businessNoon } from './test/calendar.ts';
import {
  assign,
  makeCategory,
  makeClient,
  makeOrder,
  makeProduct,
  makeUser,
  makeWeek,
  TEST_PASSWORD,
} from './test/factories.ts';
import { ApiClient, createTestApp, DB_KINDS, type TestApp } from './test/harness.ts';
import { expectLinkLive, expectLinkRefused, plantLinks } from './test/links.ts';

/**
 * One clock for the server (decision 0093): a test places the whole server at an instant, and every
 * business decision — the month a purchase counts in, today's access week, the months of the history, a
 * password's age — follows it, whatever the machine's own date.
 */
const TZ = 'America/Mexico_City';
const LEAP_DAY = '2028-02-29';

describe.each(DB_KINDS)('the server placed at an instant (%s)', (kind) => {
  describe('29 February 2028 at noon', () => {
    let t: TestApp;
    const at = businessNoon(LEAP_DAY, TZ);
    beforeAll(async () => {
      t = await createTestApp(kind, { env: { BUSINESS_TZ: TZ }, clock: clockAt(at) });
    });
    afterAll(async () => {
      await t?.close();
    });
    const db = () => t.database.db;

    it('a purchase is dated that day and counts in February 2028; a week of that day opens the portal, one of March does not', async () => {
      const client = await makeClient(db(), { cantidadAutorizadores: 1, limiteDeCompras: -1 });
      await makeWeek(db(), { idCliente: client.id, inicio: '2028-02-28', fin: '2028-03-03' });
      const buyer = await makeUser(db(), {
        rol: 1,
        idCliente: client.id,
        presupuestoDefault: 100_000,
        limiteDeCompras: -1,
        passwordChangedAt: new Date(at.getTime() - 86_400_000),
      });
      const category = await makeCategory(db(), client.id);
      const product = await makeProduct(db(), {
        idCliente: client.id,
        idCategoria: category.id,
        precio: 10_000,
        impuesto: false,
      });
      await assign(db(), buyer.id, product.id, 10);
      // January's order does not count against February's budget.
      await makeOrder(db(), {
        idUser: buyer.id,
        idCliente: client.id,
        status: 'aprobado',
        transactionDate: businessNoon('2028-01-31', TZ),
        lines: [
          { productId: product.id, precio: 10_000, cantidad: 3, idCategoria: category.id, impuesto: false },
        ],
      });

      const api = await new ApiClient(t.app).loginOk(buyer.usuario, TEST_PASSWORD);
      const before = (await api.get('/api/sesion')).json().comprador.presupuesto;
      expect(before.presupuesto_utilizado).toBe(0);
      await api.post('/api/carrito/nuevo_item', { item: { id: product.id, cantidad: 2 } });
      const res = await api.post('/api/compra', {
        orden: [{ id: product.id, cantidad: 2 }],
        fecha: LEAP_DAY,
      });
      expect(res.statusCode, res.body).toBe(201);
      const after = (await api.get('/api/sesion')).json().comprador.presupuesto;
      expect(after.presupuesto_utilizado).toBe(200);

      const history = (await api.get('/api/historial')).json().pedidos;
      expect(history.map((o: { transaction_date: string }) => businessDate(o.transaction_date, TZ))).toEqual([
        LEAP_DAY,
        '2028-01-31',
      ]);
      const gasto = (await api.get('/api/historial/gasto')).json();
      expect(gasto.meses.map((m: { mes: string }) => m.mes)).toEqual(
        [5, 4, 3, 2, 1, 0].map((n) => addMonths('2028-02', -n)),
      );
      expect(gasto.meses.at(-1).utilizado).toBe(200);
      expect(gasto.meses.at(-2).utilizado).toBe(300);

      // Another client whose only week starts in March: its buyer is outside every week today.
      const later = await makeClient(db(), { limiteDeCompras: -1 });
      await makeWeek(db(), { idCliente: later.id, inicio: '2028-03-06', fin: '2028-03-10' });
      const outside = await makeUser(db(), {
        rol: 1,
        idCliente: later.id,
        passwordChangedAt: new Date(at.getTime() - 86_400_000),
      });
      const refused = await new ApiClient(t.app).login(outside.usuario, TEST_PASSWORD);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().code).toBe('OUTSIDE_WEEK');
    });
  });

  describe('a clock moved by the test', () => {
    let t: TestApp;
    let clock: ManualClock;
    beforeAll(async () => {
      clock = manualClock(businessNoon('2027-08-31', TZ));
      t = await createTestApp(kind, { env: { BUSINESS_TZ: TZ }, clock });
    });
    afterAll(async () => {
      await t?.close();
    });

    it('a password set on 31 August must be changed from 29 February at the same hour, not a minute before', async () => {
      const admin = await makeUser(t.database.db, {
        rol: 4,
        idCliente: null,
        passwordChangedAt: clock.now(),
      });
      const before = await new ApiClient(t.app).loginOk(admin.usuario, TEST_PASSWORD);
      expect((await before.get('/api/sesion')).json().user.debe_cambiar_password).toBe(false);
      clock.set(new Date(businessNoon('2028-02-29', TZ).getTime() - 60_000));
      const minuteBefore = await new ApiClient(t.app).loginOk(admin.usuario, TEST_PASSWORD);
      expect((await minuteBefore.get('/api/sesion')).json().user.debe_cambiar_password).toBe(false);
      clock.advance(60_000);
      const due = await new ApiClient(t.app).loginOk(admin.usuario, TEST_PASSWORD);
      const session = (await due.get('/api/sesion')).json();
      expect(session.user).toMatchObject({ debe_cambiar_password: true, motivo_cambio_password: 'caducada' });
      expect((await due.get('/api/clientes')).statusCode).toBe(403);
    });

    it('a link works for its hour by the server’s clock, and not a minute after', async () => {
      const user = await makeUser(t.database.db, { rol: 4, idCliente: null, passwordChangedAt: clock.now() });
      const { recuperacion } = await plantLinks(t.database.db, user.id, clock.now());
      clock.advance(59 * 60_000);
      await expectLinkLive(t.app, recuperacion);
      clock.advance(2 * 60_000);
      await expectLinkRefused(t.app, recuperacion);
    });
  });
});
