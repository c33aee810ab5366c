/**
 * Web Push (issue 43 item 7, decision 0117): the portal's VAPID key, devices subscribing and unsubscribing,
 * sign-out, and the sender pushing the items of kinds a person wants 'telefono' to the test push service
 * (test/push-receiver.ts), which checks the VAPID signature and decrypts every push as a browser would.
 */
import { formatCentavos } from '@portal/shared/domain/money';
import { PUSH_DEVICES_PER_USER } from '@portal/shared/domain/push';
import { businessDate } from '@portal/shared/domain/time';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  emailOutbox,
  notifications,
  pushDeliveries,
  pushSubscriptions,
  pushVapid,
  sessions,
} from '../../db/schema/index.ts';
import { type Clock, manualClock } from '../../lib/clock.ts';
import { encryptionRing } from '../../lib/keys.ts';
import { openWithRing, vapidContext } from '../../lib/secret-box.ts';
import { MSG } from '../../messages.ts';
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
import { type PushReceiver, type PushSubscriptionJson, startPushReceiver } from '../../test/push-receiver.ts';
import { PUSH_MAX_ATTEMPTS, PUSH_TTL_SECONDS, PushSender } from './push-sender.ts';
import { loadVapidKeys } from './vapid.ts';

const HOUR = 3_600_000;
/** A public address given as a literal (no name to resolve): what a real push service's address passes. */
const PUBLIC_ENDPOINT = 'https://93.184.216.34/push/';

