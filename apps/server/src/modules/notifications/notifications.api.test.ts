/**
 * Notification preferences, the bell and the digests (issue 43 item 1, decision 0114): each person chooses
 * per kind an e-mail at once (the default), an hourly or daily digest, or only the portal; every item lands in
 * their bell, which only they read; the digest job sends one e-mail per person and period, never twice, and
 * nothing to a deactivated person.
 */
import { UNREAD_COUNT_CAP } from '@portal/shared/domain/notifications';
import { businessDate } from '@portal/shared/domain/time';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailOutbox, notifications, users } from '../../db/schema/index.ts';
import { MSG } from '../../messages.ts';
import { businessNoon } from '../../test/calendar.ts';
import {
  assign,
  makeCategory,
  makeClient,
  makeProduct,
  makeUser,
  TEST_PASSWORD,
  uniq,
} from '../../test/factories.ts';
import { ApiClient, createTestApp, DB_KINDS, type TestApp } from '../../test/harness.ts';
import { runDigests } from './digest.service.ts';

const TZ = 'America/Mexico_City';
const MINUTE = 60_000;

describe.each(DB_KINDS)('notifications (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });
  const db = () => t.database.db;
  const digests = (now: Date) => runDigests({ db: db(), publicUrl: 'http://portal.test', tz: TZ }, now);

  /** A one-level client: a buyer, two rol 2 (one without an address), one product; everyone signed in. */
  async function world() {
    const tag = uniq('av');
    const c = await makeClient(db(), { cantidadAutorizadores: 1, limiteDeCompras: -1 });
    const category = await makeCategory(db(), c.id, 'Papelería');
    const buyer = await makeUser(db(), {
      rol: 1,
      idCliente: c.id,
      presupuestoDefault: 1_000_000,
      limiteDeCompras: -1,
      nombre: 'Beto Comprador',
      email: `${tag}-beto@example.test`,
    });
    const ana = await makeUser(db(), { rol: 2, idCliente: c.id, email: `${tag}-ana@example.test` });
    const noMail = await makeUser(db(), { rol: 2, idCliente: c.id, email: '', usuario: uniq('sincorreo') });
    const product = await makeProduct(db(), { idCliente: c.id, idCategoria: category.id, precio: 10000 });
    await assign(db(), buyer.id, product.id, 50);
    const login = (u: { usuario: string }) => new ApiClient(t.app).loginOk(u.usuario, TEST_PASSWORD);
    const api = { buyer: await login(buyer), ana: await login(ana), noMail: await login(noMail) };
    const purchase = async () => {
      expect(
        (await api.buyer.post('/api/carrito/nuevo_item', { item: { id: product.id, cantidad: 1 } }))
          .statusCode,
      ).toBe(200);
      const res = await api.buyer.post('/api/compra', {
        orden: [{ id: product.id, cantidad: 1 }],
        fecha: businessDate(new Date()),
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().pedido.id as number;
    };
    return { tag, client: c, buyer, ana, noMail, product, api, purchase };
  }

  const reviewSubject = (id: number) => `Pedido #${String(id).padStart(5, '0')} por revisar`;
  const mailsTo = (to: string) => db().select().from(emailOutbox).where(eq(emailOutbox.to, to));
  const itemsOf = (userId: number) =>
    db().select().from(notifications).where(eq(notifications.userId, userId)).orderBy(notifications.id);

  it('preferences: every kind at once by default, the role’s kinds, and partial changes that merge', async () => {
    const w = await world();
    const initial = (await w.api.ana.get('/api/notificaciones/preferencias')).json();
    expect(initial).toEqual({
      canales: {
        por_revisar: 'inmediato',
        pedido: 'inmediato',
        comentario: 'inmediato',
        presupuesto: 'inmediato',
        envio: 'inmediato',
      },
      resumen_hora: 8,
      tipos: ['por_revisar', 'comentario', 'presupuesto'],
      // Pushes to the phone (decision 0117): no amounts unless chosen, and no device yet.
      importes_en_telefono: false,
      telefonos: 0,
    });
    expect((await w.api.buyer.get('/api/notificaciones/preferencias')).json().tipos).toEqual([
      'pedido',
      'comentario',
      'presupuesto',
      'envio',
    ]);
    const first = await w.api.ana.put('/api/notificaciones/preferencias', {
      canales: { por_revisar: 'dia' },
      resumen_hora: 7,
    });
    expect(first.statusCode, first.body).toBe(200);
    const second = await w.api.ana.put('/api/notificaciones/preferencias', {
      canales: { comentario: 'portal' },
      resumen_hora: 9,
    });
    expect(second.json()).toMatchObject({
      canales: { por_revisar: 'dia', comentario: 'portal', presupuesto: 'inmediato' },
      resumen_hora: 9,
    });
  });

  it('preferences: refusals in Spanish, per field, and nothing saved', async () => {
    const w = await world();
    const bad = async (body: unknown, field: string, msg: string) => {
      const res = await w.api.ana.put('/api/notificaciones/preferencias', body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().errors[field]).toBe(msg);
    };
    await bad(
      { canales: { por_revisar: 'semanal' }, resumen_hora: 8 },
      'canales.por_revisar',
      MSG.avisoCanalInvalido,
    );
    await bad({ canales: {}, resumen_hora: 24 }, 'resumen_hora', MSG.resumenHoraInvalida);
    await bad({ canales: {}, resumen_hora: 'ocho' }, 'resumen_hora', MSG.resumenHoraInvalida);
    // A kind the role never receives: an approver has no orders of its own to be told about.
    await bad({ canales: { pedido: 'portal' }, resumen_hora: 8 }, 'canales', MSG.avisoTipoNoAplica);
    expect((await w.api.ana.get('/api/notificaciones/preferencias')).json().canales.por_revisar).toBe(
      'inmediato',
    );
    const anonymous = await new ApiClient(t.app).get('/api/notificaciones');
    expect(anonymous.statusCode).toBe(401);
  });

  it('an order to review: an e-mail and a bell item by default; only the item when the approver chose the portal or has no address', async () => {
    const w = await world();
    await w.api.ana.put('/api/notificaciones/preferencias', {
      canales: { por_revisar: 'portal' },
      resumen_hora: 8,
    });
    const id = await w.purchase();
    // Ana chose the portal: no e-mail, one unread item that opens the order.
    expect(
      (await mailsTo(`${w.tag}-ana@example.test`)).filter((m) => m.subject === reviewSubject(id)),
    ).toEqual([]);
    const bell = (await w.api.ana.get('/api/notificaciones')).json();
    expect(bell.no_leidas).toBe(1);
    expect(bell.notificaciones[0]).toMatchObject({
      tipo: 'por_revisar',
      titulo: reviewSubject(id),
      ruta: `/autorizador/orden/${id}`,
      leida: false,
    });
    expect(bell.notificaciones[0].texto).toContain('Está pendiente de tu revisión.');
    // The approver without an address gets the item too (and no e-mail anywhere).
    expect((await w.api.noMail.get('/api/notificaciones')).json().no_leidas).toBe(1);
    expect((await itemsOf(w.noMail.id))[0]!.resumen).toBeNull();

    // Back to "at once": the next order is e-mailed and is in the bell.
    await w.api.ana.put('/api/notificaciones/preferencias', {
      canales: { por_revisar: 'inmediato' },
      resumen_hora: 8,
    });
    const next = await w.purchase();
    expect((await mailsTo(`${w.tag}-ana@example.test`)).map((m) => m.subject)).toContain(reviewSubject(next));
    expect((await w.api.ana.get('/api/notificaciones')).json().no_leidas).toBe(2);
  });

  it('the buyer’s own kinds: an approval and a budget alert follow the buyer’s choices', async () => {
    const w = await world();
    await db().update(users).set({ presupuestoDefault: 12_000 }).where(eq(users.id, w.buyer.id));
    await w.api.buyer.put('/api/notificaciones/preferencias', {
      canales: { pedido: 'portal', presupuesto: 'hora' },
      resumen_hora: 8,
    });
    const id = await w.purchase();
    const approved = await w.api.ana.post('/api/update/compra', {
      id,
      orden: [{ id: w.product.id, cantidad: 1 }],
    });
    expect(approved.statusCode, approved.body).toBe(200);
    const items = await itemsOf(w.buyer.id);
    expect(items.map((i) => [i.tipo, i.resumen])).toEqual(
      expect.arrayContaining([
        ['presupuesto', 'hora'],
        ['pedido', null],
      ]),
    );
    expect(items.find((i) => i.tipo === 'pedido')!.ruta).toBe(`/usuario/historial/${id}`);
    // Neither went by e-mail: the approval is only in the bell, the alert waits for the hourly digest.
    expect(await mailsTo(`${w.tag}-beto@example.test`)).toEqual([]);
  });

  it('the bell: pages, marking one and all read, and another person’s item answers like a missing one', async () => {
    const w = await world();
    await w.api.ana.put('/api/notificaciones/preferencias', {
      canales: { por_revisar: 'portal' },
      resumen_hora: 8,
    });
    const now = new Date();
    await db()
      .insert(notifications)
      .values(
        Array.from({ length: 23 }, (_, i) => ({
          userId: w.ana.id,
          tipo: 'por_revisar',
          titulo: `Aviso ${i + 1}`,
          texto: 'Texto',
          ruta: '/autorizador/principal',
          createdAt: new Date(now.getTime() - (23 - i) * MINUTE),
        })),
      );
    const first = (await w.api.ana.get('/api/notificaciones')).json();
    expect(first.no_leidas).toBe(23);
    expect(first.notificaciones).toHaveLength(20);
    expect(first.notificaciones[0].titulo).toBe('Aviso 23');
    expect(first.hay_mas).toBe(true);
    const last = first.notificaciones.at(-1).id;
    const second = (await w.api.ana.get(`/api/notificaciones?antes=${last}`)).json();
    expect(second.notificaciones.map((n: { titulo: string }) => n.titulo)).toEqual([
      'Aviso 3',
      'Aviso 2',
      'Aviso 1',
    ]);
    expect(second.hay_mas).toBe(false);

    const one = first.notificaciones[0].id;
    expect((await w.api.ana.post(`/api/notificaciones/${one}/leida`, {})).json()).toEqual({
      marcadas: 1,
      no_leidas: 22,
    });
    expect((await w.api.ana.post(`/api/notificaciones/${one}/leida`, {})).json()).toEqual({
      marcadas: 0,
      no_leidas: 22,
    });
    // Someone else's item, and one that does not exist: the same 404, nothing changed.
    for (const api of [w.api.buyer, w.api.noMail]) {
      const res = await api.post(`/api/notificaciones/${first.notificaciones[1].id}/leida`, {});
      expect(res.statusCode).toBe(404);
      expect(res.json().msg).toBe(MSG.avisoNoEncontrado);
    }
    expect((await w.api.ana.post('/api/notificaciones/2147483647/leida', {})).statusCode).toBe(404);
    expect((await w.api.ana.get('/api/notificaciones?antes=abc')).statusCode).toBe(400);
    expect((await w.api.ana.post('/api/notificaciones/leidas', {})).json()).toEqual({
      marcadas: 22,
      no_leidas: 0,
    });
    expect((await w.api.ana.get('/api/notificaciones')).json().no_leidas).toBe(0);
    // The unread count stops at 100 ("100 or more"): 130 unread items count as 100.
    await db()
      .insert(notifications)
      .values(
        Array.from({ length: 130 }, () => ({
          userId: w.ana.id,
          tipo: 'por_revisar',
          titulo: 'Otro aviso',
          texto: 'Texto',
          ruta: '/autorizador/principal',
        })),
      );
    expect((await w.api.ana.get('/api/notificaciones')).json().no_leidas).toBe(UNREAD_COUNT_CAP);
    expect((await w.api.ana.post('/api/notificaciones/leidas', {})).json()).toEqual({
      marcadas: 130,
      no_leidas: 0,
    });
  });

  it('hourly digest: one e-mail with every waiting item, at most one per clock hour, never twice', async () => {
    const w = await world();
    await w.api.ana.put('/api/notificaciones/preferencias', {
      canales: { por_revisar: 'hora' },
      resumen_hora: 8,
    });
    const a = await w.purchase();
    const b = await w.purchase();
    const to = `${w.tag}-ana@example.test`;
    expect((await mailsTo(to)).map((m) => m.subject)).toEqual([]);
    const items = await itemsOf(w.ana.id);
    expect(items.map((i) => i.resumen)).toEqual(['hora', 'hora']);

    // Two runs at once: one digest.
    const at = new Date(Math.max(...items.map((i) => i.createdAt.getTime())) + MINUTE);
    const [x, y] = await Promise.all([digests(at), digests(at)]);
    expect(x + y).toBeGreaterThanOrEqual(1);
    let mails = await mailsTo(to);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('Tu resumen del Portal de Compras: 2 avisos');
    expect(mails[0]!.text).toContain(`${reviewSubject(a)}:`);
    expect(mails[0]!.text).toContain(`${reviewSubject(b)}:`);
    expect(mails[0]!.text).toContain(`http://portal.test/autorizador/orden/${a}`);
    // The items are still unread in the bell; a second run sends nothing.
    expect((await w.api.ana.get('/api/notificaciones')).json().no_leidas).toBe(2);
    await digests(at);
    expect(await mailsTo(to)).toHaveLength(1);

    // A third item in the same hour waits for the next hour.
    const c = await w.purchase();
    const sameHour = new Date(at.getTime() + MINUTE);
    if (Math.floor(sameHour.getTime() / 3_600_000) === Math.floor(at.getTime() / 3_600_000)) {
      await digests(sameHour);
      expect(await mailsTo(to)).toHaveLength(1);
    }
    const nextHour = new Date((Math.floor(at.getTime() / 3_600_000) + 1) * 3_600_000 + 5 * MINUTE);
    await digests(nextHour);
    mails = await mailsTo(to);
    expect(mails).toHaveLength(2);
    expect(mails[1]!.subject).toBe('Tu resumen del Portal de Compras: 1 aviso');
    expect(mails[1]!.text).toContain(reviewSubject(c));
  });

  it('daily digest: not before the chosen hour, once a day; a deactivated person gets nothing', async () => {
    const w = await world();
    await w.api.ana.put('/api/notificaciones/preferencias', {
      canales: { por_revisar: 'dia' },
      resumen_hora: 9,
    });
    const to = `${w.tag}-ana@example.test`;
    // Items written the day before, planted at chosen instants (the digest reads the clock it is given).
    const day = '2027-03-10';
    const evening = new Date(businessNoon('2027-03-09', TZ).getTime() + 8 * 60 * MINUTE);
    await db()
      .insert(notifications)
      .values(
        ['Uno', 'Dos'].map((titulo) => ({
          userId: w.ana.id,
          tipo: 'por_revisar',
          titulo,
          texto: 'Texto',
          ruta: '/autorizador/principal',
          resumen: 'dia',
          createdAt: evening,
        })),
      );
    const at = (hhmm: string) => new Date(`${day}T${hhmm}:00-06:00`);
    await digests(at('08:50'));
    expect(await mailsTo(to)).toEqual([]);
    await digests(at('09:05'));
    const mails = await mailsTo(to);
    expect(mails.map((m) => m.subject)).toEqual(['Tu resumen del Portal de Compras: 2 avisos']);
    expect(mails[0]!.text).toContain('Uno: Texto');

    // Later that day, another item: tomorrow's digest, not today's.
    await db()
      .insert(notifications)
      .values({
        userId: w.ana.id,
        tipo: 'por_revisar',
        titulo: 'Tres',
        texto: 'Texto',
        ruta: '/autorizador/principal',
        resumen: 'dia',
        createdAt: at('10:00'),
      });
    await digests(at('11:00'));
    expect(await mailsTo(to)).toHaveLength(1);

    // Deactivated before tomorrow's: the item is closed, no e-mail.
    await db().update(users).set({ activo: false }).where(eq(users.id, w.ana.id));
    await digests(new Date(`2027-03-11T09:05:00-06:00`));
    expect(await mailsTo(to)).toHaveLength(1);
    const [tres] = await db()
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, w.ana.id), inArray(notifications.titulo, ['Tres'])));
    expect(tres!.resumidoAt).not.toBeNull();
  });
});
