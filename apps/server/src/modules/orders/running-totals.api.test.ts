/**
 * The buyers' running months (user_month_spend, decision 0072) against a full recount of the orders, after
 * every step of a random sequence of purchases, approvals with and without edits, cancellations (single and
 * in bulk) and withdrawals, across several buyers, both budget modes, taxed and untaxed products at prices
 * whose IVA rounds, an order of an earlier month, and steps run several at once. The sequence comes from a
 * seeded generator; the seed is printed and `TOTALS_SEED=<n>` replays it.
 */
import { businessDate } from '@portal/shared/domain/time';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shipmentFlagDrift, waitingShipmentCountDrift } from '../../db/order-shipments.ts';
import { lineCountDrift, spendDrift, userOrderCountDrift } from '../../db/order-totals.ts';
import { orders, userCategoryBudgets } from '../../db/schema/index.ts';
import { signedInAdmin } from '../../test/admin-fixtures.ts';
import { type BuyerOptions, makeBuyer } from '../../test/buyer-fixtures.ts';
import { assign, makeCategory, makeUser, TEST_PASSWORD } from '../../test/factories.ts';
import { ApiClient, createTestApp, DB_KINDS, type TestApp } from '../../test/harness.ts';
import { generator } from '../../test/random.ts';

const SEED = Number(process.env.TOTALS_SEED ?? Date.now() % 1_000_000);
const STEPS = 36;