describe.each(DB_KINDS)('web push (%s)', (kind) => {
  let t: TestApp;
  let strict: TestApp;
  let receiver: PushReceiver;
  let clave: string;
  const db = () => t.database.db;

  beforeAll(async () => {
    receiver = await startPushReceiver();
    // The app's own sender does not poll here (PUSH_POLL_MS=0): each test runs a sender when it wants one.
    [t, strict] = await Promise.all([
      createTestApp(kind, {
        env: { PUSH_ALLOW_PRIVATE: '1', PUSH_POLL_MS: '0', PUSH_RETRY_BASE_SECONDS: '60' },
      }),
      createTestApp(kind, { env: { PUSH_POLL_MS: '0' } }),
    ]);
    const someone = await new ApiClient(t.app).loginOk(
      (await makeUser(db(), { rol: 4, idCliente: null })).usuario,
      TEST_PASSWORD,
    );
    clave = (await someone.get('/api/push/clave')).json().clave;
    // Every push must be signed with the key the portal hands to browsers.
    receiver.vapidKey = clave;
  });
  afterAll(async () => {
    await Promise.all([t?.close(), strict?.close()]);
    await receiver?.close();
  });

  /** A sender like the app's, on this app's database (its clock may be another). */
  const sender = async (clock: Clock = t.app.clock) =>
    new PushSender({ ...t.app.deps, clock }, await loadVapidKeys(t.app.deps));

  const login = (app: TestApp, u: { usuario: string }) =>
    new ApiClient(app.app).loginOk(u.usuario, TEST_PASSWORD);

  const devicesOf = (userId: number) =>
    db()
      .select()
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.userId, userId))
      .orderBy(pushSubscriptions.id);

  const subscribeOk = async (api: ApiClient, device: PushSubscriptionJson) => {
    const res = await api.post('/api/push/suscripciones', device);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', msg: MSG.pushSuscrito });
  };

  /** A one-level client: a buyer, an Autorizador (Ana) and a product; both signed in. */
  async function world() {
    const tag = uniq('push');
    const c = await makeClient(db(), { cantidadAutorizadores: 1, limiteDeCompras: -1 });
    const category = await makeCategory(db(), c.id, 'Papelería');
    const buyer = await makeUser(db(), {
      rol: 1,
      idCliente: c.id,
      presupuestoDefault: 10_000_000,
      limiteDeCompras: -1,
      nombre: 'Beto Comprador',
      email: `${tag}-beto@example.test`,
    });
    const ana = await makeUser(db(), { rol: 2, idCliente: c.id, email: `${tag}-ana@example.test` });
    const product = await makeProduct(db(), { idCliente: c.id, idCategoria: category.id, precio: 12_345 });
    await assign(db(), buyer.id, product.id, 500);
    const api = { buyer: await login(t, buyer), ana: await login(t, ana) };
    const purchase = async () => {
      const added = await api.buyer.post('/api/carrito/nuevo_item', {
        item: { id: product.id, cantidad: 1 },
      });
      expect(added.statusCode, added.body).toBe(200);
      const res = await api.buyer.post('/api/compra', {
        orden: [{ id: product.id, cantidad: 1 }],
        fecha: businessDate(new Date()),
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().pedido as { id: number; total: number };
    };
    const choose = (who: ApiClient, canales: Record<string, string>, extra: object = {}) =>
      who.put('/api/notificaciones/preferencias', { canales, resumen_hora: 8, ...extra }).then((res) => {
        expect(res.statusCode, res.body).toBe(200);
        return res.json();
      });
    return { tag, client: c, buyer, ana, product, api, purchase, choose };
  }

  it('the key: the portal’s VAPID public key for any signed-in person, its private half sealed; one pair even when two starts race', async () => {
    expect(Buffer.from(clave, 'base64url')).toHaveLength(65);
    expect(Buffer.from(clave, 'base64url')[0]).toBe(4);
    const [row] = await db().select().from(pushVapid);
    expect(row!.clavePublica).toBe(clave);
    expect(row!.clavePrivadaCifrada).toMatch(/^v1\./);
    const opened = openWithRing(encryptionRing(t.app.keys), row!.clavePrivadaCifrada, vapidContext(1));
    expect(Buffer.from(opened.plaintext, 'base64url')).toHaveLength(32);
    expect(row!.clavePrivadaCifrada).not.toContain(opened.plaintext);
    // Every role may ask; nobody signed out may.
    const w = await world();
    expect((await w.api.buyer.get('/api/push/clave')).json()).toEqual({ clave });
    expect((await new ApiClient(t.app).get('/api/push/clave')).statusCode).toBe(401);
    // Two instances starting at once on an empty table: the one pair that won, for both.
    const sdb = strict.database.db;
    await sdb.delete(pushVapid);
    const [a, b] = await Promise.all([loadVapidKeys(strict.app.deps), loadVapidKeys(strict.app.deps)]);
    expect(a.publicKey).toBe(b.publicKey);
    expect(a.privateKey).toBe(b.privateKey);
    expect(await sdb.select().from(pushVapid)).toHaveLength(1);
    expect(a.publicKey).not.toBe(clave);
  });

  it('subscribing: the browser’s subscription is kept with its session, again refreshes it; bad ones are Spanish 400s and nothing is kept', async () => {
    const w = await world();
    const device = receiver.subscribe();
    await subscribeOk(w.api.ana, device);
    const [kept] = await devicesOf(w.ana.id);
    expect(kept).toMatchObject({
      endpoint: device.endpoint,
      p256dh: device.keys.p256dh,
      auth: device.keys.auth,
    });
    const [session] = await db().select().from(sessions).where(eq(sessions.id, kept!.sessionId!));
    expect(session!.userId).toBe(w.ana.id);
    expect((await w.api.ana.get('/api/notificaciones/preferencias')).json()).toMatchObject({
      telefonos: 1,
      importes_en_telefono: false,
    });
    await subscribeOk(w.api.ana, device);
    const again = await devicesOf(w.ana.id);
    expect(again).toHaveLength(1);
    expect(again[0]!.lastUsedAt.getTime()).toBeGreaterThanOrEqual(kept!.lastUsedAt.getTime());

    const point = Buffer.from(device.keys.p256dh, 'base64url');
    const off = Buffer.from(point);
    off[64]! ^= 1;
    const notPoint = Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 1)]);
    const compressed = Buffer.concat([Buffer.from([3]), point.subarray(1)]);
    const keys = device.keys;
    const bad: [api: ApiClient, body: unknown, code: string, field: string, msg: string][] = [
      [
        w.api.ana,
        { ...device, endpoint: 'no es una dirección' },
        'VALIDATION',
        'endpoint',
        MSG.pushEndpointInvalido,
      ],
      [
        w.api.ana,
        { ...device, endpoint: 'ftp://93.184.216.34/x' },
        'VALIDATION',
        'endpoint',
        MSG.pushEndpointInvalido,
      ],
      [w.api.ana, { keys }, 'VALIDATION', 'endpoint', MSG.pushEndpointInvalido],
      [w.api.ana, { endpoint: `${PUBLIC_ENDPOINT}a` }, 'VALIDATION', 'keys', MSG.pushClaveInvalida],
      [
        w.api.ana,
        { endpoint: `${PUBLIC_ENDPOINT}a`, keys: { auth: keys.auth } },
        'VALIDATION',
        'keys.p256dh',
        MSG.pushClaveInvalida,
      ],
      [
        w.api.ana,
        { endpoint: `${PUBLIC_ENDPOINT}a`, keys: { p256dh: keys.p256dh } },
        'VALIDATION',
        'keys.auth',
        MSG.pushAuthInvalido,
      ],
      // Plain http to a public host, even where a local receiver is allowed.
      [
        w.api.ana,
        { ...device, endpoint: 'http://93.184.216.34/push/x' },
        'PUSH_HTTPS',
        'endpoint',
        MSG.pushEndpointHttps,
      ],
      [
        w.api.ana,
        { ...device, endpoint: 'https://usuario:clave@93.184.216.34/push/x' },
        'PUSH_CREDENTIALS',
        'endpoint',
        MSG.pushEndpointCredenciales,
      ],
      [
        w.api.ana,
        { ...device, keys: { ...keys, p256dh: point.subarray(0, 64).toString('base64url') } },
        'VALIDATION',
        'keys.p256dh',
        MSG.pushClaveInvalida,
      ],
      [
        w.api.ana,
        { ...device, keys: { ...keys, p256dh: compressed.toString('base64url') } },
        'VALIDATION',
        'keys.p256dh',
        MSG.pushClaveInvalida,
      ],
      [
        w.api.ana,
        { ...device, keys: { ...keys, p256dh: `${keys.p256dh}!` } },
        'VALIDATION',
        'keys.p256dh',
        MSG.pushClaveInvalida,
      ],
      // 65 bytes that start right but are no point of P-256 (one changed, or made up).
      [
        w.api.ana,
        { ...device, endpoint: `${PUBLIC_ENDPOINT}b`, keys: { ...keys, p256dh: off.toString('base64url') } },
        'VALIDATION',
        'keys.p256dh',
        MSG.pushClaveInvalida,
      ],
      [
        w.api.ana,
        {
          ...device,
          endpoint: `${PUBLIC_ENDPOINT}c`,
          keys: { ...keys, p256dh: notPoint.toString('base64url') },
        },
        'VALIDATION',
        'keys.p256dh',
        MSG.pushClaveInvalida,
      ],
      [
        w.api.ana,
        { ...device, keys: { ...keys, auth: Buffer.alloc(15, 9).toString('base64url') } },
        'VALIDATION',
        'keys.auth',
        MSG.pushAuthInvalido,
      ],
    ];
    for (const [api, body, code, field, msg] of bad) {
      const res = await api.post('/api/push/suscripciones', body);
      expect(res.statusCode, `${JSON.stringify(body)} ${res.body}`).toBe(400);
      expect(res.json(), JSON.stringify(body)).toMatchObject({ code });
      expect(res.json().errors?.[field], JSON.stringify(body)).toBe(msg);
    }
    // Without PUSH_ALLOW_PRIVATE: loopback and private addresses are refused, over https or http.
    const sdb = strict.database.db;
    const other = await makeUser(sdb, { rol: 1, idCliente: (await makeClient(sdb)).id });
    const strictApi = await login(strict, other);
    for (const endpoint of [
      device.endpoint,
      `https://127.0.0.1:${receiver.port}/push/x`,
      'https://10.1.2.3/push/x',
      'https://[::ffff:169.254.169.254]/push/x',
    ]) {
      const res = await strictApi.post('/api/push/suscripciones', { ...device, endpoint });
      expect(res.statusCode, endpoint).toBe(400);
      expect(res.json().code, endpoint).toBe(endpoint.startsWith('http:') ? 'PUSH_HTTPS' : 'PUSH_PRIVATE');
    }
    const publicOne = await strictApi.post('/api/push/suscripciones', {
      ...device,
      endpoint: `${PUBLIC_ENDPOINT}ok`,
    });
    expect(publicOne.statusCode, publicOne.body).toBe(200);
    // Only the two good subscriptions were kept.
    expect((await devicesOf(w.ana.id)).map((d) => d.endpoint)).toEqual([device.endpoint]);
    expect(await sdb.select().from(pushSubscriptions)).toHaveLength(1);
  });

  it(`at most ${PUSH_DEVICES_PER_USER} devices: one more removes the one used longest ago`, async () => {
    const w = await world();
    const devices = Array.from({ length: PUSH_DEVICES_PER_USER }, () => receiver.subscribe());
    for (const d of devices) await subscribeOk(w.api.ana, d);
    // The first one is used again (the web posts it at each start): the second is now the oldest.
    await subscribeOk(w.api.ana, devices[0]!);
    const extra = receiver.subscribe();
    await subscribeOk(w.api.ana, extra);
    const kept = (await devicesOf(w.ana.id)).map((d) => d.endpoint);
    expect(kept).toHaveLength(PUSH_DEVICES_PER_USER);
    expect(kept).toContain(devices[0]!.endpoint);
    expect(kept).toContain(extra.endpoint);
    expect(kept).not.toContain(devices[1]!.endpoint);
  });

  it('another person’s endpoint: subscribing it moves the device; unsubscribing it answers like a missing one', async () => {
    const w = await world();
    const device = receiver.subscribe();
    await subscribeOk(w.api.ana, device);
    // The same browser, now signed in as the buyer (the device changed hands).
    await subscribeOk(w.api.buyer, device);
    expect(await devicesOf(w.ana.id)).toEqual([]);
    expect((await devicesOf(w.buyer.id)).map((d) => d.endpoint)).toEqual([device.endpoint]);
    const del = (api: ApiClient, endpoint: string) =>
      api.request('DELETE', '/api/push/suscripciones', { endpoint });
    for (const res of [
      await del(w.api.ana, device.endpoint),
      await del(w.api.ana, `${PUBLIC_ENDPOINT}nunca`),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({
        code: 'PUSH_SUBSCRIPTION_NOT_FOUND',
        msg: MSG.pushSuscripcionNoEncontrada,
      });
    }
    const bad = await del(w.api.buyer, 'no es una dirección');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.endpoint).toBe(MSG.pushEndpointInvalido);
    expect((await devicesOf(w.buyer.id)).map((d) => d.endpoint)).toEqual([device.endpoint]);
    const ok = await del(w.api.buyer, device.endpoint);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ status: 'ok', msg: MSG.pushBaja });
    expect(await devicesOf(w.buyer.id)).toEqual([]);
    expect((await del(w.api.buyer, device.endpoint)).statusCode).toBe(404);
    expect(
      (await new ApiClient(t.app).request('DELETE', '/api/push/suscripciones', { endpoint: device.endpoint }))
        .statusCode,
    ).toBe(401);
  });

  it('signing out removes the devices that session subscribed, and only those; a password change carries them to the new session', async () => {
    const w = await world();
    const phone = receiver.subscribe();
    const laptop = receiver.subscribe();
    const onLaptop = await login(t, w.ana);
    await subscribeOk(w.api.ana, phone);
    await subscribeOk(onLaptop, laptop);
    expect((await onLaptop.get('/api/logout')).statusCode).toBe(200);
    expect((await devicesOf(w.ana.id)).map((d) => d.endpoint)).toEqual([phone.endpoint]);

    // A password change ends every session and opens a new one for this browser: its device follows it.
    const changed = await w.api.ana.post('/api/repassword', {
      password: TEST_PASSWORD,
      newPass: 'Telefono#2027x',
      confirmPass: 'Telefono#2027x',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await devicesOf(w.ana.id)).map((d) => d.endpoint)).toEqual([phone.endpoint]);
    // The password notice is an account message: an e-mail, never a bell item, never a push.
    expect(await db().select().from(notifications).where(eq(notifications.userId, w.ana.id))).toEqual([]);
    expect((await w.api.ana.get('/api/logout')).statusCode).toBe(200);
    expect(await devicesOf(w.ana.id)).toEqual([]);
    expect(await (await sender()).runOnce()).toEqual({ entregados: 0, reintentos: 0, fallidos: 0, bajas: 0 });
    expect(receiver.pushesTo(phone.endpoint)).toEqual([]);
  });

  it('an order to review, for an approver who chose the phone: the bell item, no e-mail, and one push that decrypts to its title and path, no amount; amounts when chosen', async () => {
    const w = await world();
    const prefs = await w.choose(w.api.ana, { por_revisar: 'telefono' });
    expect(prefs.canales.por_revisar).toBe('telefono');
    const device = receiver.subscribe();
    await subscribeOk(w.api.ana, device);
    const order = await w.purchase();
    const numero = String(order.id).padStart(5, '0');

    const [item] = await db().select().from(notifications).where(eq(notifications.userId, w.ana.id));
    expect(item).toMatchObject({ tipo: 'por_revisar', titulo: `Pedido #${numero} por revisar`, push: true });
    expect(item!.pushAt).toBeNull();
    expect((await w.api.ana.get('/api/notificaciones')).json()).toMatchObject({ no_leidas: 1 });
    const mails = await db()
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.to, `${w.tag}-ana@example.test`));
    expect(mails).toEqual([]);

    const run = await (await sender()).runOnce();
    expect(run).toEqual({ entregados: 1, reintentos: 0, fallidos: 0, bajas: 0 });
    const [push] = receiver.pushesTo(device.endpoint);
    expect(push!.vapid).toMatchObject({ ok: true, k: clave });
    expect(push!.vapid.claims).toMatchObject({
      aud: receiver.origin,
      sub: 'mailto:no-reply@portal-de-compras.local',
    });
    expect(push!.status).toBe(201);
    expect(push!.payload).toEqual({
      titulo: `Pedido #${numero} por revisar`,
      texto: 'Toca para revisarlo.',
      ruta: `/autorizador/orden/${order.id}`,
      id: item!.id,
    });
    expect(push!.plaintext).not.toMatch(/\$|MXN|143\.2/);
    expect(push!.headers).toEqual({
      ttl: String(PUSH_TTL_SECONDS),
      urgency: 'high',
      topic: String(item!.id),
      contentEncoding: 'aes128gcm',
    });
    expect(push!.bytes).toBeLessThan(1024);
    const [delivery] = await db()
      .select()
      .from(pushDeliveries)
      .where(eq(pushDeliveries.notificationId, item!.id));
    expect(delivery).toMatchObject({ estado: 'entregado', intentos: 1, codigo: 201, error: null });
    // Taken once: another run sends nothing more.
    expect((await (await sender()).runOnce()).entregados).toBe(0);
    expect(receiver.pushesTo(device.endpoint)).toHaveLength(1);

    // The approver chooses to see amounts on the phone: the next push says the order's sentence.
    const withAmounts = await w.choose(w.api.ana, {}, { importes_en_telefono: true });
    expect(withAmounts).toMatchObject({ importes_en_telefono: true, canales: { por_revisar: 'telefono' } });
    const next = await w.purchase();
    await (await sender()).runOnce();
    const second = receiver.pushesTo(device.endpoint)[1]!;
    expect(second.payload).toMatchObject({
      titulo: `Pedido #${String(next.id).padStart(5, '0')} por revisar`,
      ruta: `/autorizador/orden/${next.id}`,
    });
    expect((second.payload as { texto: string }).texto).toBe(
      `Beto Comprador envió el pedido #${String(next.id).padStart(5, '0')} por ${formatCentavos(Math.round(next.total * 100))}. Está pendiente de tu revisión.`,
    );
    // A preference left out of a later change stays as it was; a wrong one is refused in Spanish.
    expect((await w.choose(w.api.ana, { comentario: 'portal' })).importes_en_telefono).toBe(true);
    const refused = await w.api.ana.put('/api/notificaciones/preferencias', {
      canales: {},
      resumen_hora: 8,
      importes_en_telefono: 'sí',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors.importes_en_telefono).toBe(MSG.importesEnTelefonoInvalido);

    // The buyer's own kind, on the buyer's phone: the approval, with normal urgency.
    await w.choose(w.api.buyer, { pedido: 'telefono' });
    const buyerPhone = receiver.subscribe();
    await subscribeOk(w.api.buyer, buyerPhone);
    const approved = await w.api.ana.post('/api/update/compra', {
      id: order.id,
      orden: [{ id: w.product.id, cantidad: 1 }],
    });
    expect(approved.statusCode, approved.body).toBe(200);
    await (await sender()).runOnce();
    const [toBuyer] = receiver.pushesTo(buyerPhone.endpoint);
    expect(toBuyer!.payload).toMatchObject({
      titulo: `Pedido #${numero} aprobado`,
      texto: 'Toca para ver tu pedido.',
      ruta: `/usuario/historial/${order.id}`,
    });
    expect(toBuyer!.headers.urgency).toBe('normal');
    expect(
      await db()
        .select()
        .from(emailOutbox)
        .where(eq(emailOutbox.to, `${w.tag}-beto@example.test`)),
    ).toEqual([]);
  });

  /** An approver on the phone with one device, and an order waiting to be pushed to it. */
  async function waitingPush() {
    const w = await world();
    await w.choose(w.api.ana, { por_revisar: 'telefono' });
    const device = receiver.subscribe();
    await subscribeOk(w.api.ana, device);
    const order = await w.purchase();
    const [item] = await db().select().from(notifications).where(eq(notifications.userId, w.ana.id));
    const deliveries = () =>
      db().select().from(pushDeliveries).where(eq(pushDeliveries.notificationId, item!.id));
    return { ...w, device, order, item: item!, deliveries };
  }

  it('404 and 410 from the push service remove the device; the record stays', async () => {
    for (const status of [410, 404]) {
      const w = await waitingPush();
      receiver.answer(w.device.endpoint, [status]);
      expect(await (await sender()).runOnce()).toEqual({
        entregados: 0,
        reintentos: 0,
        fallidos: 0,
        bajas: 1,
      });
      expect(await devicesOf(w.ana.id)).toEqual([]);
      expect(await w.deliveries()).toMatchObject([
        { estado: 'fallido', codigo: status, subscriptionId: null, error: MSG.pushRechazado(status) },
      ]);
      expect((await w.api.ana.get('/api/notificaciones/preferencias')).json().telefonos).toBe(0);
      // The item is still in the bell.
      expect((await w.api.ana.get('/api/notificaciones')).json().no_leidas).toBe(1);
    }
  });

  it('a 500 is retried with waits that double, then given up; a retry that succeeds counts once', async () => {
    const clock = manualClock(new Date());
    const w = await waitingPush();
    receiver.answer(w.device.endpoint, [500]);
    const s = await sender(clock);
    expect((await s.runOnce()).reintentos).toBe(1);
    let [d] = await w.deliveries();
    expect(d).toMatchObject({ estado: 'pendiente', intentos: 1, codigo: 500, error: MSG.pushRechazado(500) });
    expect(d!.siguienteIntentoAt!.getTime()).toBe(clock.ms() + 60_000);
    // Not due yet: nothing is sent.
    expect(await s.runOnce()).toEqual({ entregados: 0, reintentos: 0, fallidos: 0, bajas: 0 });
    for (let attempt = 2; attempt <= PUSH_MAX_ATTEMPTS; attempt++) {
      clock.advance(HOUR);
      const run = await s.runOnce();
      [d] = await w.deliveries();
      if (attempt < PUSH_MAX_ATTEMPTS) {
        expect(run.reintentos).toBe(1);
        expect(d!.siguienteIntentoAt!.getTime()).toBe(clock.ms() + 60_000 * 2 ** (attempt - 1));
      } else expect(run.fallidos).toBe(1);
      expect(d!.intentos).toBe(attempt);
    }
    expect(d).toMatchObject({ estado: 'fallido', codigo: 500, siguienteIntentoAt: null });
    clock.advance(24 * HOUR);
    expect((await s.runOnce()).fallidos).toBe(0);
    const pushes = receiver.pushesTo(w.device.endpoint);
    expect(pushes).toHaveLength(PUSH_MAX_ATTEMPTS);
    // Each attempt is the same push, readable and signed.
    for (const p of pushes) expect(p.payload).toMatchObject({ id: w.item.id });
    expect(await devicesOf(w.ana.id)).toHaveLength(1);

    const v = await waitingPush();
    receiver.answer(v.device.endpoint, [503, 201]);
    expect((await s.runOnce()).reintentos).toBe(1);
    clock.advance(HOUR);
    expect((await s.runOnce()).entregados).toBe(1);
    expect(await v.deliveries()).toMatchObject([{ estado: 'entregado', intentos: 2, codigo: 201 }]);
    expect(receiver.pushesTo(v.device.endpoint).map((p) => p.status)).toEqual([503, 201]);
  });

  it('a person deactivated meanwhile gets nothing: neither the waiting item nor a retry', async () => {
    const admin = await login(t, await makeUser(db(), { rol: 4, idCliente: null }));
    const deactivate = async (userId: number) => {
      const res = await admin.post('/api/usuarios/desactivar_lote', { ids: [userId] });
      expect(res.statusCode, res.body).toBe(200);
    };
    const waiting = await waitingPush();
    await deactivate(waiting.ana.id);
    expect(await (await sender()).runOnce()).toEqual({ entregados: 0, reintentos: 0, fallidos: 0, bajas: 0 });
    expect(receiver.pushesTo(waiting.device.endpoint)).toEqual([]);
    const [taken] = await db().select().from(notifications).where(eq(notifications.id, waiting.item.id));
    expect(taken!.pushAt).not.toBeNull();
    expect(await waiting.deliveries()).toEqual([]);

    const clock = manualClock(new Date());
    const retrying = await waitingPush();
    receiver.answer(retrying.device.endpoint, [500, 201]);
    expect((await (await sender(clock)).runOnce()).reintentos).toBe(1);
    await deactivate(retrying.ana.id);
    clock.advance(HOUR);
    expect((await (await sender(clock)).runOnce()).fallidos).toBe(1);
    expect(await retrying.deliveries()).toMatchObject([{ estado: 'fallido', error: MSG.pushCuentaInactiva }]);
    expect(receiver.pushesTo(retrying.device.endpoint).map((p) => p.status)).toEqual([500]);
  });

  it('two senders at once push each item to each device once', async () => {
    const w = await world();
    const phones = [receiver.subscribe(), receiver.subscribe()];
    for (const p of phones) await subscribeOk(w.api.ana, p);
    const items = await db()
      .insert(notifications)
      .values(
        Array.from({ length: 45 }, (_, i) => ({
          userId: w.ana.id,
          tipo: 'por_revisar',
          titulo: `Pedido #${90_000 + i} por revisar`,
          texto: 'Texto',
          ruta: `/autorizador/orden/${90_000 + i}`,
          push: true,
        })),
      )
      .returning({ id: notifications.id });
    const [a, b] = await Promise.all([sender(), sender()]);
    const runs = await Promise.all([a.runOnce(), b.runOnce(), a.runOnce()]);
    expect(runs.reduce((n, r) => n + r.entregados, 0)).toBe(items.length * phones.length);
    for (const p of phones) {
      const topics = receiver.pushesTo(p.endpoint).map((x) => Number(x.headers.topic));
      expect(topics.sort((x, y) => x - y)).toEqual(items.map((i) => i.id).sort((x, y) => x - y));
    }
    const left = await db()
      .select({ id: notifications.id })
      .from(notifications)
      .where(and(eq(notifications.userId, w.ana.id), eq(notifications.push, true)));
    expect(left).toHaveLength(items.length);
    expect(
      (await db().select().from(pushDeliveries)).filter((d) => items.some((i) => i.id === d.notificationId)),
    ).toHaveLength(items.length * phones.length);
  });
});
