import { sealLogin } from '@portal/shared/domain/login-envelope';
import { COMENTARIOS_POR_HORA } from '@portal/shared/limits';
import { and, count, desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { authAttempts, systemLogs, webhookDeliveries, webhookEndpoints } from '../db/schema/index.ts';
import { manualClock } from '../lib/clock.ts';
import { sealSecret } from '../lib/secret-box.ts';
import { MSG } from '../messages.ts';
import { LOGIN_MAX_PER_IP } from '../modules/auth/auth.service.ts';
import { secretContext } from '../modules/integration/webhook-delivery.ts';
import { recordWebhookEvent } from '../modules/integration/webhook-outbox.ts';
import {
  makeCategory,
  makeClient,
  makeOrder,
  makeProduct,
  makeUser,
  TEST_PASSWORD,
} from '../test/factories.ts';
import { ApiClient, createTestApp, DB_KINDS, type TestApp } from '../test/harness.ts';
import { startReceiver } from '../test/webhook-receiver.ts';

/**
 * The outside review of 2d009df (issue 38, part A): each finding reproduced as the review did, against the
 * fix. Findings whose ground is another file of this suite are tested there (named "issue 38, finding N").
 */
describe.each(DB_KINDS)('review of 2d009df: findings (%s)', (kind) => {
  let t: TestApp;
  let admin: ApiClient;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    // As in production: no private webhook targets.
    [t, receiver] = await Promise.all([createTestApp(kind), startReceiver()]);
    admin = await new ApiClient(t.app).loginOk(
      (await makeUser(t.database.db, { rol: 4, idCliente: null })).usuario,
      TEST_PASSWORD,
    );
  });
  afterAll(async () => {
    await Promise.all([t?.close(), receiver?.close()]);
  });

  it('finding 6: a person is held to 30 comments an hour and may write again when the hour has passed', async () => {
    const clock = manualClock(t.app.clock.now());
    const timed = await createTestApp(kind, { clock });
    try {
      const db = timed.database.db;
      const client = await makeClient(db);
      const buyer = await makeUser(db, { rol: 1, idCliente: client.id });
      const category = await makeCategory(db, client.id);
      const product = await makeProduct(db, { idCliente: client.id, idCategoria: category.id, precio: 100 });
      const order = await makeOrder(db, {
        idUser: buyer.id,
        idCliente: client.id,
        lines: [{ productId: product.id, precio: 100, cantidad: 1, idCategoria: category.id }],
      });
      const api = await new ApiClient(timed.app).loginOk(buyer.usuario, TEST_PASSWORD);
      const comment = (texto: string) => api.post(`/api/historial/${order.id}/comentarios`, { texto });
      for (let i = 0; i < COMENTARIOS_POR_HORA; i++) {
        expect((await comment(`Uno más ${i}`)).statusCode).toBe(201);
        clock.advance(60_000);
      }
      // The first of them was written 30 minutes ago: it leaves the hour in 30 minutes.
      const refused = await comment('Uno de más');
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toBe(String(30 * 60));
      clock.advance(30 * 60_000);
      expect((await comment('Ya pasó la hora del primero')).statusCode).toBe(201);
    } finally {
      await timed.close();
    }
  });

  it('finding 3: past the address ceiling, new typed names write no more log or attempt rows', async () => {
    const db = t.database.db;
    const address = `10.38.3.${kind === 'pglite' ? 1 : 2}`;
    const c = new ApiClient(t.app, address);
    const login = async (usuario: string) => {
      await c.csrf();
      return c.post('/api/login', sealLogin({ usuario, password: 'Mala#2026x' }, c.xsrf!, t.app.clock.ms()));
    };
    // The address's ceiling in failures, each under a name of its own (never a name's own ceiling).
    for (let i = 0; i < LOGIN_MAX_PER_IP; i++)
      expect((await login(`nombre_${i}_${kind}`)).statusCode).toBe(401);
    const rowsOf = async () => {
      const [logs] = await db
        .select({ n: count() })
        .from(systemLogs)
        .where(
          and(eq(systemLogs.eventType, 'login_bloqueado'), sql`${systemLogs.metadata}->>'ip' = ${address}`),
        );
      const [attempts] = await db
        .select({ n: count() })
        .from(authAttempts)
        .where(eq(authAttempts.ip, address));
      return { logs: logs!.n, attempts: attempts!.n };
    };
    const atCeiling = await rowsOf();
    for (let i = 0; i < 60; i++) expect((await login(`otro_${i}_${kind}`)).statusCode).toBe(429);
    const after = await rowsOf();
    // One row of each, for the address and the window, however many names follow.
    expect(after.logs - atCeiling.logs).toBe(1);
    expect(after.attempts - atCeiling.attempts).toBe(1);
  });

  it('finding 2: a hop count in TRUST_PROXY is refused at start, saying what to set', async () => {
    expect(() => loadConfig({ TRUST_PROXY: '1' })).toThrow(/indica las direcciones del proxy \(127\.0\.0\.1/);
    await expect(createTestApp(kind, { env: { TRUST_PROXY: '2' } })).rejects.toThrow(/TRUST_PROXY/);
    // By address, a client that connects directly is known by its socket whatever it forwards.
    const proxied = await createTestApp(kind, { env: { TRUST_PROXY: '127.0.0.1' } });
    try {
      const usuario = `nadie_${process.pid}_${kind}`;
      const direct = new ApiClient(proxied.app, '10.9.9.9');
      await direct.csrf();
      const res = await direct.post(
        '/api/login',
        sealLogin({ usuario, password: 'Mala#2026x' }, direct.xsrf!, proxied.app.clock.ms()),
        { headers: { 'x-forwarded-for': '203.0.113.7' } },
      );
      expect(res.statusCode).toBe(401);
      const [entry] = await proxied.database.db
        .select()
        .from(systemLogs)
        .where(eq(systemLogs.eventType, 'login_fallido'))
        .orderBy(desc(systemLogs.id))
        .limit(1);
      expect(entry?.metadata).toMatchObject({ ip: '10.9.9.9' });
    } finally {
      await proxied.close();
    }
  });

  it('finding 1: IPv4-mapped IPv6, NAT64, numeric and credential URLs never reach this machine or the metadata service', async () => {
    for (const url of [
      `http://[::ffff:127.0.0.1]:${receiver.port}/`,
      'http://[::ffff:169.254.169.254]/latest/meta-data/',
      'http://[::ffff:192.168.0.1]/',
      'http://[::ffff:10.0.0.1]/',
      `http://[64:ff9b::7f00:1]:${receiver.port}/`,
      `http://[2002:7f00:1::1]:${receiver.port}/`,
      `http://[::]:${receiver.port}/`,
      `http://0:${receiver.port}/`,
      `http://2130706433:${receiver.port}/`,
      `http://0x7f000001:${receiver.port}/`,
      `http://0177.0.0.1:${receiver.port}/`,
    ]) {
      const res = await admin.post('/api/integracion/webhooks', {
        url,
        eventos: ['pedido.creado'],
        id_cliente: null,
      });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().code, url).toBe('WEBHOOK_PRIVATE');
    }
    const credentials = await admin.post('/api/integracion/webhooks', {
      url: 'https://operador:secreto@example.com/hook',
      eventos: ['pedido.creado'],
      id_cliente: null,
    });
    expect(credentials.statusCode).toBe(400);
    expect(credentials.json()).toMatchObject({
      code: 'WEBHOOK_CREDENTIALS',
      msg: MSG.webhookUrlCredenciales,
    });

    // An endpoint already stored with such an address is refused at delivery, and the log says only that.
    const db = t.database.db;
    const client = await makeClient(db);
    const buyer = await makeUser(db, { rol: 1, idCliente: client.id });
    const [endpoint] = await db
      .insert(webhookEndpoints)
      .values({
        url: `http://[::ffff:7f00:1]:${receiver.port}/dentro`,
        eventos: ['pedido.creado'],
        idCliente: client.id,
        secretoCifrado: '',
      })
      .returning();
    await db
      .update(webhookEndpoints)
      .set({ secretoCifrado: sealSecret(t.app.keys.encryption, 'whsec_x', secretContext(endpoint!.id)) })
      .where(eq(webhookEndpoints.id, endpoint!.id));
    const category = await makeCategory(db, client.id);
    const product = await makeProduct(db, { idCliente: client.id, idCategoria: category.id, precio: 100 });
    const order = await makeOrder(db, {
      idUser: buyer.id,
      idCliente: client.id,
      lines: [{ productId: product.id, precio: 100, cantidad: 1, idCategoria: category.id }],
    });
    await db.transaction((tx) =>
      recordWebhookEvent(tx, t.app, { clientId: client.id, type: 'pedido.creado', orderId: order.id }),
    );
    let row: typeof webhookDeliveries.$inferSelect | undefined;
    for (let i = 0; i < 150 && !row?.ultimoError; i++) {
      await new Promise((r) => setTimeout(r, 100));
      [row] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpoint!.id));
    }
    expect(row?.ultimoError).toBe(MSG.entregaNoPermitida);
    expect(row?.ultimoCodigo).toBeNull();
    expect(receiver.at('/dentro')).toEqual([]);
  });
});
