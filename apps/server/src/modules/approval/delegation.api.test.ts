import { addDays, businessDate } from '@portal/shared/domain/time';
import { and, asc, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { delegations, emailOutbox, orderEvents, orders, systemLogs, users } from '../../db/schema/index.ts';
import { MSG } from '../../messages.ts';
import {
  assign,
  makeCategory,
  makeClient,
  makeOrder,
  makeProduct,
  makeUser,
  TEST_PASSWORD,
  uniq,
} from '../../test/factories.ts';
import { ApiClient, createTestApp, DB_KINDS, type TestApp } from '../../test/harness.ts';
import { startSmtp } from '../../test/smtp.ts';
import { runReminders } from './reminders.service.ts';

const TZ = 'America/Mexico_City';

describe.each(DB_KINDS)('out-of-office delegation (%s)', (kind) => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp(kind, { env: { SMTP_URL: smtp.url, BUSINESS_TZ: TZ } });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });
  const db = () => t.database.db;
  const today = () => businessDate(new Date(), TZ);

  /**
   * A client with two levels: Ana (rol 3), Beto and Carla (rol 2), a buyer on a large budget; every approver
   * signed in on their own address.
   */
  async function world(opts: { levels?: number } = {}) {
    const tag = uniq('deleg');
    const client = await makeClient(db(), { cantidadAutorizadores: opts.levels ?? 2, limiteDeCompras: -1 });
    const category = await makeCategory(db(), client.id, 'Papelería');
    const person = (rol: number, nombre: string) =>
      makeUser(db(), { rol, idCliente: client.id, nombre, email: `${tag}-${rol}-${nombre[0]}@example.test` });
    const ana = await person(3, 'Ana Super');
    const beto = await person(2, 'Beto Autorizador');
    const carla = await person(2, 'Carla Autorizadora');
    const buyer = await makeUser(db(), {
      rol: 1,
      idCliente: client.id,
      presupuestoDefault: 10_000_000,
      limiteDeCompras: -1,
      nombre: 'Dora Compradora',
    });
    const product = await makeProduct(db(), {
      idCliente: client.id,
      idCategoria: category.id,
      precio: 10000,
    });
    await assign(db(), buyer.id, product.id, 10);
    let ip = 0;
    const signIn = (u: { usuario: string }) =>
      new ApiClient(t.app, `10.52.${Math.floor(Math.random() * 200)}.${++ip}`).loginOk(
        u.usuario,
        TEST_PASSWORD,
      );
    const api = { ana: await signIn(ana), beto: await signIn(beto), carla: await signIn(carla) };
    const order = (status: 'pendiente' | 'espera' = 'pendiente', transactionDate?: Date) =>
      makeOrder(db(), {
        idUser: buyer.id,
        idCliente: client.id,
        status,
        transactionDate,
        lines: [{ productId: product.id, precio: product.precio, cantidad: 1, idCategoria: category.id }],
      });
    const approve = (who: ApiClient, id: number) =>
      who.post('/api/update/compra', { id, orden: [{ id: product.id, cantidad: 1 }] });
    return { tag, client, ana, beto, carla, buyer, product, api, order, approve, signIn };
  }
  const statusOf = async (id: number) =>
    (await db().select({ s: orders.status }).from(orders).where(eq(orders.id, id)))[0]?.s;
  const window = (from = 0, to = 3) => ({ desde: addDays(today(), from), hasta: addDays(today(), to) });

  it('an authorizer names a delegate, sees it, replaces it and ends it; the delegate is told by e-mail', async () => {
    const w = await world();
    const empty = await w.api.ana.get('/api/delegacion');
    expect(empty.statusCode, empty.body).toBe(200);
    expect(empty.json()).toEqual({
      delegacion: null,
      en_nombre_de: [],
      candidatos: [
        { id: w.beto.id, nombre: 'Beto Autorizador', rol: 2 },
        { id: w.carla.id, nombre: 'Carla Autorizadora', rol: 2 },
      ],
      hoy: today(),
    });

    const saved = await w.api.ana.put('/api/delegacion', { delegado_id: w.beto.id, ...window(0, 3) });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().delegacion).toEqual({
      delegado: { id: w.beto.id, nombre: 'Beto Autorizador', rol: 2 },
      ...window(0, 3),
      activa: true,
    });
    // The delegate sees whom they act for, until when.
    const betoState = (await w.api.beto.get('/api/delegacion')).json();
    expect(betoState.en_nombre_de).toEqual([
      { id: w.ana.id, nombre: 'Ana Super', rol: 3, hasta: window(0, 3).hasta },
    ]);
    const mail = await smtp.waitFor((m) => m.to.includes(w.beto.email));
    expect(mail.subject).toBe('Ana Super te delegó sus aprobaciones');
    expect(mail.text).toContain('apruebas en nombre de Ana Super');

    // Saving again replaces it: one delegation per person.
    const later = await w.api.ana.put('/api/delegacion', { delegado_id: w.carla.id, ...window(2, 5) });
    expect(later.json().delegacion).toMatchObject({ delegado: { id: w.carla.id }, activa: false });
    expect(await db().select().from(delegations).where(eq(delegations.delegatorId, w.ana.id))).toHaveLength(
      1,
    );
    expect((await w.api.beto.get('/api/delegacion')).json().en_nombre_de).toEqual([]);

    const ended = await w.api.ana.request('DELETE', '/api/delegacion');
    expect(ended.statusCode, ended.body).toBe(200);
    expect(ended.json().delegacion).toBeNull();
    // Ending nothing is not an error.
    expect((await w.api.ana.request('DELETE', '/api/delegacion')).statusCode).toBe(200);
    const logs = await db()
      .select({ type: systemLogs.eventType, metadata: systemLogs.metadata })
      .from(systemLogs)
      .where(and(eq(systemLogs.userId, w.ana.id), like(systemLogs.eventType, 'delegacion_%')));
    expect(logs.map((l) => l.type).sort()).toEqual([
      'delegacion_guardada',
      'delegacion_guardada',
      'delegacion_terminada',
    ]);
  });

  it('refuses oneself, another client, an inactive user, a buyer, bad windows and a delegate who is away', async () => {
    const w = await world();
    const other = await world();
    const inactive = await makeUser(db(), { rol: 2, idCliente: w.client.id, activo: false });
    const buyer = w.buyer;
    const put = (body: object) => w.api.ana.put('/api/delegacion', body);
    const refused = async (body: object, msg: string, status = 400) => {
      const res = await put(body);
      expect(res.statusCode, `${JSON.stringify(body)} → ${res.body}`).toBe(status);
      expect(res.json().msg).toBe(msg);
    };
    await refused({ delegado_id: w.ana.id, ...window() }, MSG.delegadoEsUnoMismo);
    await refused({ delegado_id: other.beto.id, ...window() }, MSG.delegadoNoValido);
    await refused({ delegado_id: inactive.id, ...window() }, MSG.delegadoNoValido);
    await refused({ delegado_id: buyer.id, ...window() }, MSG.delegadoNoValido);
    await refused({ delegado_id: 2_000_000_000, ...window() }, MSG.delegadoNoValido);
    await refused(
      { delegado_id: w.beto.id, desde: window(3).desde, hasta: window(0, 1).hasta },
      MSG.rangoFechasInvalido,
    );
    await refused({ delegado_id: w.beto.id, ...window(0, 90) }, MSG.delegacionMuyLarga);
    await refused({ delegado_id: w.beto.id, ...window(-5, -1) }, MSG.delegacionTerminada);
    await refused({ delegado_id: w.beto.id, desde: '25/11/2026', hasta: window().hasta }, MSG.fechaInvalida);
    await refused({ desde: window().desde, hasta: window().hasta }, MSG.delegadoRequerido);
    // 90 days, both ends counted, is the longest window.
    expect((await put({ delegado_id: w.beto.id, ...window(0, 89) })).statusCode).toBe(200);

    // Beto cannot name Ana while Ana is away and has named him; Carla is fine.
    const away = await w.api.beto.put('/api/delegacion', { delegado_id: w.ana.id, ...window(1, 2) });
    expect(away.statusCode).toBe(400);
    expect(away.json()).toMatchObject({
      msg: MSG.delegadoAusente,
      errors: { delegado_id: MSG.delegadoAusente },
    });
    expect(
      (await w.api.beto.put('/api/delegacion', { delegado_id: w.carla.id, ...window(1, 2) })).statusCode,
    ).toBe(200);
    expect(await db().select().from(delegations).where(eq(delegations.delegatorId, w.ana.id))).toHaveLength(
      1,
    );
  });

  it('an administrator sets and ends anyone’s delegation; only authorizers may have one', async () => {
    const w = await world();
    const admin = await makeUser(db(), { rol: 4, idCliente: null });
    const api = await w.signIn(admin);
    const url = `/api/usuarios/${w.ana.id}/delegacion`;
    const set = await api.put(url, { delegado_id: w.carla.id, ...window(0, 1) });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().delegacion).toMatchObject({ delegado: { id: w.carla.id }, activa: true });
    expect((await api.get(url)).json().candidatos.map((c: { id: number }) => c.id)).toEqual([
      w.beto.id,
      w.carla.id,
    ]);
    expect((await w.api.ana.get('/api/delegacion')).json().delegacion.delegado.id).toBe(w.carla.id);
    const [log] = await db()
      .select({ metadata: systemLogs.metadata })
      .from(systemLogs)
      .where(and(eq(systemLogs.userId, admin.id), eq(systemLogs.eventType, 'delegacion_guardada')));
    expect(log?.metadata).toMatchObject({ id_usuario: w.ana.id, id_delegado: w.carla.id });

    const buyerUrl = `/api/usuarios/${w.buyer.id}/delegacion`;
    const notAuthorizer = await api.put(buyerUrl, { delegado_id: w.carla.id, ...window() });
    expect(notAuthorizer.statusCode).toBe(400);
    expect(notAuthorizer.json().msg).toBe(MSG.delegacionSoloAutorizadores);
    expect((await api.get(buyerUrl)).json()).toMatchObject({ delegacion: null, candidatos: [] });
    const missing = await api.put('/api/usuarios/2000000000/delegacion', {
      delegado_id: w.carla.id,
      ...window(),
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().msg).toBe(MSG.usuarioNoEncontrado);

    expect((await api.request('DELETE', url)).json().delegacion).toBeNull();
    expect(await db().select().from(delegations).where(eq(delegations.delegatorId, w.ana.id))).toHaveLength(
      0,
    );
    // Authorizers cannot reach the administrator's routes, nor buyers their own.
    expect((await w.api.ana.get(url)).statusCode).toBe(403);
    const buyerApi = await w.signIn(w.buyer);
    expect((await buyerApi.get('/api/delegacion')).statusCode).toBe(403);
  });

  it('a purchase e-mails the first level and whoever stands in for one of them, each person once', async () => {
    const w = await world();
    // Carla is away: Ana (rol 3) stands in for her. An inactive rol 2 is not told; Ana is told only as a stand-in.
    await w.api.carla.put('/api/delegacion', { delegado_id: w.ana.id, ...window(0, 2) });
    const away = await makeUser(db(), {
      rol: 2,
      idCliente: w.client.id,
      activo: false,
      email: `${w.tag}-inactivo@example.test`,
    });
    const buyer = await w.signIn(w.buyer);
    expect(
      (await buyer.post('/api/carrito/nuevo_item', { item: { id: w.product.id, cantidad: 2 } })).statusCode,
    ).toBe(200);
    const res = await buyer.post('/api/compra', { orden: [{ id: w.product.id, cantidad: 2 }] });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().pedido.id as number;
    const told = await db()
      .select({ to: emailOutbox.to, text: emailOutbox.text })
      .from(emailOutbox)
      .where(eq(emailOutbox.subject, `Pedido #${String(id).padStart(5, '0')} por revisar`))
      .orderBy(asc(emailOutbox.id));
    expect(told.map((m) => m.to)).toEqual([w.beto.email, w.carla.email, w.ana.email]);
    expect(told.map((m) => m.to)).not.toContain(away.email);
    expect(told[0]!.text).toContain(`Dora Compradora envió el pedido #${String(id).padStart(5, '0')}`);
    expect(told[0]!.text).toContain(`/autorizador/orden/${id}`);
  });

  it('the delegate acts with the delegator’s level: list, review, approval in their name, e-mails', async () => {
    const w = await world();
    await w.api.ana.put('/api/delegacion', { delegado_id: w.beto.id, ...window(0, 2) });
    // Carla gives the level-1 approval; the level-2 e-mail goes to Ana and to Beto, her delegate.
    const o = await w.order('pendiente');
    expect((await w.approve(w.api.carla, o.id)).json()).toMatchObject({ nuevo_estatus: 'espera' });
    const subject = `Pedido #${String(o.id).padStart(5, '0')} por revisar`;
    const told = await db()
      .select({ to: emailOutbox.to })
      .from(emailOutbox)
      .where(eq(emailOutbox.subject, subject));
    expect(told.map((m) => m.to).sort()).toEqual([w.ana.email, w.beto.email].sort());

    const list = (await w.api.beto.get('/api/pedidos')).json();
    expect(list).toMatchObject({ accionable: 'pendiente', accionables: ['pendiente', 'espera'] });
    expect(list.pedidos.map((p: { id: number }) => p.id)).toContain(o.id);
    const view = (await w.api.beto.get(`/api/pedidos/${o.id}`)).json();
    expect(view.acciones).toEqual({ aprobar: true, cancelar: true, editar: false, devolver: true });

    const res = await w.approve(w.api.beto, o.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().nuevo_estatus).toBe('aprobado');
    const [event] = await db()
      .select()
      .from(orderEvents)
      .where(and(eq(orderEvents.orderId, o.id), eq(orderEvents.toStatus, 'aprobado')));
    expect(event).toMatchObject({ actorId: w.beto.id, onBehalfOfId: w.ana.id });
    const detail = res.json().pedido.eventos.at(-1);
    expect(detail).toMatchObject({ actor: 'Beto Autorizador', en_nombre_de: 'Ana Super', a: 'aprobado' });
    const [log] = await db()
      .select({ metadata: systemLogs.metadata })
      .from(systemLogs)
      .where(and(eq(systemLogs.userId, w.beto.id), eq(systemLogs.eventType, 'pedido_aprobado')));
    expect(log?.metadata).toMatchObject({ id_pedido: o.id, en_nombre_de: w.ana.id });

    // Cancelling in her name too, and in bulk.
    const c = await w.order('espera');
    const bulk = await w.api.beto.post('/api/pedidos/cancelar-lote', { ids: [c.id], motivo: 'Duplicado' });
    expect(bulk.json().resultados).toEqual([{ id: c.id, ok: true, estatus: 'cancelado' }]);
    const [cancelled] = await db()
      .select()
      .from(orderEvents)
      .where(and(eq(orderEvents.orderId, c.id), eq(orderEvents.tipo, 'cancelado')));
    expect(cancelled).toMatchObject({ actorId: w.beto.id, onBehalfOfId: w.ana.id });

    // Carla, with no delegation, still cannot touch espera orders.
    const e = await w.order('espera');
    expect((await w.approve(w.api.carla, e.id)).statusCode).toBe(409);
    expect(await statusOf(e.id)).toBe('espera');
  });

  it('one person never gives both approvals, with or without a delegation (409)', async () => {
    const w = await world();
    await w.api.ana.put('/api/delegacion', { delegado_id: w.beto.id, ...window(0, 2) });
    // Beto gives level 1 as himself, then tries level 2 in Ana's name.
    const o = await w.order('pendiente');
    expect((await w.approve(w.api.beto, o.id)).json().nuevo_estatus).toBe('espera');
    expect((await w.api.beto.get(`/api/pedidos/${o.id}`)).json().acciones).toMatchObject({ aprobar: false });
    const twice = await w.approve(w.api.beto, o.id);
    expect(twice.statusCode, twice.body).toBe(409);
    expect(twice.json()).toMatchObject({ code: 'SAME_APPROVER', msg: MSG.segundaAutorizacionOtraPersona });
    expect(await statusOf(o.id)).toBe('espera');
    // The level-2 approver who is not the same person can.
    expect((await w.approve(w.api.ana, o.id)).json().nuevo_estatus).toBe('aprobado');

    // A super authorizer who gave level 1 in a rol 2's name cannot give level 2 as himself.
    const w2 = await world();
    await w2.api.carla.put('/api/delegacion', { delegado_id: w2.ana.id, ...window(0, 2) });
    const p = await w2.order('pendiente');
    const first = await w2.approve(w2.api.ana, p.id);
    expect(first.json().nuevo_estatus).toBe('espera');
    expect(first.json().pedido.eventos.at(-1)).toMatchObject({
      actor: 'Ana Super',
      en_nombre_de: 'Carla Autorizadora',
    });
    const again = await w2.approve(w2.api.ana, p.id);
    expect(again.statusCode).toBe(409);
    expect(again.json().msg).toBe(MSG.segundaAutorizacionOtraPersona);
    // Nor Carla, in whose name it was given, even as the delegate of another super authorizer.
    const eva = await makeUser(db(), { rol: 3, idCliente: w2.client.id, nombre: 'Eva Super' });
    await db()
      .insert(delegations)
      .values({ delegatorId: eva.id, delegateId: w2.carla.id, ...window(0, 1) });
    const carla = await w2.approve(w2.api.carla, p.id);
    expect(carla.statusCode, carla.body).toBe(409);
    expect(carla.json().code).toBe('SAME_APPROVER');
    expect(await statusOf(p.id)).toBe('espera');
    expect((await w2.approve(await w2.signIn(eva), p.id)).json().nuevo_estatus).toBe('aprobado');
  });

  it('nobody gives level 2 in the name of whoever gave level 1 (issue 38, finding 9)', async () => {
    const w = await world();
    const o = await w.order('pendiente');
    // Beto gives level 1; then he becomes a super authorizer and names Carla his delegate: Carla would give
    // level 2 in his name, so that he gave both.
    expect((await w.approve(w.api.beto, o.id)).json().nuevo_estatus).toBe('espera');
    await db().update(users).set({ rol: 3 }).where(eq(users.id, w.beto.id));
    await db()
      .insert(delegations)
      .values({ delegatorId: w.beto.id, delegateId: w.carla.id, ...window(0, 2) });
    expect((await w.api.carla.get(`/api/pedidos/${o.id}`)).json().acciones).toMatchObject({ aprobar: false });
    const refused = await w.approve(w.api.carla, o.id);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'SAME_APPROVER', msg: MSG.segundaAutorizacionOtraPersona });
    expect(await statusOf(o.id)).toBe('espera');
    // A super authorizer who took no part may.
    expect((await w.approve(w.api.ana, o.id)).json().nuevo_estatus).toBe('aprobado');
  });

  it('only inside the window, and only while the delegator is an active authorizer of the client', async () => {
    const w = await world();
    await w.api.ana.put('/api/delegacion', { delegado_id: w.beto.id, ...window(1, 3) });
    const o = await w.order('espera');
    // Starts tomorrow: nothing today.
    expect((await w.api.beto.get('/api/pedidos')).json().accionables).toEqual(['pendiente']);
    expect((await w.approve(w.api.beto, o.id)).statusCode).toBe(409);
    expect(await statusOf(o.id)).toBe('espera');
    // Today, but Ana is deactivated: nothing either.
    await w.api.ana.put('/api/delegacion', { delegado_id: w.beto.id, ...window(0, 3) });
    await db().update(users).set({ activo: false }).where(eq(users.id, w.ana.id));
    expect((await w.api.beto.get('/api/pedidos')).json().accionables).toEqual(['pendiente']);
    expect((await w.api.beto.get('/api/delegacion')).json().en_nombre_de).toEqual([]);
    expect((await w.approve(w.api.beto, o.id)).statusCode).toBe(409);
    await db().update(users).set({ activo: true }).where(eq(users.id, w.ana.id));
    expect((await w.approve(w.api.beto, o.id)).json().nuevo_estatus).toBe('aprobado');
  });

  it('reminders: an approver away is replaced by the delegate, who gets one digest for both levels', async () => {
    const w = await world();
    // A Monday in the business time zone, the delegation set around it directly.
    const monday = new Date('2026-11-23T15:05:00Z');
    const day = businessDate(monday, TZ);
    await db()
      .insert(delegations)
      .values({ delegatorId: w.ana.id, delegateId: w.beto.id, desde: day, hasta: addDays(day, 1) });
    const old = new Date(monday.getTime() - 30 * 3_600_000);
    const p = await w.order('pendiente', old);
    const e = await w.order('espera', old);
    await db().insert(orderEvents).values({
      orderId: e.id,
      tipo: 'aprobado',
      fromStatus: 'pendiente',
      toStatus: 'espera',
      createdAt: old,
    });
    await runReminders({ db: db(), publicUrl: 'http://portal.test', tz: TZ }, monday);
    const digest = (email: string) =>
      db()
        .select()
        .from(emailOutbox)
        .where(and(eq(emailOutbox.to, email), like(emailOutbox.subject, 'Tienes %')));
    const [beto, ...more] = await digest(w.beto.email);
    expect(more).toHaveLength(0);
    expect(beto!.subject).toBe('Tienes 2 pedidos por revisar');
    expect(beto!.text).toContain(`/autorizador/orden/${p.id}`);
    expect(beto!.text).toContain(`/autorizador/orden/${e.id}`);
    expect(await digest(w.ana.email)).toHaveLength(0);
    expect((await digest(w.carla.email))[0]?.subject).toBe('Tienes 1 pedido por revisar');
  });

  it('concurrency: delegate and delegator approve at once — one wins, the other 409; crossed delegations — one wins', async () => {
    const w = await world();
    await w.api.ana.put('/api/delegacion', { delegado_id: w.beto.id, ...window(0, 2) });
    for (let i = 0; i < 3; i++) {
      const o = await w.order('espera');
      const results = await Promise.all([w.approve(w.api.ana, o.id), w.approve(w.api.beto, o.id)]);
      expect(results.map((r) => r.statusCode).sort(), results.map((r) => r.body).join('\n')).toEqual([
        200, 409,
      ]);
      const approvals = await db()
        .select()
        .from(orderEvents)
        .where(and(eq(orderEvents.orderId, o.id), eq(orderEvents.tipo, 'aprobado')));
      expect(approvals).toHaveLength(1);
      expect(await statusOf(o.id)).toBe('aprobado');
    }
    // Carla and Beto name each other at the same moment: only one of them can be away.
    await w.api.ana.request('DELETE', '/api/delegacion');
    const crossed = await Promise.all([
      w.api.beto.put('/api/delegacion', { delegado_id: w.carla.id, ...window(0, 2) }),
      w.api.carla.put('/api/delegacion', { delegado_id: w.beto.id, ...window(0, 2) }),
    ]);
    expect(crossed.map((r) => r.statusCode).sort(), crossed.map((r) => r.body).join('\n')).toEqual([
      200, 400,
    ]);
    expect(crossed.find((r) => r.statusCode === 400)!.json().msg).toBe(MSG.delegadoAusente);
  });
});
