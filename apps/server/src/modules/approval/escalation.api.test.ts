/**
 * Escalation (issue 43, item 3; decision 0113): an order that waits on its level longer than its client's
 * `escalar_horas` escalates once per wait — an order event, a log entry and an e-mail to the next person —
 * and the approvers' list flags it ('Esperando 26 h'). The job runs at a chosen instant (`runEscalations`
 * takes the clock's now), twice and two at once.
 */
import { businessDate } from '@portal/shared/domain/time';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, delegations, emailOutbox, orderEvents, systemLogs, users } from '../../db/schema/index.ts';
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
import { ESCALATION_CRON, ESCALATION_QUEUE, runEscalations } from './escalation.service.ts';

const HOUR = 3_600_000;

describe.each(DB_KINDS)('escalation (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });
  const db = () => t.database.db;
  const run = (now: Date) =>
    runEscalations({ db: db(), publicUrl: 'http://portal.test', tz: 'America/Mexico_City' }, now);

  /** A two-level client escalating after `horas`, with a buyer, two rol 2 and one rol 3; one product. */
  async function world(horas = 24) {
    const tag = uniq('es');
    const client = await makeClient(db(), {
      cantidadAutorizadores: 2,
      escalarHoras: horas,
      recordatorioHoras: 0,
    });
    const category = await makeCategory(db(), client.id, 'Papelería');
    const person = (rol: number, name: string) =>
      makeUser(db(), { rol, idCliente: client.id, email: `${tag}-${name}@example.test`, nombre: name });
    const buyer = await makeUser(db(), { rol: 1, idCliente: client.id, nombre: 'Beto Comprador' });
    const ana = await person(2, 'ana');
    const luis = await person(2, 'luis');
    const sofia = await person(3, 'sofia');
    const product = await makeProduct(db(), {
      idCliente: client.id,
      idCategoria: category.id,
      precio: 10000,
    });
    /** An order placed `hoursAgo` before `at`; at level 2 since then when `status` is espera. */
    const order = async (hoursAgo: number, at: Date, status: 'pendiente' | 'espera' = 'pendiente') => {
      const placed = new Date(at.getTime() - hoursAgo * HOUR);
      const o = await makeOrder(db(), {
        idUser: buyer.id,
        idCliente: client.id,
        status,
        transactionDate: placed,
        lines: [{ productId: product.id, precio: 10000, cantidad: 1, idCategoria: category.id }],
      });
      if (status === 'espera')
        await db().insert(orderEvents).values({
          orderId: o.id,
          actorId: ana.id,
          tipo: 'aprobado',
          fromStatus: 'pendiente',
          toStatus: 'espera',
          createdAt: placed,
        });
      return o;
    };
    return { tag, client, buyer, ana, luis, sofia, product, order };
  }

  const escalations = (ids: number[]) =>
    db()
      .select()
      .from(orderEvents)
      .where(and(inArray(orderEvents.orderId, ids), eq(orderEvents.tipo, 'escalado')));
  const mailsOf = async (id: number) =>
    (
      await db()
        .select({ to: emailOutbox.to, text: emailOutbox.text })
        .from(emailOutbox)
        .where(eq(emailOutbox.subject, `Pedido #${String(id).padStart(5, '0')}: lleva 30 h esperando`))
    ).sort((a, b) => a.to.localeCompare(b.to));

  it('escalates each wait once, at its level, and only past the client hours', async () => {
    const now = new Date();
    const w = await world(24);
    const waiting = await w.order(30, now);
    const recent = await w.order(10, now);
    const atTwo = await w.order(30, now, 'espera');
    const off = await world(0);
    const never = await off.order(300, now);

    expect(await run(now)).toBeGreaterThanOrEqual(2);
    const events = await escalations([waiting.id, recent.id, atTwo.id, never.id]);
    expect(events.map((e) => [e.orderId, e.fromStatus, e.toStatus, e.actorId]).sort()).toEqual(
      [
        [waiting.id, 'pendiente', null, null],
        [atTwo.id, 'espera', null, null],
      ].sort(),
    );
    expect(events.find((e) => e.orderId === waiting.id)!.changes).toMatchObject({
      horas: 30,
      avisados: [w.ana.id, w.luis.id],
      administradores: false,
    });
    // Level 1 hears of the pendiente order, level 2 of the espera one, with the wait and a link.
    const toLevelOne = await mailsOf(waiting.id);
    expect(toLevelOne.map((m) => m.to)).toEqual([w.ana.email, w.luis.email]);
    expect(toLevelOne[0]!.text).toContain('espera la revisión del Autorizador');
    expect(toLevelOne[0]!.text).toContain('Su cliente pide avisar cuando un pedido espera más de 24 h.');
    expect(toLevelOne[0]!.text).toContain(`/autorizador/orden/${waiting.id}`);
    expect((await mailsOf(atTwo.id)).map((m) => m.to)).toEqual([w.sofia.email]);
    const logs = await db().select().from(systemLogs).where(eq(systemLogs.eventType, 'pedido_escalado'));
    expect(logs.filter((l) => l.idPedido === waiting.id)).toHaveLength(1);

    // Run again, and twice at once: nothing new.
    await run(new Date(now.getTime() + HOUR));
    await Promise.all([run(now), run(now)]);
    expect(await escalations([waiting.id, atTwo.id])).toHaveLength(2);
    expect(await mailsOf(waiting.id)).toHaveLength(2);
  });

  it('two at once on a new wait escalate it once; a new level is a new wait', async () => {
    const now = new Date();
    const w = await world(24);
    const o = await w.order(30, now);
    const counts = await Promise.all([run(now), run(now), run(now)]);
    expect(counts.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1);
    expect(await escalations([o.id])).toHaveLength(1);

    // Level 1 approves it (through the API: the real transition); 25 h later level 2 has waited too long.
    const r2 = await new ApiClient(t.app).loginOk(w.ana.usuario, TEST_PASSWORD);
    const approved = await r2.post('/api/update/compra', {
      id: o.id,
      orden: [{ id: w.product.id, cantidad: 1 }],
    });
    expect(approved.json(), approved.body).toMatchObject({ nuevo_estatus: 'espera' });
    await run(new Date(Date.now() + 25 * HOUR));
    const events = await escalations([o.id]);
    expect(events.map((e) => e.fromStatus)).toEqual(['pendiente', 'espera']);
  });

  it("today's stand-in hears first; with nobody at the level, the portal's administrators", async () => {
    const now = new Date();
    const w = await world(24);
    const delegate = await makeUser(db(), {
      rol: 2,
      idCliente: w.client.id,
      email: `${w.tag}-suplente@example.test`,
    });
    const today = businessDate(now, 'America/Mexico_City');
    await db()
      .insert(delegations)
      .values({ delegatorId: w.ana.id, delegateId: delegate.id, desde: today, hasta: today });
    const o = await w.order(30, now);
    await run(now);
    expect((await mailsOf(o.id)).map((m) => m.to)).toEqual([delegate.email]);

    await db().update(users).set({ activo: false }).where(eq(users.id, w.sofia.id));
    const operator = await makeUser(db(), {
      rol: 4,
      idCliente: null,
      email: `${w.tag}-operador@example.test`,
    });
    const atTwo = await w.order(30, now, 'espera');
    await run(now);
    const events = await escalations([atTwo.id]);
    expect(events[0]!.changes).toMatchObject({ administradores: true });
    const admins = await db()
      .select({ email: users.email })
      .from(users)
      .where(and(eq(users.rol, 4), eq(users.activo, true)));
    const mails = await mailsOf(atTwo.id);
    expect(mails.map((m) => m.to).sort()).toEqual(
      admins
        .map((a) => a.email)
        .filter((e) => e.includes('@'))
        .sort(),
    );
    const mine = mails.find((m) => m.to === operator.email);
    expect(mine?.text).toContain(`/administrador/pedidos/${atTwo.id}`);
    expect(mine?.text).toContain('Su cliente no tiene a nadie activo en ese nivel');
  });

  it('the job is scheduled every 15 minutes and the queue runs it with the real clock', async () => {
    const rows = await db().execute(
      sql`select cron, timezone from pgboss.schedule where name = ${ESCALATION_QUEUE}`,
    );
    const list = (Array.isArray(rows) ? rows : (rows as unknown as { rows: unknown[] }).rows) as {
      cron: string;
      timezone: string;
    }[];
    expect(list).toEqual([{ cron: ESCALATION_CRON, timezone: t.config.BUSINESS_TZ }]);
    const w = await world(24);
    const o = await w.order(30, new Date());
    await t.app.jobs.send(ESCALATION_QUEUE, {});
    const deadline = Date.now() + 15_000;
    while ((await escalations([o.id])).length === 0 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    expect(await escalations([o.id])).toHaveLength(1);
  });

  it("the approvers' list flags what waited past the client's hours; the client form keeps the setting", async () => {
    const now = new Date();
    const w = await world(24);
    const old = await w.order(30, now);
    const recent = await w.order(2, now);
    const api = await new ApiClient(t.app).loginOk(w.ana.usuario, TEST_PASSWORD);
    const rows = (await api.get('/api/pedidos?status=todos')).json().pedidos as {
      id: number;
      esperando_horas: number | null;
    }[];
    expect(rows.find((r) => r.id === old.id)!.esperando_horas).toBeGreaterThanOrEqual(30);
    expect(rows.find((r) => r.id === recent.id)!.esperando_horas).toBeNull();

    const off = await world(0);
    const offOrder = await off.order(300, now);
    const offApi = await new ApiClient(t.app).loginOk(off.ana.usuario, TEST_PASSWORD);
    const offRows = (await offApi.get('/api/pedidos?status=todos')).json().pedidos as {
      id: number;
      esperando_horas: number | null;
    }[];
    expect(offRows.find((r) => r.id === offOrder.id)!.esperando_horas).toBeNull();

    // The administrator sets it; out of range is refused in Spanish.
    const { api: admin } = await signedInAdmin(t.app, db());
    const form = (escalar_horas: string) => ({
      id: w.client.id,
      nombre: w.client.nombre,
      color: '#abcdef',
      presupuesto_default: '2000',
      limite_de_compras: '-1',
      cantidad_autorizadores: '2',
      modo_presupuesto: 'regular',
      activo: '1',
      escalar_horas,
    });
    const bad = await postForm(admin, `/api/clientes/update/${w.client.id}`, form('721'));
    expect(bad.statusCode, bad.body).toBe(400);
    expect(bad.json().msg).toBe(MSG.escalarHorasInvalido);
    const ok = await postForm(admin, `/api/clientes/update/${w.client.id}`, form('48'));
    expect(ok.statusCode, ok.body).toBe(200);
    const [saved] = await db().select().from(clients).where(eq(clients.id, w.client.id));
    expect(saved!.escalarHoras).toBe(48);
  });
});
