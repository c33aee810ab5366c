import { monthName } from '@portal/shared/domain/months';
import { businessDate, businessMonth } from '@portal/shared/domain/time';
import { and, eq, like, or } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { budgetAlerts, clients, emailOutbox, userCategoryBudgets } from '../../db/schema/index.ts';
import { MSG } from '../../messages.ts';
import { postForm, signedInAdmin } from '../../test/admin-fixtures.ts';
import { type BuyerOptions, makeBuyer } from '../../test/buyer-fixtures.ts';
import { assign, makeCategory, makeProduct, makeUser, TEST_PASSWORD, uniq } from '../../test/factories.ts';
import { ApiClient, createTestApp, DB_KINDS, type TestApp } from '../../test/harness.ts';
import { startSmtp } from '../../test/smtp.ts';
import { sendBudgetAlerts } from './budget-alerts.ts';

describe.each(DB_KINDS)('budget alerts (%s)', (kind) => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp(kind, { env: { SMTP_URL: smtp.url } });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });
  const db = () => t.database.db;
  const mes = () => monthName(businessMonth(new Date(), t.config.BUSINESS_TZ).key);

  /** Alert e-mails in the outbox for an address (written with the change, before delivery). */
  const alertMails = (to: string) =>
    db()
      .select({ subject: emailOutbox.subject, text: emailOutbox.text })
      .from(emailOutbox)
      .where(
        and(
          eq(emailOutbox.to, to),
          or(like(emailOutbox.subject, 'Has usado%'), like(emailOutbox.subject, '%de su presupuesto%')),
        ),
      );
  const alertRows = (userId: number) =>
    db()
      .select({ umbral: budgetAlerts.umbral, categoryId: budgetAlerts.categoryId, mes: budgetAlerts.mes })
      .from(budgetAlerts)
      .where(eq(budgetAlerts.userId, userId))
      .orderBy(budgetAlerts.umbral);

  /** A buyer (budget $1,000.00 unless told) of a one-level client with a $100.00 untaxed product. */
  async function world(opts: BuyerOptions & { alertas?: number[]; avisar?: boolean } = {}) {
    const b = await makeBuyer(t, {
      presupuesto: 100_000,
      ...opts,
      client: {
        cantidadAutorizadores: 1,
        ...(opts.alertas ? { alertasPresupuesto: opts.alertas } : {}),
        avisarAutorizadores: opts.avisar ?? false,
        ...opts.client,
      },
    });
    const p = await b.product(10_000, { nombre: 'Silla' });
    await assign(db(), b.user.id, p.id, 50);
    /** Adds n units and buys the cart. */
    const buy = async (n: number, product = p, api = b.api) => {
      const add = await api.post('/api/carrito/nuevo_item', { item: { id: product.id, cantidad: n } });
      expect(add.statusCode, add.body).toBe(200);
      const res = await api.post('/api/compra', {
        orden: [{ id: product.id, cantidad: n }],
        fecha: businessDate(new Date()),
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().pedido.id as number;
    };
    const reviewer = await makeUser(db(), { rol: 2, idCliente: b.client.id, nombre: 'Rita Revisora' });
    const authorizer = await new ApiClient(t.app, '10.0.0.7').loginOk(reviewer.usuario, TEST_PASSWORD);
    return { ...b, p, buy, reviewer, authorizer };
  }

  it('each threshold once, the first time it is reached; the e-mail in the real SMTP sink', async () => {
    const w = await world({ alertas: [50, 80, 100] });
    await w.buy(4); // 40%
    expect(await alertRows(w.user.id)).toEqual([]);
    await w.buy(1); // 50%
    expect((await alertRows(w.user.id)).map((r) => r.umbral)).toEqual([50]);
    await w.buy(2); // 70%: nothing new
    await w.buy(1); // 80%
    await w.buy(1); // 90%: nothing new
    await w.buy(1); // 100%
    const rows = await alertRows(w.user.id);
    expect(rows.map((r) => r.umbral)).toEqual([50, 80, 100]);
    expect(rows.every((r) => r.categoryId === null)).toBe(true);
    expect(rows[0]!.mes).toBe(businessMonth(new Date(), t.config.BUSINESS_TZ).key);
    const mails = await alertMails(w.user.email);
    expect(mails.map((m) => m.subject).sort()).toEqual(
      [
        MSG.presupuestoUsado(50, mes()),
        MSG.presupuestoUsado(80, mes()),
        MSG.presupuestoUsado(100, mes()),
      ].sort(),
    );
    // Approvers are not told unless the client asks for it.
    expect(await alertMails(w.reviewer.email)).toHaveLength(0);

    await t.app.mailer.flush();
    const mail = await smtp.waitFor(
      (m) => m.to.includes(w.user.email) && m.subject === MSG.presupuestoUsado(80, mes()),
    );
    expect(mail.subject).toMatch(/^Has usado el 80% de tu presupuesto de [a-z]+$/);
    expect(mail.text).toContain(MSG.avisoPresupuestoCifras('$800.00 MXN', '$1,000.00 MXN'));
    expect(mail.text).toContain(MSG.avisoPresupuestoUmbral(80));
    expect(mail.text).toContain('http://portal.test/usuario/principal');
  });

  it('two thresholds in one purchase: both rows, one e-mail naming the highest', async () => {
    const w = await world();
    await w.buy(10); // 0% → 100%
    expect((await alertRows(w.user.id)).map((r) => r.umbral)).toEqual([80, 100]);
    const mails = await alertMails(w.user.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe(MSG.presupuestoUsado(100, mes()));
    const mail = await smtp.waitFor((m) => m.to.includes(w.user.email));
    expect(mail.text).toContain(MSG.avisoPresupuestoUmbral(100));
  });

  it('concurrency: 20 simultaneous purchases of one cart that crosses 80% make one order, one row, one e-mail', async () => {
    const w = await world();
    await w.api.post('/api/carrito/nuevo_item', { item: { id: w.p.id, cantidad: 9 } });
    const body = { orden: [{ id: w.p.id, cantidad: 9 }], fecha: businessDate(new Date()) };
    const results = await Promise.all(Array.from({ length: 20 }, () => w.api.post('/api/compra', body)));
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(1);
    expect((await alertRows(w.user.id)).map((r) => r.umbral)).toEqual([80]);
    expect(await alertMails(w.user.email)).toHaveLength(1);
  });

  it('concurrency: the check run by several transactions at once (two instances, retries) claims once', async () => {
    const w = await world({ alertas: [80] });
    await w.order([[w.p, 9]], 'pendiente', true); // 90%, written directly: no check ran yet
    const config = { publicUrl: t.config.PUBLIC_URL, tz: t.config.BUSINESS_TZ, now: new Date() };
    await Promise.all(
      Array.from({ length: 8 }, () =>
        db().transaction((tx) => sendBudgetAlerts(tx, config, w.user.id, new Date())),
      ),
    );
    expect((await alertRows(w.user.id)).map((r) => r.umbral)).toEqual([80]);
    expect(await alertMails(w.user.email)).toHaveLength(1);
  });

  it('falling below after a cancellation or a withdrawal and crossing again does not re-send', async () => {
    const w = await world({ alertas: [80] });
    const first = await w.buy(8); // 80%
    expect(await alertMails(w.user.email)).toHaveLength(1);
    const cancel = await w.authorizer.post(`/api/cancelar/compra/${first}`, { motivo: 'No procede' });
    expect(cancel.statusCode, cancel.body).toBe(200);
    const second = await w.buy(8); // 80% again
    const withdraw = await w.api.post(`/api/historial/${second}/retirar`);
    expect(withdraw.statusCode, withdraw.body).toBe(200);
    await w.buy(9); // 90%
    expect((await alertRows(w.user.id)).map((r) => r.umbral)).toEqual([80]);
    expect(await alertMails(w.user.email)).toHaveLength(1);
  });

  it('a change to an order of a closed month never alerts', async () => {
    const w = await world({ alertas: [80] });
    // Two months ago (the fixture's default): 90% of that month, then one of its orders is cancelled.
    await w.order([[w.p, 5]], 'aprobado');
    const old = await w.order([[w.p, 4]], 'pendiente');
    const cancel = await w.authorizer.post(`/api/cancelar/compra/${old.id}`, {});
    expect(cancel.statusCode, cancel.body).toBe(200);
    // Another order of that month raised by its approval: 50% + 40% = 90%.
    const raised = await w.order([[w.p, 3]], 'pendiente');
    const approve = await w.authorizer.post('/api/update/compra', {
      id: raised.id,
      orden: [{ id: w.p.id, cantidad: 4 }],
    });
    expect(approve.statusCode, approve.body).toBe(200);
    expect(await alertRows(w.user.id)).toEqual([]);
    expect(await alertMails(w.user.email)).toHaveLength(0);
  });

  it('an approval that raises quantities crosses a threshold: the alert goes with it', async () => {
    const w = await world({ alertas: [80] });
    const id = await w.buy(5); // 50%
    expect(await alertRows(w.user.id)).toEqual([]);
    const res = await w.authorizer.post('/api/update/compra', {
      id,
      orden: [{ id: w.p.id, cantidad: 8 }],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await alertRows(w.user.id)).map((r) => r.umbral)).toEqual([80]);
    expect((await alertMails(w.user.email)).map((m) => m.subject)).toEqual([MSG.presupuestoUsado(80, mes())]);
  });

  it('category mode: per category, named in the e-mail; a category without budget never alerts', async () => {
    const w = await world({ client: { modoPresupuesto: 'categoria' } });
    const otra = await makeCategory(db(), w.client.id, 'Limpieza');
    const sinPresupuesto = await makeCategory(db(), w.client.id, 'Cafetería');
    await db()
      .insert(userCategoryBudgets)
      .values([
        { userId: w.user.id, categoryId: w.category.id, presupuesto: 100_000 },
        { userId: w.user.id, categoryId: otra.id, presupuesto: 100_000 },
        { userId: w.user.id, categoryId: sinPresupuesto.id, presupuesto: 0 },
      ]);
    const jabon = await makeProduct(db(), {
      idCliente: w.client.id,
      idCategoria: otra.id,
      precio: 10_000,
      impuesto: false,
    });
    await assign(db(), w.user.id, jabon.id, 50);
    await w.buy(8); // Papelería 80%
    await w.buy(5, jabon); // Limpieza 50%: nothing
    const rows = await alertRows(w.user.id);
    expect(rows).toEqual([expect.objectContaining({ umbral: 80, categoryId: w.category.id })]);
    const mails = await alertMails(w.user.email);
    expect(mails.map((m) => m.subject)).toEqual([MSG.presupuestoUsado(80, mes(), 'Papelería')]);
    const mail = await smtp.waitFor((m) => m.to.includes(w.user.email));
    expect(mail.subject).toBe(MSG.presupuestoUsado(80, mes(), 'Papelería'));
    expect(mail.text).toContain(`http://portal.test/usuario/categoria/${w.category.id}`);
    await w.buy(3, jabon); // Limpieza 80%
    expect((await alertRows(w.user.id)).map((r) => [r.categoryId, r.umbral])).toEqual([
      [w.category.id, 80],
      [otra.id, 80],
    ]);
    // An order in the category without budget (written directly) never alerts.
    const cafe = await makeProduct(db(), {
      idCliente: w.client.id,
      idCategoria: sinPresupuesto.id,
      precio: 10_000,
      impuesto: false,
    });
    await w.order([[cafe, 3]], 'aprobado', true);
    await db().transaction((tx) =>
      sendBudgetAlerts(
        tx,
        { publicUrl: t.config.PUBLIC_URL, tz: t.config.BUSINESS_TZ, now: new Date() },
        w.user.id,
        new Date(),
      ),
    );
    expect(await alertRows(w.user.id)).toHaveLength(2);
  });

  it('with avisar_autorizadores the active rol-2 approvers of the client are told too', async () => {
    const w = await world({ avisar: true, alertas: [80] });
    const inactive = await makeUser(db(), { rol: 2, idCliente: w.client.id, activo: false });
    const rol3 = await makeUser(db(), { rol: 3, idCliente: w.client.id });
    const other = await world({ avisar: true });
    await w.buy(8);
    expect(await alertMails(w.user.email)).toHaveLength(1);
    const told = await alertMails(w.reviewer.email);
    expect(told.map((m) => m.subject)).toEqual([MSG.presupuestoUsadoPor(w.user.nombre, 80, mes())]);
    // The reviewer also gets the order's review e-mail, which may arrive first: the alert is the one read.
    const alert = MSG.presupuestoUsadoPor(w.user.nombre, 80, mes());
    const mail = await smtp.waitFor((m) => m.to.includes(w.reviewer.email) && m.subject === alert);
    expect(mail.text).toContain('http://portal.test/autorizador/principal?estatus=todos&q=');
    expect(await alertMails(inactive.email)).toHaveLength(0);
    expect(await alertMails(rol3.email)).toHaveLength(0);
    expect(await alertMails(other.reviewer.email)).toHaveLength(0);
  });

  it('the buyer’s budget answers carry the thresholds and the month', async () => {
    const w = await world({ alertas: [60, 90] });
    const session = (await w.api.get('/api/sesion')).json();
    expect(session.comprador.presupuesto).toMatchObject({
      alertas_presupuesto: [60, 90],
      mes: businessMonth(new Date(), t.config.BUSINESS_TZ).key,
    });
  });

  it('the client form saves the thresholds (sorted, without repeats) and the switch; refuses bad ones', async () => {
    const admin = (await signedInAdmin(t.app, db())).api;
    const base = (extra: Record<string, string>) => ({
      nombre: uniq('Avisos'),
      presupuesto_default: '1000',
      limite_de_compras: '-1',
      ...extra,
    });
    const plain = await postForm(admin, '/api/clientes', base({}));
    expect(plain.statusCode, plain.body).toBe(201);
    expect(plain.json().cliente).toMatchObject({
      alertas_presupuesto: [80, 100],
      avisar_autorizadores: false,
    });
    const created = await postForm(
      admin,
      '/api/clientes',
      base({ alertas_presupuesto: '100, 50, 50', avisar_autorizadores: '1' }),
    );
    expect(created.statusCode, created.body).toBe(201);
    const cliente = created.json().cliente;
    expect(cliente).toMatchObject({ alertas_presupuesto: [50, 100], avisar_autorizadores: true });
    const update = (extra: Record<string, string>) =>
      postForm(admin, `/api/clientes/update/${cliente.id}`, {
        nombre: cliente.nombre,
        presupuesto_default: '1000',
        limite_de_compras: '-1',
        ...extra,
      });
    const kept = await update({});
    expect(kept.json().cliente).toMatchObject({ alertas_presupuesto: [50, 100], avisar_autorizadores: true });
    const changed = await update({ alertas_presupuesto: '75', avisar_autorizadores: '0' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().cliente).toMatchObject({ alertas_presupuesto: [75], avisar_autorizadores: false });
    const [row] = await db().select().from(clients).where(eq(clients.id, cliente.id));
    expect(row!.alertasPresupuesto).toEqual([75]);

    const refusals: [string, string][] = [
      ['0', MSG.alertasPresupuestoInvalido],
      ['101', MSG.alertasPresupuestoInvalido],
      ['80.5', MSG.alertasPresupuestoInvalido],
      ['80, mucho', MSG.alertasPresupuestoInvalido],
      ['10, 20, 30, 40', MSG.alertasPresupuestoCantidad],
    ];
    for (const [value, msg] of refusals) {
      const res = await postForm(admin, '/api/clientes', base({ alertas_presupuesto: value }));
      expect(res.statusCode, value).toBe(400);
      expect(res.json().msg, value).toBe(msg);
      expect(res.json().errors?.alertas_presupuesto, value).toBe(msg);
      const upd = await update({ alertas_presupuesto: value });
      expect(upd.statusCode, value).toBe(400);
    }
    const bad = await update({ avisar_autorizadores: 'quizá' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().msg).toBe(MSG.valorSiNoInvalido);
  });
});
