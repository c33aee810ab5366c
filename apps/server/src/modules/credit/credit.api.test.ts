import { randomUUID } from 'node:crypto';
import { dueDate } from '@portal/shared/domain/credit';
import { formatCentavos } from '@portal/shared/domain/money';
import { orderNumber } from '@portal/shared/domain/order-workflow';
import { addDays, businessDate, formatIsoDate } from '@portal/shared/domain/time';
import { STATEMENT_PER_PAGE } from '@portal/shared/schemas/credit';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, invoices, orderEvents, orders, systemLogs, users } from '../../db/schema/index.ts';
import { MSG } from '../../messages.ts';
import { integrationToken, postForm, signedInAdmin } from '../../test/admin-fixtures.ts';
import { makeBuyer } from '../../test/buyer-fixtures.ts';
import { cfdiXml } from '../../test/cfdi-documents.ts';
import { creditWorld } from '../../test/credit-fixtures.ts';
import { assign, uniq } from '../../test/factories.ts';
import { type ApiClient, createTestApp, DB_KINDS, type TestApp } from '../../test/harness.ts';
import { pdfText } from '../../test/pdf-text.ts';
import { generator } from '../../test/random.ts';
import { openInvoiceDayDrift } from '../orders/credit-check.ts';

const RFC = 'URE180429TM6';
/** The business date the server counts at (the real clock: the client administrator's two-factor codes are). */
const TODAY = businessDate(Date.now(), 'America/Mexico_City');
const ago = (days: number) => addDays(TODAY, -days);

const pesos = (centavos: number) => (centavos / 100).toFixed(2);

