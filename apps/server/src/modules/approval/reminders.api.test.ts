import { and, eq, like, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { PgBoss } from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { type Database, openDatabase } from '../../db/client.ts';
import { approvalReminders, emailOutbox, orderEvents, users } from '../../db/schema/index.ts';
import { MSG } from '../../messages.ts';
import { postForm, signedInAdmin } from '../../test/admin-fixtures.ts';
import { makeCategory, makeClient, makeOrder, makeProduct, makeUser, uniq } from '../../test/factories.ts';
import { createTestApp, DB_KINDS, type TestApp } from '../../test/harness.ts';
import { startSmtp } from '../../test/smtp.ts';
import { isBusinessWeekday, REMINDER_CRON, REMINDER_QUEUE, runReminders } from './reminders.service.ts';

const HOUR = 3_600_000;
/** Monday 23 November 2026, 09:00 in Mexico City (UTC-6). */
const MONDAY = new Date('2026-11-23T15:00:00Z');
const TUESDAY = new Date(MONDAY.getTime() + 24 * HOUR);
const SATURDAY = new Date(MONDAY.getTime() + 5 * 24 * HOUR);

describe.each(DB_KINDS)('approval reminders (%s)', (kind) => {
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
  const deps = () => ({ db: db(), publicUrl: t.config.PUBLIC_URL, tz: t.config.BUSINESS_TZ });

  /** A client with a buyer, two active rol 2, an inactive rol 2 and a rol 3, and one product. */
  async function world(opts: { levels?: number; horas?: number; activo?: boolean } = {}) {
    const tag = uniq('r');
    const client = await makeClient(db(), {
      cantidadAutorizadores: opts.levels ?? 2,
      limiteDeCompras: -1,
      ...(opts.horas === undefined ? {} : { recordatorioHoras: opts.horas }),
      activo: opts.activo ?? true,
    });
    const category = await makeCategory(db(), client.id, 'Papelería');
    const buyer = await makeUser(db(), { rol: 1, idCliente: client.id, nombre: 'Beto Comprador' });
    const mk = (rol: number, name: string, activo = true) =>
      makeUser(db(), {
        rol,
        idCliente: client.id,
        activo,
        nombre: name,
        email: `${tag}-${name}@example.test`,
      });
    const ana = await mk(2, 'ana');
    const luis = await mk(2, 'luis');
    const baja = await mk(2, 'baja', false);
    const sofia = await mk(3, 'sofia');
    const product = await makeProduct(db(), {
      idCliente: client.id,
      idCategoria: category.id,
      precio: 10000,
      impuesto: false,
    });
    const order = (status: 'pendiente' | 'espera', placedAt: Date) =>
      makeOrder(db(), {
        idUser: buyer.id,
        idCliente: client.id,
        status,
        transactionDate: placedAt,
        lines: [
          { productId: product.id, precio: 10000, impuesto: false, cantidad: 2, idCategoria: category.id },
        ],
      });
    return { tag, client, buyer, ana, luis, baja, sofia, order };
  }
  const digests = (email: string) =>
    db()
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.to, email), like(emailOutbox.subject, 'Tienes %')));
  const ago = (hours: number, from = MONDAY) => new Date(from.getTime() - hours * HOUR);
  /** The level-1 approval event that brought an order to espera at `at`. */
  const reachedEspera = (orderId: number, at: Date) =>
    db()
      .insert(orderEvents)
      .values({ orderId, tipo: 'aprobado', fromStatus: 'pendiente', toStatus: 'espera', createdAt: at });

  it('an order waiting 25 h: one digest to each active rol 2 of its client, with the order and the links', async () => {
    const w = await world();
    const other = await world();
    const o = await w.order('pendiente', ago(25));
    await other.order('pendiente', ago(1));
    await runReminders(deps(), MONDAY);
    expect(await digests(w.ana.email)).toHaveLength(1);
    expect(await digests(w.luis.email)).toHaveLength(1);
    expect(await digests(w.baja.email)).toHaveLength(0);
    expect(await digests(w.sofia.email)).toHaveLength(0);
    expect(await digests(w.buyer.email)).toHaveLength(0);
    expect(await digests(other.ana.email)).toHaveLength(0);

    await t.app.mailer.flush();
    const mail = await smtp.waitFor((m) => m.to.includes(w.ana.email));
    expect(mail.subject).toBe('Tienes 1 pedido por revisar');
    const numero = String(o.id).padStart(5, '0');
    expect(mail.text).toContain(
      `#${numero} · Beto Comprador · $200.00 MXN · esperando desde 22/11/2026 08:00`,
    );
    expect(mail.text).toContain(`http://portal.test/autorizador/orden/${o.id}`);
    expect(mail.text).toContain('http://portal.test/autorizador/principal');
    expect(mail.html).toContain('http://portal.test/autorizador/principal');
  });

  it('several orders make one digest; 23 h, a client with 0 hours or an inactive client send nothing', async () => {
    const w = await world();
    const a = await w.order('pendiente', ago(30));
    const b = await w.order('pendiente', ago(48));
    await w.order('pendiente', ago(23));
    const off = await world({ horas: 0 });
    await off.order('pendiente', ago(200));
    const inactive = await world({ activo: false });
    await inactive.order('pendiente', ago(200));
    await runReminders(deps(), MONDAY);
    const [digest, ...more] = await digests(w.ana.email);
    expect(more).toHaveLength(0);
    expect(digest!.subject).toBe('Tienes 2 pedidos por revisar');
    // Oldest first; the 23 h order is not named.
    expect(digest!.text.indexOf(`/orden/${b.id}`)).toBeLessThan(digest!.text.indexOf(`/orden/${a.id}`));
    expect(digest!.text.match(/\/autorizador\/orden\//g)).toHaveLength(2);
    expect(await digests(off.ana.email)).toHaveLength(0);
    expect(await digests(inactive.ana.email)).toHaveLength(0);

    const young = await world();
    await young.order('pendiente', ago(23));
    await runReminders(deps(), MONDAY);
    expect(await digests(young.ana.email)).toHaveLength(0);
  });

  it('espera orders remind rol 3, waiting since the event that brought them there', async () => {
    const w = await world();
    const o = await w.order('espera', ago(100));
    // Approved at level 1 26 h ago: waits on the Super Autorizador since then.
    await reachedEspera(o.id, ago(26));
    const recent = await world();
    const r = await recent.order('espera', ago(100));
    await reachedEspera(r.id, ago(2));
    // A one-level client has no espera orders to remind (nobody acts on them).
    const one = await world({ levels: 1 });
    await one.order('espera', ago(100));
    await runReminders(deps(), MONDAY);
    const [digest] = await digests(w.sofia.email);
    expect(digest?.text).toContain('esperando desde 22/11/2026 07:00');
    expect(await digests(w.ana.email)).toHaveLength(0);
    expect(await digests(recent.sofia.email)).toHaveLength(0);
    expect(await digests(one.sofia.email)).toHaveLength(0);
    expect(await digests(one.ana.email)).toHaveLength(0);
  });

  it('two runs the same day send one digest per person; the next business day sends a new one; a weekend none', async () => {
    const w = await world();
    await w.order('pendiente', ago(25));
    await runReminders(deps(), MONDAY);
    await runReminders(deps(), new Date(MONDAY.getTime() + 3 * HOUR));
    expect(await digests(w.ana.email)).toHaveLength(1);
    const claims = await db().select().from(approvalReminders).where(eq(approvalReminders.userId, w.ana.id));
    expect(claims).toMatchObject([{ fecha: '2026-11-23', pedidos: 1 }]);

    await runReminders(deps(), TUESDAY);
    expect(await digests(w.ana.email)).toHaveLength(2);
    expect(await runReminders(deps(), SATURDAY)).toBe(0);
    expect(await runReminders(deps(), new Date(SATURDAY.getTime() + 24 * HOUR))).toBe(0);
    expect(await digests(w.ana.email)).toHaveLength(2);

    // A person made inactive is not reminded any more.
    await db().update(users).set({ activo: false }).where(eq(users.id, w.luis.id));
    await runReminders(deps(), new Date(TUESDAY.getTime() + 24 * HOUR));
    expect(await digests(w.luis.email)).toHaveLength(2);
    expect(await digests(w.ana.email)).toHaveLength(3);
  });

  it('runs racing on one database (two instances on PostgreSQL) send exactly one digest per person', async () => {
    const w = await world();
    await w.order('pendiente', ago(25));
    let second: { app: FastifyInstance; database: Database } | null = null;
    if (kind === 'postgres') {
      const url = (t.database.pool as unknown as { options: { connectionString: string } }).options
        .connectionString;
      const database = await openDatabase({ databaseUrl: url, poolSize: 5 });
      const app = await buildApp({ config: t.config, database, logger: false });
      await app.ready();
      second = { app, database };
    }
    try {
      const other = second ? second.app.db : db();
      const day = new Date('2026-11-25T15:00:00Z');
      const runs = await Promise.all([
        runReminders(deps(), day),
        runReminders({ ...deps(), db: other }, day),
        runReminders(deps(), day),
        runReminders({ ...deps(), db: other }, day),
      ]);
      expect(runs.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(2);
      expect(await digests(w.ana.email)).toHaveLength(1);
      expect(await digests(w.luis.email)).toHaveLength(1);
    } finally {
      if (second) {
        await second.app.close();
        await second.database.close();
      }
    }
  });

  it('the job is scheduled at 09:00 of Monday to Friday in the business time zone', async () => {
    const tz = t.config.BUSINESS_TZ;
    const rows = await db().execute(
      sql`select cron, timezone from pgboss.schedule where name = ${REMINDER_QUEUE}`,
    );
    const list = (Array.isArray(rows) ? rows : (rows as unknown as { rows: unknown[] }).rows) as {
      cron: string;
      timezone: string;
    }[];
    expect(list).toEqual([{ cron: REMINDER_CRON, timezone: tz }]);
    const boss = new PgBoss({ connectionString: 'postgres://nadie@127.0.0.1:1/ninguna' });
    const next = boss.previewSchedule(REMINDER_CRON, {
      tz,
      from: new Date('2026-11-21T00:00:00Z'),
      count: 7,
    });
    expect(next.map((d) => d.toISOString())).toEqual([
      '2026-11-23T15:00:00.000Z',
      '2026-11-24T15:00:00.000Z',
      '2026-11-25T15:00:00.000Z',
      '2026-11-26T15:00:00.000Z',
      '2026-11-27T15:00:00.000Z',
      '2026-11-30T15:00:00.000Z',
      '2026-12-01T15:00:00.000Z',
    ]);
    expect(isBusinessWeekday(MONDAY, tz)).toBe(true);
    expect(isBusinessWeekday(SATURDAY, tz)).toBe(false);
    // Saturday 02:00 UTC is still Friday evening in Mexico City.
    expect(isBusinessWeekday(new Date('2026-11-28T02:00:00Z'), tz)).toBe(true);
  });

  it('the client form saves recordatorio_horas (default 24, 0 = off) and refuses -1, 721 and 1.5', async () => {
    const admin = (await signedInAdmin(t.app, db())).api;
    const base = (extra: Record<string, string>) => ({
      nombre: uniq('Recordatorios'),
      presupuesto_default: '1000',
      limite_de_compras: '-1',
      ...extra,
    });
    const plain = await postForm(admin, '/api/clientes', base({}));
    expect(plain.statusCode, plain.body).toBe(201);
    expect(plain.json().cliente.recordatorio_horas).toBe(24);
    const created = await postForm(admin, '/api/clientes', base({ recordatorio_horas: '48' }));
    const cliente = created.json().cliente;
    expect(cliente.recordatorio_horas).toBe(48);
    const update = (extra: Record<string, string>) =>
      postForm(admin, `/api/clientes/update/${cliente.id}`, {
        nombre: cliente.nombre,
        presupuesto_default: '1000',
        limite_de_compras: '-1',
        ...extra,
      });
    const kept = await update({});
    expect(kept.json().cliente.recordatorio_horas).toBe(48);
    const off = await update({ recordatorio_horas: '0' });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().cliente.recordatorio_horas).toBe(0);
    for (const value of ['-1', '721', '1.5', 'mucho']) {
      const res = await postForm(admin, '/api/clientes', base({ recordatorio_horas: value }));
      expect(res.statusCode, value).toBe(400);
      expect(res.json().msg, value).toBe(MSG.recordatorioHorasInvalido);
      expect(res.json().errors?.recordatorio_horas, value).toBe(MSG.recordatorioHorasInvalido);
      const upd = await update({ recordatorio_horas: value });
      expect(upd.statusCode, value).toBe(400);
    }
  });

  it('the queue runs the core with the real clock: a job sends the digest of an order waiting 25 h', async () => {
    const now = new Date();
    const w = await world();
    await w.order('pendiente', ago(25, now));
    await t.app.jobs.send(REMINDER_QUEUE, {});
    const expected = isBusinessWeekday(now, t.config.BUSINESS_TZ) ? 1 : 0;
    const deadline = Date.now() + 15_000;
    while ((await digests(w.ana.email)).length < expected && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    if (expected === 0) await new Promise((r) => setTimeout(r, 2_000));
    expect(await digests(w.ana.email)).toHaveLength(expected);
  });
});