describe.each(DB_KINDS)('running totals against a recount (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });
  const db = () => t.database.db;

  /** A client (mode and levels given) with two categories, three products each and `n` buyers. */
  async function clientWorld(opts: BuyerOptions, n: number) {
    const first = await makeBuyer(t, opts);
    const otra = await makeCategory(db(), first.client.id, 'Limpieza');
    // Prices whose IVA rounds (taxed), and untaxed ones.
    const products = [
      await first.product(1_999, { impuesto: true }),
      await first.product(3_333, { impuesto: true }),
      await first.product(10_000),
      await first.product(777, { impuesto: true, idCategoria: otra.id }),
      await first.product(2_501, { idCategoria: otra.id }),
      await first.product(12_345, { impuesto: true, idCategoria: otra.id }),
    ];
    const buyers = [{ user: first.user, api: first.api, order: first.order }];
    for (let i = 1; i < n; i++) {
      const user = await makeUser(db(), {
        rol: 1,
        idCliente: first.client.id,
        presupuestoDefault: opts.presupuesto ?? 500_000,
        limiteDeCompras: opts.limite ?? -1,
      });
      const api = await new ApiClient(t.app, `10.0.1.${buyers.length + 10}`).loginOk(
        user.usuario,
        TEST_PASSWORD,
      );
      buyers.push({ user, api, order: first.order });
    }
    for (const b of buyers) {
      for (const p of products) await assign(db(), b.user.id, p.id, 6);
      if (opts.client?.modoPresupuesto === 'categoria')
        await db()
          .insert(userCategoryBudgets)
          .values([
            { userId: b.user.id, categoryId: first.category.id, presupuesto: 120_000 },
            { userId: b.user.id, categoryId: otra.id, presupuesto: 90_000 },
          ]);
    }
    const reviewer = await makeUser(db(), { rol: 2, idCliente: first.client.id });
    const superReviewer = await makeUser(db(), { rol: 3, idCliente: first.client.id });
    const approvers = [
      await new ApiClient(t.app, '10.0.2.1').loginOk(reviewer.usuario, TEST_PASSWORD),
      await new ApiClient(t.app, '10.0.2.2').loginOk(superReviewer.usuario, TEST_PASSWORD),
    ];
    return { client: first.client, products, buyers, approvers, oldOrder: first.order };
  }

  it(`a random sequence (seed ${SEED}) keeps the table equal to a recount after every step`, async () => {
    console.log(`running totals: TOTALS_SEED=${SEED} (${kind})`);
    const r = generator(SEED);
    const worlds = [
      await clientWorld({ presupuesto: 150_000, limite: 6, client: { cantidadAutorizadores: 1 } }, 3),
      await clientWorld(
        { limite: -1, client: { cantidadAutorizadores: 2, modoPresupuesto: 'categoria' } },
        3,
      ),
    ];
    // An order of two months ago in each world: its month has rows too, and cancelling it moves them.
    const orderIds: { world: (typeof worlds)[number]; buyer: number; id: number }[] = [];
    for (const w of worlds) {
      const old = await w.oldOrder(
        [
          [w.products[0]!, 2],
          [w.products[3]!, 1],
        ],
        'pendiente',
      );
      orderIds.push({ world: w, buyer: 0, id: old.id });
    }
    expect(await spendDrift(db())).toEqual([]);

    const counts = {
      compra: 0,
      aprobada: 0,
      editada: 0,
      cancelada: 0,
      devuelta: 0,
      retirada: 0,
      lote: 0,
      rechazos: 0,
    };
    const ok = (status: number, body: string) => {
      expect(status, body).toBeLessThan(500);
      if (status >= 400) counts.rechazos++;
      return status < 300;
    };

    /** One random operation, answered by the API (a refusal is a valid outcome; a 5xx is not). */
    async function operation() {
      const w = r.pick(worlds);
      const kindOf = r.int(10);
      if (kindOf < 4 || orderIds.length === 0) {
        const bi = r.int(w.buyers.length);
        const b = w.buyers[bi]!;
        const lines = new Map<number, number>();
        for (let k = 0, n = 1 + r.int(3); k < n; k++) lines.set(r.pick(w.products).id, 1 + r.int(3));
        await b.api.post('/api/carrito/vaciar_carrito', {});
        for (const [id, cantidad] of lines)
          await b.api.post('/api/carrito/nuevo_item', { item: { id, cantidad } });
        const cart = await b.api.get('/api/carrito');
        const orden = (cart.json().carrito ?? []).map((l: { id: number; cantidad: number }) => ({
          id: l.id,
          cantidad: l.cantidad,
        }));
        if (orden.length === 0) return;
        const res = await b.api.post('/api/compra', { orden, fecha: businessDate(new Date()) });
        if (ok(res.statusCode, res.body)) {
          counts.compra++;
          orderIds.push({ world: w, buyer: bi, id: res.json().pedido.id });
        }
        return;
      }
      const target = r.pick(orderIds);
      const tw = target.world;
      if (kindOf < 6) {
        // An approval, with edits half of the time (quantities lowered or raised, a line removed).
        const view = await tw.approvers[0]!.get(`/api/pedidos/${target.id}`);
        if (view.statusCode !== 200) return;
        const lineas: { id: number; cantidad: number }[] = view
          .json()
          .pedido.lineas.map((l: { id_producto: number; cantidad: number }) => ({
            id: l.id_producto,
            cantidad: l.cantidad,
          }));
        const edit = r.next() < 0.5 && lineas.length > 0;
        const orden = edit
          ? lineas
              .filter((_, i) => !(i === 0 && lineas.length > 1 && r.next() < 0.3))
              .map((l) => ({ id: l.id, cantidad: Math.max(1, Math.min(6, l.cantidad + r.int(5) - 2)) }))
          : lineas;
        const res = await r.pick(tw.approvers).post('/api/update/compra', { id: target.id, orden });
        if (ok(res.statusCode, res.body)) counts[edit ? 'editada' : 'aprobada']++;
        return;
      }
      if (kindOf === 7) {
        // Sent back to level 1 (decision 0111): no move in the totals.
        const res = await r
          .pick(tw.approvers)
          .post(`/api/pedidos/${target.id}/devolver`, { comentario: 'Corrige la cantidad' });
        if (ok(res.statusCode, res.body)) counts.devuelta++;
        return;
      }
      if (kindOf < 8) {
        const res = await r
          .pick(tw.approvers)
          .post(`/api/cancelar/compra/${target.id}`, { motivo: 'Prueba' });
        if (ok(res.statusCode, res.body)) counts.cancelada++;
        return;
      }
      if (kindOf < 9) {
        const res = await tw.buyers[target.buyer]!.api.post(`/api/historial/${target.id}/retirar`, {});
        if (ok(res.statusCode, res.body)) counts.retirada++;
        return;
      }
      const ids = [
        ...new Set(orderIds.filter((o) => o.world === tw && r.next() < 0.4).map((o) => o.id)),
      ].slice(0, 5);
      if (ids.length === 0) return;
      const path = r.next() < 0.5 ? '/api/pedidos/aprobar-lote' : '/api/pedidos/cancelar-lote';
      const res = await r.pick(tw.approvers).post(path, { ids });
      if (ok(res.statusCode, res.body)) counts.lote++;
    }

    // After each step the operator ships a unit of an approved order, or its buyer receives a shipment: the
    // shipments' kept facts (decision 0139) follow. Its own generator, so a seed's totals sequence is unchanged.
    const operator = (await signedInAdmin(t.app, db())).api;
    const shipping = generator(SEED + 1);
    const shipped = { intentos: 0, envio: 0, recibido: 0 };
    async function shipOrReceive() {
      const ids = orderIds.map((o) => o.id);
      const approved = await db()
        .select({ id: orders.id })
        .from(orders)
        .where(and(inArray(orders.id, ids), eq(orders.status, 'aprobado')))
        .orderBy(orders.id);
      if (approved.length === 0) return;
      shipped.intentos++;
      const id = shipping.pick(approved).id;
      const target = orderIds.find((o) => o.id === id)!;
      const buyerApi = target.world.buyers[target.buyer]!.api;
      const pedido = (await buyerApi.get(`/api/historial/${id}`)).json().pedido;
      const waiting = (pedido.envios as { numero: number; recepcion: unknown }[]).filter(
        (e) => e.recepcion === null,
      );
      if (waiting.length > 0 && shipping.next() < 0.5) {
        const e = shipping.pick(waiting);
        const res = await buyerApi.post(`/api/historial/${id}/envios/${e.numero}/recepcion`, {});
        if (ok(res.statusCode, res.body)) shipped.recibido++;
        return;
      }
      const lines = pedido.lineas as { id: number; cantidad: number; enviado?: number }[];
      const left = lines.filter((l) => (l.enviado ?? 0) < l.cantidad);
      const line = shipping.pick(left.length > 0 ? left : lines);
      const res = await operator.post(`/api/surtido/${id}/envios`, {
        lineas: [{ id: line.id, cantidad: 1 }],
      });
      if (ok(res.statusCode, res.body)) shipped.envio++;
    }

    for (let step = 0; step < STEPS; step++) {
      // One step in three runs three operations at once (the buyer lock, the conditional transitions and
      // the ordered upserts under real concurrency).
      const together = step % 3 === 2 ? 3 : 1;
      await Promise.all(Array.from({ length: together }, () => operation()));
      const drift = await spendDrift(db());
      expect(drift, `seed ${SEED}, step ${step}`).toEqual([]);
      // The stored line counts follow the edits that remove lines.
      expect(await lineCountDrift(db()), `seed ${SEED}, step ${step}`).toEqual([]);
      // And each buyer's kept number of orders follows the purchases (decision 0137).
      expect(await userOrderCountDrift(db()), `seed ${SEED}, step ${step}`).toEqual([]);
      await shipOrReceive();
      expect(await shipmentFlagDrift(db()), `seed ${SEED}, step ${step}`).toEqual([]);
      expect(await waitingShipmentCountDrift(db()), `seed ${SEED}, step ${step}`).toEqual([]);
    }
    console.log(`running totals (${kind}):`, JSON.stringify(counts), JSON.stringify(shipped));
    // An approved order was shipped from whenever one existed.
    if (shipped.intentos > 0) expect(shipped.envio).toBeGreaterThan(0);
    // The sequence did exercise the paths (a seed that only refused would prove nothing).
    expect(counts.compra).toBeGreaterThan(5);
    expect(counts.cancelada + counts.retirada + counts.lote).toBeGreaterThan(0);
  });
});