/** Credit and statements (issue 42 item 4, decision 0134). */
describe.each(DB_KINDS)('credit and statements (%s)', (kind) => {
  let t: TestApp;
  let admin: ApiClient;
  let writer: string;
  const db = () => t.database.db;

  beforeAll(async () => {
    t = await createTestApp(kind, { env: { API_RATE_LIMIT: '100000' } });
    admin = (await signedInAdmin(t.app, db())).api;
    writer = await integrationToken(admin, { permisos: ['facturas:escribir', 'facturas:leer'] });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A client (RFC shared: each test's own client) with two approvers, an administrator and a buyer. */
  const world = (credit: Partial<typeof clients.$inferInsert> = {}) =>
    creditWorld(t, { rfc: RFC, ...credit });

  const post = (body: object) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/facturas',
      headers: { authorization: `Bearer ${writer}` },
      payload: body,
    });

  /** Registers an ingreso of `total` centavos dated `fecha` for the order; answers its UUID. */
  async function invoice(pedido: number, total: number, fecha: string): Promise<string> {
    const amount = pesos(total);
    const { xml, uuid } = cfdiXml({
      receptorRfc: RFC,
      fecha: `${fecha}T10:00:00`,
      subtotal: amount,
      traslados: null,
      total: amount,
      conceptos: [{ cantidad: '1', valorUnitario: amount, importe: amount }],
    });
    const res = await post({ pedido, xml });
    expect(res.statusCode, res.body).toBe(201);
    return uuid;
  }

  async function creditNote(pedido: number, of: string, importe: number) {
    const amount = pesos(importe);
    const { xml } = cfdiXml({
      receptorRfc: RFC,
      tipo: 'E',
      fecha: `${TODAY}T09:00:00`,
      subtotal: amount,
      traslados: null,
      total: amount,
      conceptos: [{ cantidad: '1', valorUnitario: amount, importe: amount }],
      relacionados: { tipoRelacion: '01', uuids: [of] },
    });
    const res = await post({ pedido, xml });
    expect(res.statusCode, res.body).toBe(201);
  }

  async function payment(pedido: number, of: string, saldoAnt: number, importe: number) {
    const { xml } = cfdiXml({
      receptorRfc: RFC,
      tipo: 'P',
      fecha: `${TODAY}T09:30:00`,
      pagos: [{ uuid: of, saldoAnt: pesos(saldoAnt), pagado: pesos(importe) }],
    });
    const res = await post({ pedido, xml });
    expect(res.statusCode, res.body).toBe(201);
  }

  const heldOf = async (id: number) =>
    (await db().select({ r: orders.retenidoCredito }).from(orders).where(eq(orders.id, id)))[0]?.r ?? null;
  const eventsOf = async (id: number, tipo: string) =>
    db()
      .select()
      .from(orderEvents)
      .where(and(eq(orderEvents.orderId, id), eq(orderEvents.tipo, tipo)));

  it('keeps the client form’s credit settings: limit in pesos, days, policy; refuses bad ones in Spanish', async () => {
    const valid = { nombre: uniq('Crédito'), presupuesto_default: '0', limite_de_compras: '-1' };
    const created = await postForm(admin, '/api/clientes', {
      ...valid,
      limite_credito: '50000.50',
      dias_credito: '45',
      politica_credito: 'retener',
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().cliente).toMatchObject({
      limite_credito: 50000.5,
      dias_credito: 45,
      politica_credito: 'retener',
    });
    const id = created.json().cliente.id as number;
    const [row] = await db().select().from(clients).where(eq(clients.id, id));
    expect(row).toMatchObject({ limiteCredito: 5_000_050, diasCredito: 45, politicaCredito: 'retener' });
    const plain = await postForm(admin, '/api/clientes', { ...valid, nombre: uniq('Sin crédito') });
    expect(plain.json().cliente).toMatchObject({
      limite_credito: null,
      dias_credito: 30,
      politica_credito: 'avisar',
    });
    for (const [extra, msg] of [
      [{ dias_credito: '366' }, MSG.diasCreditoInvalido],
      [{ dias_credito: '-1' }, MSG.diasCreditoInvalido],
      [{ limite_credito: '-5' }, MSG.limiteCreditoInvalido],
      [{ politica_credito: 'bloquear' }, MSG.politicaCreditoInvalida],
    ] as const) {
      const res = await postForm(admin, '/api/clientes', { ...valid, nombre: uniq('Mal'), ...extra });
      expect(res.statusCode, JSON.stringify(extra)).toBe(400);
      expect(res.json().msg).toBe(msg);
    }
  });

  it('holds an order approved over the limit (retener): event, log, Surtido badge; no move, shipment, bulk move or guía until released', async () => {
    const w = await world({ limiteCredito: 150_000, diasCredito: 30, politicaCredito: 'retener' });
    const billed = await w.order();
    await invoice(billed.id, 100_000, ago(3));
    const pending = await w.order('pendiente');
    const r2 = await w.login(w.approver);
    const view = await r2.get(`/api/pedidos/${pending.id}`);
    expect(view.statusCode, view.body).toBe(200);
    expect(view.json().credito).toMatchObject({ retendra: true });
    expect(view.json().credito.aviso).toContain('rebasa su límite de crédito');
    expect(view.json().credito.aviso).toContain(MSG.creditoRetendra);

    const approved = await w.approve(pending.id);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().nuevo_estatus).toBe('aprobado');
    const motivo = await heldOf(pending.id);
    expect(motivo).toBe(
      MSG.creditoExcedido(formatCentavos(100_000), formatCentavos(116_000), formatCentavos(150_000)),
    );
    expect(await eventsOf(pending.id, 'retenido_credito')).toHaveLength(1);
    // The hold follows the approval in the same transaction: its event right after the approval's, by the
    // same approver, with the reason and the figures; its log entry right after the approval's, the
    // approver's, in the order's client.
    const events = await db()
      .select()
      .from(orderEvents)
      .where(eq(orderEvents.orderId, pending.id))
      .orderBy(orderEvents.id);
    expect(events.slice(-2).map((e) => [e.tipo, e.actorId, e.reason])).toEqual([
      ['aprobado', w.approver.id, null],
      ['retenido_credito', w.approver.id, motivo],
    ]);
    expect(events.at(-1)?.changes).toMatchObject({ saldo: 100_000, limite: 150_000, total: 116_000 });
    const orderLogs = await db()
      .select()
      .from(systemLogs)
      .where(eq(systemLogs.idPedido, pending.id))
      .orderBy(systemLogs.id);
    expect(orderLogs.slice(-2).map((l) => [l.eventType, l.userId, l.idCliente])).toEqual([
      ['pedido_aprobado', w.approver.id, w.client.id],
      ['pedido_retenido_credito', w.approver.id, w.client.id],
    ]);
    expect(orderLogs.at(-1)?.description).toBe(
      `Pedido #${String(pending.id).padStart(5, '0')} retenido por crédito: ${motivo}`,
    );
    const logs = await db()
      .select()
      .from(systemLogs)
      .where(eq(systemLogs.eventType, 'pedido_retenido_credito'));
    expect(logs.some((l) => (l.metadata as { id_pedido?: number }).id_pedido === pending.id)).toBe(true);

    const queue = await admin.get(`/api/surtido?cliente=${w.client.id}&retenido=si`);
    expect(queue.json().pedidos.map((p: { id: number }) => p.id)).toEqual([pending.id]);
    expect(queue.json().pedidos[0].retenido_credito).toBe(motivo);
    const notHeld = await admin.get(`/api/surtido?cliente=${w.client.id}&retenido=no`);
    expect(notHeld.json().pedidos.map((p: { id: number }) => p.id)).toEqual([billed.id]);

    const move = await admin.post(`/api/surtido/${pending.id}/estado`, { estado: 'en_surtido' });
    expect(move.statusCode).toBe(409);
    expect(move.json().msg).toBe(MSG.pedidoRetenidoCredito);
    const bulk = await admin.post('/api/surtido/estado-lote', { ids: [pending.id], estado: 'enviado' });
    expect(bulk.json().resultados).toEqual([{ id: pending.id, ok: false, error: MSG.pedidoRetenidoCredito }]);
    const guias = await postForm(
      admin,
      '/api/surtido/guias',
      {},
      {
        file: {
          filename: 'g.csv',
          data: Buffer.from(`pedido,guia\n${pending.id},DHL 1\n`),
          contentType: 'text/csv',
        },
      },
    );
    expect(guias.json()).toMatchObject({ enviados: 0 });
    expect(guias.json().errores[0]).toMatchObject({ motivo: MSG.pedidoRetenidoCredito });
    const lines = await db().select().from(orders).where(eq(orders.id, pending.id));
    expect(lines[0]?.surtidoEstatus).toBe('por_surtir');

    const released = await admin.post(`/api/surtido/${pending.id}/liberar`, {});
    expect(released.statusCode, released.body).toBe(200);
    expect(released.json().msg).toBe(MSG.pedidoLiberado);
    expect(await heldOf(pending.id)).toBeNull();
    expect(await eventsOf(pending.id, 'liberado_credito')).toHaveLength(1);
    const again = await admin.post(`/api/surtido/${pending.id}/liberar`, {});
    expect(again.statusCode).toBe(409);
    expect(again.json().msg).toBe(MSG.pedidoNoRetenido);
    const moved = await admin.post(`/api/surtido/${pending.id}/estado`, { estado: 'en_surtido' });
    expect(moved.statusCode, moved.body).toBe(200);
  });

  it('holds for an overdue invoice even under the limit; warns only (avisar) and never holds then', async () => {
    const held = await world({ limiteCredito: null, diasCredito: 10, politicaCredito: 'retener' });
    const old = await held.order();
    await invoice(old.id, 50_000, ago(40));
    const p = await held.order('pendiente');
    expect((await held.approve(p.id)).statusCode).toBe(200);
    expect(await heldOf(p.id)).toBe(MSG.creditoVencido(1, formatCentavos(50_000)));

    const warned = await world({ limiteCredito: 1_000, diasCredito: 10, politicaCredito: 'avisar' });
    const o = await warned.order();
    await invoice(o.id, 50_000, ago(40));
    const q = await warned.order('pendiente');
    const a2 = await warned.login(warned.approver);
    const view = await a2.get(`/api/pedidos/${q.id}`);
    expect(view.json().credito).toMatchObject({ retendra: false });
    expect(view.json().credito.aviso).toContain('factura vencida');
    expect((await warned.approve(q.id)).statusCode).toBe(200);
    expect(await heldOf(q.id)).toBeNull();
    const [aviso] = await eventsOf(q.id, 'aviso_credito');
    expect(aviso?.reason).toContain('rebasa su límite de crédito');
    expect((await admin.post(`/api/surtido/${q.id}/liberar`, {})).statusCode).toBe(409);

    const fine = await world({ limiteCredito: 10_000_000, diasCredito: 30, politicaCredito: 'retener' });
    const f = await fine.order('pendiente');
    const f2 = await fine.login(fine.approver);
    expect((await f2.get(`/api/pedidos/${f.id}`)).json().credito).toBeNull();
    expect((await fine.approve(f.id)).statusCode).toBe(200);
    expect(await heldOf(f.id)).toBeNull();
    expect(await eventsOf(f.id, 'aviso_credito')).toHaveLength(0);
  });

  it('a bulk approval meets the credit on every order (read once for the batch, never kept after it)', async () => {
    const w = await world({ limiteCredito: null, diasCredito: 10, politicaCredito: 'retener' });
    // A budget for all five orders: only the credit is at stake here.
    await db().update(users).set({ presupuestoDefault: 100_000_000 }).where(eq(users.id, w.buyer.id));
    const old = await w.order();
    const uuid = await invoice(old.id, 50_000, ago(40));
    const approver = await w.login(w.approver);
    const batch = [await w.order('pendiente'), await w.order('pendiente'), await w.order('pendiente')];
    const res = await approver.post('/api/pedidos/aprobar-lote', { ids: batch.map((o) => o.id) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().resultados).toEqual(batch.map((o) => ({ id: o.id, ok: true, estatus: 'aprobado' })));
    for (const o of batch) {
      expect(await heldOf(o.id)).toBe(MSG.creditoVencido(1, formatCentavos(50_000)));
      expect(await eventsOf(o.id, 'retenido_credito')).toHaveLength(1);
    }
    // The overdue invoice paid: the next batch reads the credit again and holds nothing.
    await payment(old.id, uuid, 50_000, 50_000);
    const next = [await w.order('pendiente'), await w.order('pendiente')];
    const again = await approver.post('/api/pedidos/aprobar-lote', { ids: next.map((o) => o.id) });
    expect(again.json().resultados).toEqual(next.map((o) => ({ id: o.id, ok: true, estatus: 'aprobado' })));
    for (const o of next) {
      expect(await heldOf(o.id)).toBeNull();
      expect(await eventsOf(o.id, 'retenido_credito')).toHaveLength(0);
    }
  });

  it('a purchase approved at once (no approval levels) is held too: the event has no actor', async () => {
    const { client, user, api, product } = await makeBuyer(t, {
      client: { cantidadAutorizadores: 0, limiteCredito: 50_000, politicaCredito: 'retener' },
    });
    const p = await product(100_000);
    await assign(db(), user.id, p.id, 5);
    await api.post('/api/carrito/nuevo_item', { item: { id: p.id, cantidad: 1 } });
    const bought = await api.post('/api/compra', { orden: [{ id: p.id, cantidad: 1 }] });
    expect(bought.statusCode, bought.body).toBe(201);
    const id = bought.json().pedido.id as number;
    expect(bought.json().pedido.status).toBe('aprobado');
    expect(await heldOf(id)).toBe(
      MSG.creditoExcedido(formatCentavos(0), formatCentavos(100_000), formatCentavos(50_000)),
    );
    const [event] = await eventsOf(id, 'retenido_credito');
    expect(event?.actorId).toBeNull();
    const queue = await admin.get(`/api/surtido?cliente=${client.id}&retenido=si`);
    expect(queue.json().pedidos.map((o: { id: number }) => o.id)).toEqual([id]);
  });

  it('two releases at once: one releases, the other gets 409; one event', async () => {
    const w = await world({ limiteCredito: 0, politicaCredito: 'retener' });
    const p = await w.order('pendiente');
    expect((await w.approve(p.id)).statusCode).toBe(200);
    expect(await heldOf(p.id)).not.toBeNull();
    const other = (await signedInAdmin(t.app, db())).api;
    const codes = (
      await Promise.all([
        admin.post(`/api/surtido/${p.id}/liberar`, {}),
        other.post(`/api/surtido/${p.id}/liberar`, {}),
      ])
    )
      .map((r) => r.statusCode)
      .sort();
    expect(codes).toEqual([200, 409]);
    expect(await eventsOf(p.id, 'liberado_credito')).toHaveLength(1);
  });

  it('a release racing a move: the move waits for the lock and is refused or goes after the release, never both held and moved', async () => {
    const w = await world({ limiteCredito: 0, politicaCredito: 'retener' });
    const p = await w.order('pendiente');
    expect((await w.approve(p.id)).statusCode).toBe(200);
    const [release, move] = await Promise.all([
      admin.post(`/api/surtido/${p.id}/liberar`, {}),
      admin.post(`/api/surtido/${p.id}/estado`, { estado: 'en_surtido' }),
    ]);
    expect(release.statusCode).toBe(200);
    const [row] = await db().select().from(orders).where(eq(orders.id, p.id));
    expect(row?.retenidoCredito).toBeNull();
    if (move.statusCode === 200) expect(row?.surtidoEstatus).toBe('en_surtido');
    else {
      expect(move.json().msg).toBe(MSG.pedidoRetenidoCredito);
      expect(row?.surtidoEstatus).toBe('por_surtir');
    }
  });

  it('the statement: open invoices with due dates, days overdue, buckets, applications, balance, limit and available; CSV and PDF', async () => {
    const w = await world({ limiteCredito: 500_000, diasCredito: 30, politicaCredito: 'avisar' });
    const o = await w.order();
    const fresh = await invoice(o.id, 100_000, ago(5)); // not yet due: 0–30
    const late45 = await invoice(o.id, 200_000, ago(73)); // 43 days past due: 31–60
    const late100 = await invoice(o.id, 50_000, ago(130)); // 100 days past due: 90+
    const paid = await invoice(o.id, 10_000, ago(14));
    await creditNote(o.id, late45, 20_000);
    await payment(o.id, late45, 180_000, 30_000);
    await payment(o.id, paid, 10_000, 10_000);
    const admin5 = await w.login(w.clientAdmin);
    const res = await admin5.get('/api/estado-cuenta');
    expect(res.statusCode, res.body).toBe(200);
    const s = res.json();
    expect(s).toMatchObject({
      fecha: TODAY,
      limite_credito: 5000,
      dias_credito: 30,
      saldo: 1000 + 1500 + 500,
      vencido: 1500 + 500,
      disponible: 5000 - 3000,
      antiguedad: { '0-30': 1000, '31-60': 1500, '61-90': 0, '90+': 500 },
      pedidos_retenidos: 0,
    });
    expect(s.facturas.map((f: { uuid: string }) => f.uuid)).toEqual([late100, late45, fresh]);
    expect(s.facturas[1]).toMatchObject({
      fecha: ago(73),
      vencimiento: ago(43),
      total: 2000,
      pagado: 500,
      saldo: 1500,
      dias_vencido: 43,
      antiguedad: '31-60',
    });
    expect(
      s.facturas[1].aplicaciones.map((a: { tipo: string; importe: number }) => [a.tipo, a.importe]),
    ).toEqual([
      ['E', 200],
      ['P', 300],
    ]);
    expect(s.facturas[2]).toMatchObject({ dias_vencido: 0, antiguedad: '0-30' });
    // Each invoice carries the SAT's verification page of its CFDI (decision 0133).
    expect(s.facturas[2].verificacion_sat).toMatch(
      new RegExp(`^https://verificacfdi\\.facturaelectronica\\.sat\\.gob\\.mx/default\\.aspx\\?id=${fresh}&`),
    );
    // Approvers of the client read it too; the distributor names the client.
    expect((await (await w.login(w.approver)).get('/api/estado-cuenta')).json().saldo).toBe(3000);
    expect((await admin.get(`/api/estado-cuenta?cliente=${w.client.id}`)).json().saldo).toBe(3000);
    expect((await admin.get('/api/estado-cuenta')).statusCode).toBe(400);

    const csv = await admin5.get('/api/estado-cuenta/descarga?formato=csv');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['content-disposition']).toContain(`estado-de-cuenta-${w.client.id}-${TODAY}.csv`);
    expect(csv.body).toContain('Factura,UUID,Pedido,Fecha,Vencimiento,Total,Pagado,Saldo,Días vencida');
    expect(csv.body).toContain(late45);
    expect(csv.body).toMatch(/31–60 días/);
    expect(csv.body).toMatch(/Saldo,,,,,,,3000\.00/);
    const pdf = await admin5.get('/api/estado-cuenta/descarga');
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    // The invoices' table: its header, then each open invoice's cells in the columns' order (the oldest
    // first), the credit note and the payment under the folio they were applied to.
    const { text, pages } = await pdfText(pdf.rawPayload);
    expect(pages).toBe(1);
    const pedido = `#${orderNumber(o.id)}`;
    const money = (centavos: number) => formatCentavos(centavos);
    expect(text).toContain('Factura Pedido Fecha Vence Total Pagado Saldo Días Antigüedad');
    expect(text).toContain(
      `A-101 ${pedido} ${formatIsoDate(ago(130))} ${formatIsoDate(ago(100))} ${money(50_000)} ${money(0)} ${money(50_000)} 100 Más de 90 días`,
    );
    expect(text).toContain(
      `A-101 Nota de crédito NC-101 ${formatIsoDate(TODAY)}: ${money(20_000)}; Pago P-101 ${formatIsoDate(TODAY)}: ${money(30_000)} ` +
        `${pedido} ${formatIsoDate(ago(73))} ${formatIsoDate(ago(43))} ${money(200_000)} ${money(50_000)} ${money(150_000)} 43 31–60 días`,
    );
    expect(text).toContain(
      `A-101 ${pedido} ${formatIsoDate(ago(5))} ${formatIsoDate(ago(-25))} ${money(100_000)} ${money(0)} ${money(100_000)} 0 0–30 días`,
    );
    expect(text).toContain('Página 1 de 1');
  });

  it('the statement a page at a time: 50 open invoices oldest first, the summary and total of all of them, the downloads whole', async () => {
    const w = await world({ limiteCredito: 1_000_000, diasCredito: 30, politicaCredito: 'avisar' });
    const o = await w.order();
    const first = await invoice(o.id, 10_000, ago(200));
    // 120 more open invoices cloned from the registered one (its stored XML), one a day from 120 days ago to
    // yesterday, and a second one 40 days ago, inserted last: the same day's are listed by id.
    const [base] = await db().select().from(invoices).where(eq(invoices.uuid, first));
    if (!base) throw new Error('no invoice');
    const { id: _id, ...row } = base;
    const days = [...Array.from({ length: 120 }, (_, i) => 120 - i), 40];
    const clones = await db()
      .insert(invoices)
      .values(
        days.map((d, i) => ({
          ...row,
          uuid: randomUUID().toUpperCase(),
          folio: `C${i}`,
          fecha: `${ago(d)}T10:00:00`,
          total: 1_000 + i,
          saldo: 1_000 + i,
        })),
      )
      .returning({ uuid: invoices.uuid, fecha: invoices.fecha });
    // Oldest first, ids in insertion order within a day (a stable sort).
    const expected = [first, ...clones.sort((a, b) => a.fecha.localeCompare(b.fecha)).map((c) => c.uuid)];
    // A credit note on an invoice of page 2 (the 76th: 46 days old, $10.74).
    await creditNote(o.id, expected[75]!, 500);
    const c5 = await w.login(w.clientAdmin);
    const pages = [];
    for (const page of [1, 2, 3, 4]) {
      const res = await c5.get(`/api/estado-cuenta?page=${page}`);
      expect(res.statusCode, res.body).toBe(200);
      pages.push(res.json());
    }
    const uuids = (p: { facturas: { uuid: string }[] }) => p.facturas.map((f) => f.uuid);
    expect(uuids(pages[0])).toEqual(expected.slice(0, 50));
    expect(uuids(pages[1])).toEqual(expected.slice(50, 100));
    expect(uuids(pages[2])).toEqual(expected.slice(100));
    expect(pages[2].facturas).toHaveLength(22);
    // Past the last page: no invoices, the same total and summary (as the other paged lists).
    expect(pages[3].facturas).toEqual([]);
    for (const [i, p] of pages.entries())
      expect(p, `page ${i + 1}`).toMatchObject({ total: 122, page: i + 1, per_page: STATEMENT_PER_PAGE });
    expect(pages[1].facturas[25]).toMatchObject({
      fecha: ago(46),
      vencimiento: ago(16),
      dias_vencido: 16,
      antiguedad: '0-30',
      total: 10.74,
      pagado: 5,
      saldo: 5.74,
    });
    expect(pages[1].facturas[25].aplicaciones.map((a: { tipo: string; importe: number }) => a)).toMatchObject(
      [{ tipo: 'E', importe: 5 }],
    );
    expect(
      pages[1].facturas.filter((f: { aplicaciones: unknown[] }) => f.aplicaciones.length > 0),
    ).toHaveLength(1);
    // The summary is the whole client's on every page: a recount of every invoice, one by one.
    const all = pages.flatMap((p) => p.facturas) as { fecha: string; saldo: number; vencimiento: string }[];
    const cents = (x: number) => Math.round(x * 100);
    const recount = { saldo: 0, vencido: 0, b: { '0-30': 0, '31-60': 0, '61-90': 0, '90+': 0 } };
    for (const f of all) {
      const late = Math.max(0, Math.round((Date.parse(TODAY) - Date.parse(f.vencimiento)) / 86_400_000));
      recount.saldo += cents(f.saldo);
      if (late > 0) recount.vencido += cents(f.saldo);
      recount.b[late <= 30 ? '0-30' : late <= 60 ? '31-60' : late <= 90 ? '61-90' : '90+'] += cents(f.saldo);
    }
    expect(recount.saldo).toBe(10_000 + days.reduce((a, _, i) => a + 1_000 + i, 0) - 500);
    for (const p of pages) {
      expect(cents(p.saldo)).toBe(recount.saldo);
      expect(cents(p.vencido)).toBe(recount.vencido);
      expect(cents(p.disponible)).toBe(1_000_000 - recount.saldo);
      for (const k of ['0-30', '31-60', '61-90', '90+'] as const)
        expect(cents(p.antiguedad[k]), k).toBe(recount.b[k]);
    }
    expect(recount.b['90+']).toBeGreaterThan(0);
    // The distributor pages the same client's; a bad page is refused in Spanish, as the other lists' are.
    const admin2 = await admin.get(`/api/estado-cuenta?cliente=${w.client.id}&page=2`);
    expect(uuids(admin2.json())).toEqual(expected.slice(50, 100));
    for (const bad of ['0', '-1', 'dos', '1.5']) {
      const res = await c5.get(`/api/estado-cuenta?page=${bad}`);
      expect(res.statusCode, bad).toBe(400);
      const aging = await admin.get(`/api/credito/clientes?page=${bad}`);
      expect(res.json().msg, bad).toBe(aging.json().msg);
      expect(res.json().msg, bad).toMatch(/se esperaba|no son válidos/);
    }
    // The downloads are the whole document: every open invoice.
    const csv = await c5.get('/api/estado-cuenta/descarga?formato=csv&page=2');
    expect(csv.statusCode, csv.body).toBe(200);
    for (const uuid of expected) expect(csv.body).toContain(uuid);
    expect(csv.body).toContain('Nota de crédito NC-101');
  });

  it('tenancy: another client’s id answers 404 like a missing one; rol 1 is refused; the aging is rol 4’s', async () => {
    const a = await world();
    const b = await world();
    const a5 = await a.login(a.clientAdmin);
    const other = await a5.get(`/api/estado-cuenta?cliente=${b.client.id}`);
    const missing = await a5.get('/api/estado-cuenta?cliente=999999999');
    expect(other.statusCode).toBe(404);
    expect(missing.statusCode).toBe(404);
    expect(other.json()).toEqual(missing.json());
    expect((await a5.get(`/api/estado-cuenta/descarga?cliente=${b.client.id}&formato=csv`)).statusCode).toBe(
      404,
    );
    expect((await a5.get(`/api/estado-cuenta?cliente=${a.client.id}`)).statusCode).toBe(200);
    expect((await (await a.login(a.buyer)).get('/api/estado-cuenta')).statusCode).toBe(403);
    expect((await a5.get('/api/credito/clientes')).statusCode).toBe(403);
    expect((await admin.get('/api/estado-cuenta?cliente=999999999')).statusCode).toBe(404);
  });

  it('property: after random invoices, credit notes and payments the statement and the aging equal a recount', async () => {
    for (const seed of [11, 29]) {
      const rnd = generator(seed);
      const dias = rnd.pick([0, 15, 30, 60]);
      const limite = rnd.pick([null, 300_000, 1_000_000]);
      const w = await world({ limiteCredito: limite, diasCredito: dias, politicaCredito: 'avisar' });
      const o = await w.order();
      const model = new Map<string, { fecha: string; saldo: number }>();
      for (let step = 0; step < 14; step++) {
        const open = [...model.entries()].filter(([, v]) => v.saldo > 0);
        const action = open.length === 0 ? 0 : rnd.int(3);
        if (action === 0) {
          const day = ago(rnd.int(200));
          const total = 1_000 + rnd.int(200_000);
          model.set(await invoice(o.id, total, day), { fecha: day, saldo: total });
        } else {
          const [uuid, inv] = rnd.pick(open);
          const importe = rnd.next() < 0.3 ? inv.saldo : 1 + rnd.int(inv.saldo);
          if (action === 1) await creditNote(o.id, uuid, importe);
          else await payment(o.id, uuid, inv.saldo, importe);
          inv.saldo -= importe;
        }
      }
      // The recount: straight from the model, bucket by bucket.
      const recount = { saldo: 0, vencido: 0, b: { '0-30': 0, '31-60': 0, '61-90': 0, '90+': 0 } };
      for (const inv of model.values()) {
        if (inv.saldo === 0) continue;
        const due = Date.parse(`${dueDate(inv.fecha, dias)}T00:00:00Z`);
        const late = Math.max(0, Math.round((Date.parse(`${TODAY}T00:00:00Z`) - due) / 86_400_000));
        recount.saldo += inv.saldo;
        if (late > 0) recount.vencido += inv.saldo;
        const key = late <= 30 ? '0-30' : late <= 60 ? '31-60' : late <= 90 ? '61-90' : '90+';
        recount.b[key] += inv.saldo;
      }
      const sum = (
        await db().select({ s: invoices.saldo }).from(invoices).where(eq(invoices.idCliente, w.client.id))
      )
        .map((r) => r.s ?? 0)
        .reduce((a, b) => a + b, 0);
      expect(sum, `seed ${seed}`).toBe(recount.saldo);
      const s = (await admin.get(`/api/estado-cuenta?cliente=${w.client.id}`)).json();
      const c = (x: number) => Math.round(x * 100);
      expect(c(s.saldo), `seed ${seed}`).toBe(recount.saldo);
      expect(c(s.vencido), `seed ${seed}`).toBe(recount.vencido);
      for (const k of ['0-30', '31-60', '61-90', '90+'] as const)
        expect(c(s.antiguedad[k]), `seed ${seed} ${k}`).toBe(recount.b[k]);
      expect(s.disponible === null ? null : c(s.disponible)).toBe(
        limite === null ? null : limite - recount.saldo,
      );
      expect(
        s.facturas.reduce((a: number, f: { saldo: number }) => a + c(f.saldo), 0),
        `seed ${seed}`,
      ).toBe(recount.saldo);
      const aging = (
        await admin.get(`/api/credito/clientes?q=${encodeURIComponent(w.client.nombre)}`)
      ).json();
      const row = aging.clientes.find((r: { id: number }) => r.id === w.client.id);
      expect(c(row.saldo)).toBe(recount.saldo);
      expect(c(row.vencido)).toBe(recount.vencido);
      expect(row.antiguedad).toEqual(s.antiguedad);
    }
    expect(await openInvoiceDayDrift(db())).toEqual([]);
  });

  it('the kept days of open invoices follow every write: many at once, payments racing on one day, a moved date, a deletion', async () => {
    const w = await world({ politicaCredito: 'avisar' });
    const o = await w.order();
    const kept = async () =>
      (
        (await db().execute(
          sql`select fecha, saldo::text, facturas from client_open_invoice_days where id_cliente = ${w.client.id} order by fecha`,
        )) as unknown as { rows: { fecha: string; saldo: string; facturas: number }[] }
      ).rows.map((r) => [r.fecha, Number(r.saldo), r.facturas]);
    // Six invoices over two days, then six payments at once: three close theirs, three leave a saldo.
    const day1 = ago(40);
    const day2 = ago(3);
    const uuids: string[] = [];
    for (let i = 0; i < 6; i++) uuids.push(await invoice(o.id, 10_000, i < 3 ? day1 : day2));
    expect(await kept()).toEqual([
      [day1, 30_000, 3],
      [day2, 30_000, 3],
    ]);
    await Promise.all(uuids.map((u, i) => payment(o.id, u, 10_000, i % 2 === 0 ? 10_000 : 2_500)));
    // Day 1: invoices 0 and 2 paid, 1 left with 7,500; day 2: invoice 4 paid, 3 and 5 left with 7,500 each.
    expect(await kept()).toEqual([
      [day1, 7_500, 1],
      [day2, 15_000, 2],
    ]);
    // A statement that writes many rows moves each day once (the bench's seed writes this way); a date or a
    // client moved straight in the table moves its day; a deleted invoice leaves it.
    await db().execute(
      sql`update invoices set fecha = ${ago(100)} || substr(fecha, 11) where id_cliente = ${w.client.id} and left(fecha, 10) = ${day2}`,
    );
    expect(await kept()).toEqual([
      [ago(100), 15_000, 2],
      [day1, 7_500, 1],
    ]);
    await invoice(o.id, 4_000, ago(7));
    expect(await kept()).toEqual([
      [ago(100), 15_000, 2],
      [day1, 7_500, 1],
      [ago(7), 4_000, 1],
    ]);
    await db().execute(
      sql`delete from invoices where id_cliente = ${w.client.id} and left(fecha, 10) = ${ago(7)}`,
    );
    expect(await kept()).toEqual([
      [ago(100), 15_000, 2],
      [day1, 7_500, 1],
    ]);
    expect(await openInvoiceDayDrift(db())).toEqual([]);
    // The statement reads the kept days: its balance is theirs.
    const s = (await admin.get(`/api/estado-cuenta?cliente=${w.client.id}`)).json();
    expect(Math.round(s.saldo * 100)).toBe(22_500);
  });

  it('the distributor’s aging: every client by name, paginated, with held orders and only those with a balance when asked', async () => {
    const w = await world({
      limiteCredito: 0,
      politicaCredito: 'retener',
      nombre: `AAA Crédito ${uniq('x')}`,
    });
    const p = await w.order('pendiente');
    expect((await w.approve(p.id)).statusCode).toBe(200);
    const res = await admin.get(`/api/credito/clientes?q=${encodeURIComponent(w.client.nombre)}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ total: 1, page: 1, per_page: 25 });
    expect(res.json().clientes[0]).toMatchObject({
      id: w.client.id,
      saldo: 0,
      limite_credito: 0,
      politica_credito: 'retener',
      pedidos_retenidos: 1,
    });
    // The client's statement counts the same held order, with no open invoice to list.
    const statement = await admin.get(`/api/estado-cuenta?cliente=${w.client.id}`);
    expect(statement.statusCode, statement.body).toBe(200);
    expect(statement.json()).toMatchObject({ pedidos_retenidos: 1, facturas: [], total: 0, saldo: 0 });
    const withBalance = await admin.get(
      `/api/credito/clientes?con_saldo=si&q=${encodeURIComponent(w.client.nombre)}`,
    );
    expect(withBalance.json().total).toBe(0);
    const all = await admin.get('/api/credito/clientes?page=1');
    expect(all.json().clientes.length).toBeLessThanOrEqual(25);
    expect((await admin.get('/api/credito/clientes?page=0')).statusCode).toBe(400);
  });
});
