import { CLAIM_PHOTO_MAX_BYTES } from '@portal/shared/domain/claims';
import { addCalendarMonths } from '@portal/shared/domain/time';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiIdempotencyKeys,
  apiTokens,
  approvalReminders,
  authAttempts,
  budgetAlerts,
  emailOutbox,
  lateLineDigests,
  notifications,
  orderClaims,
  orderPhotos,
  passwordTokens,
  pushDeliveries,
  pushSubscriptions,
  scheduledPrices,
  scimTokens,
  ssoLogins,
  storedFileParts,
  storedFiles,
  systemLogs,
  webhookDeliveries,
  webhookEndpoints,
  webhookEvents,
} from '../db/schema/index.ts';
import { makeCategory, makeClient, makeOrder, makeProduct, makeUser, uniq } from '../test/factories.ts';
import { fixture } from '../test/fixture-files.ts';
import { createTestApp, DB_KINDS, type TestApp } from '../test/harness.ts';
import { manualClock } from './clock.ts';
import { insertPreparedFiles, preparePhoto } from './files.ts';
import {
  RETENTION_CRON,
  RETENTION_QUEUE,
  type RetentionSettings,
  retentionSettings,
  runRetention,
} from './retention.ts';

/** Monday 15 June 2026, 12:00 UTC: "now" for the whole server of this file. */
const NOW = new Date('2026-06-15T12:00:00Z');
const SECOND = 1000;
const DAY = 86_400_000;
const daysAgo = (days: number, plusMs = 0) => new Date(NOW.getTime() - days * DAY + plusMs);

describe.each(DB_KINDS)('retention job (%s)', (kind) => {
  let t: TestApp;
  const clock = manualClock(NOW);
  beforeAll(async () => {
    t = await createTestApp(kind, { clock });
  });
  afterAll(async () => {
    await t?.close();
  });
  const db = () => t.database.db;
  const tz = () => t.config.BUSINESS_TZ;
  const monthsAgo = (months: number, plusMs = 0) =>
    new Date(addCalendarMonths(NOW.getTime(), -months, tz()) + plusMs);
  const settings = (over: Partial<RetentionSettings> = {}): RetentionSettings => ({
    ...retentionSettings(t.config),
    ...over,
  });
  const purgeEntries = () =>
    db().select().from(systemLogs).where(eq(systemLogs.eventType, 'datos_depurados')).orderBy(systemLogs.id);

  /** `n` sign-in attempts from `ip`, the i-th made at `at(i)`. */
  const oldAttempts = (n: number, ip: string, at: (i: number) => Date) =>
    db()
      .insert(authAttempts)
      .values(
        Array.from({ length: n }, (_, i) => ({ kind: 'login', subject: uniq('s'), ip, createdAt: at(i) })),
      );

  /** A client with a buyer, an order and a webhook endpoint. */
  async function world() {
    const client = await makeClient(db());
    const buyer = await makeUser(db(), { rol: 1, idCliente: client.id });
    // Invited, never set a password: the banner of unsent access e-mails reads their latest one.
    const newcomer = await makeUser(db(), { rol: 1, idCliente: client.id, passwordHash: null });
    const category = await makeCategory(db(), client.id);
    const product = await makeProduct(db(), { idCliente: client.id, idCategoria: category.id, precio: 100 });
    const order = await makeOrder(db(), {
      idUser: buyer.id,
      idCliente: client.id,
      lines: [{ productId: product.id, precio: 100, cantidad: 1, idCategoria: category.id }],
    });
    const endpoint = async () =>
      (
        await db()
          .insert(webhookEndpoints)
          .values({
            url: 'https://receptor.example.test/',
            eventos: ['pedido.creado'],
            idCliente: client.id,
            secretoCifrado: 'x',
          })
          .returning()
      )[0]!;
    const endpoints = [await endpoint(), await endpoint()];
    /** An event created at `createdAt` with one delivery per given state (and delivery time). */
    const event = async (createdAt: Date, deliveries: { estado: string; entregadoEn?: Date }[]) => {
      const id = uniq('evento');
      await db().insert(webhookEvents).values({
        id,
        tipo: 'pedido.creado',
        orderId: order.id,
        idCliente: client.id,
        cuerpo: '{}',
        createdAt,
      });
      await db()
        .insert(webhookDeliveries)
        .values(
          deliveries.map((d, i) => ({
            eventId: id,
            endpointId: endpoints[i]!.id,
            estado: d.estado,
            entregadoEn: d.entregadoEn ?? null,
            createdAt,
            reintentosDesde: createdAt,
          })),
        );
      return id;
    };
    return { client, buyer, newcomer, category, product, order, event };
  }

  it('is scheduled daily at 03:15 in the business time zone', async () => {
    const rows = await db().execute(
      sql`select cron, timezone from pgboss.schedule where name = ${RETENTION_QUEUE}`,
    );
    const list = Array.isArray(rows) ? rows : (rows as unknown as { rows: unknown[] }).rows;
    expect(list).toEqual([{ cron: RETENTION_CRON, timezone: tz() }]);
    expect(RETENTION_CRON).toBe('15 3 * * *');
  });

  it('removes exactly what aged out of every kind, keeps what is still needed, and logs the counts', async () => {
    // Whatever an earlier start left is settled first: from here on, the counts are this test's rows.
    await runRetention(db(), settings(), t.app.clock.now(), tz());
    const w = await world();
    const cutoff90 = daysAgo(90);

    // Webhooks: 90 days after every delivery succeeded.
    const allDelivered = await w.event(daysAgo(120), [
      { estado: 'entregado', entregadoEn: daysAgo(119) },
      { estado: 'entregado', entregadoEn: daysAgo(100) },
    ]);
    const deliveredJustOutside = await w.event(daysAgo(90, -SECOND), [
      { estado: 'entregado', entregadoEn: new Date(cutoff90.getTime() - SECOND) },
    ]);
    const deliveredJustInside = await w.event(daysAgo(120), [
      { estado: 'entregado', entregadoEn: new Date(cutoff90.getTime() + SECOND) },
    ]);
    const oneFailed = await w.event(daysAgo(200), [
      { estado: 'entregado', entregadoEn: daysAgo(200) },
      { estado: 'fallido' },
    ]);
    const pending = await w.event(daysAgo(200), [{ estado: 'pendiente' }]);
    const sending = await w.event(daysAgo(200), [{ estado: 'enviando' }]);
    const recent = await w.event(daysAgo(5), [{ estado: 'entregado', entregadoEn: daysAgo(5) }]);

    // Approval reminders and budget alerts: 13 calendar months.
    await db()
      .insert(approvalReminders)
      .values([
        { userId: w.buyer.id, fecha: '2025-05-14', pedidos: 1, sentAt: monthsAgo(13, -SECOND) },
        { userId: w.buyer.id, fecha: '2025-05-16', pedidos: 1, sentAt: monthsAgo(13, SECOND) },
      ]);
    // The operators' late-lines digests (decision 0125): 13 calendar months too.
    await db()
      .insert(lateLineDigests)
      .values([
        { userId: w.buyer.id, fecha: '2025-05-14', lineas: 2, sentAt: monthsAgo(13, -SECOND) },
        { userId: w.buyer.id, fecha: '2025-05-16', lineas: 2, sentAt: monthsAgo(13, SECOND) },
      ]);
    const alerts = await db()
      .insert(budgetAlerts)
      .values([
        {
          userId: w.buyer.id,
          categoryId: null,
          mes: '2025-05',
          umbral: 80,
          porcentaje: 81,
          sentAt: monthsAgo(13, -SECOND),
        },
        {
          userId: w.buyer.id,
          categoryId: null,
          mes: '2025-05',
          umbral: 100,
          porcentaje: 101,
          sentAt: monthsAgo(13, SECOND),
        },
      ])
      .returning({ id: budgetAlerts.id });

    // The bell's items: 13 calendar months, read or not.
    const items = await db()
      .insert(notifications)
      .values(
        [monthsAgo(13, -SECOND), monthsAgo(13, SECOND)].map((createdAt) => ({
          userId: w.buyer.id,
          tipo: 'pedido',
          titulo: uniq('Aviso'),
          texto: 'texto',
          ruta: '/usuario/principal',
          createdAt,
        })),
      )
      .returning({ id: notifications.id });

    // Web Push (decision 0117): a push's record 7 days; a device 3 calendar months after it was last used,
    // and a deactivated person's at once.
    const quitter = await makeUser(db(), { rol: 1, idCliente: w.client.id, activo: false });
    const device = async (userId: number, lastUsedAt: Date) =>
      (
        await db()
          .insert(pushSubscriptions)
          .values({
            userId,
            endpoint: `https://push.example.test/${uniq('dispositivo')}`,
            p256dh: 'p256dh',
            auth: 'auth',
            createdAt: lastUsedAt,
            lastUsedAt,
          })
          .returning({ id: pushSubscriptions.id })
      )[0]!.id;
    const devices = {
      unusedOutside: await device(w.buyer.id, monthsAgo(3, -SECOND)),
      usedInside: await device(w.buyer.id, monthsAgo(3, SECOND)),
      ofDeactivated: await device(quitter.id, daysAgo(1)),
    };
    const pushes = await db()
      .insert(pushDeliveries)
      .values(
        [
          { subscriptionId: null, createdAt: daysAgo(7, -SECOND) },
          { subscriptionId: devices.usedInside, createdAt: daysAgo(7, SECOND) },
        ].map((d) => ({ ...d, notificationId: items[1]!.id, estado: 'entregado', updatedAt: d.createdAt })),
      )
      .returning({ id: pushDeliveries.id });

    // The outbox: delivered messages 90 days after delivery; nothing unsent.
    const mail = async (values: Partial<typeof emailOutbox.$inferInsert>) =>
      (
        await db()
          .insert(emailOutbox)
          .values({ to: 'persona@example.test', subject: uniq('Asunto'), text: 'texto', ...values })
          .returning({ id: emailOutbox.id })
      )[0]!.id;
    const mails = {
      sentOutside: await mail({ status: 'enviado', createdAt: daysAgo(91), sentAt: daysAgo(90, -SECOND) }),
      sentWithAttachment: await mail({
        status: 'enviado',
        createdAt: daysAgo(150),
        sentAt: daysAgo(150),
        adjunto: { tipo: 'orden_compra', id_pedido: w.order.id },
      }),
      sentInside: await mail({ status: 'enviado', createdAt: daysAgo(91), sentAt: daysAgo(90, SECOND) }),
      pending: await mail({ status: 'pendiente', createdAt: daysAgo(300), nextAttemptAt: daysAgo(300) }),
      sending: await mail({ status: 'enviando', createdAt: daysAgo(300) }),
      failed: await mail({ status: 'fallido', createdAt: daysAgo(300), attempts: 8 }),
      recordedWithoutSmtp: await mail({
        status: 'registrado',
        createdAt: daysAgo(300),
        sentAt: daysAgo(300),
      }),
      replaced: await mail({ status: 'reemplazado', createdAt: daysAgo(300), tipo: 'acceso' }),
      accessOfUserWithPassword: await mail({
        status: 'enviado',
        createdAt: daysAgo(200),
        sentAt: daysAgo(200),
        tipo: 'acceso',
        userId: w.buyer.id,
      }),
      accessOfUserWithoutPassword: await mail({
        status: 'enviado',
        createdAt: daysAgo(200),
        sentAt: daysAgo(200),
        tipo: 'acceso',
        userId: w.newcomer.id,
      }),
    };

    // Password and welcome links: 30 days after use or expiry.
    const link = async (values: { purpose: string; expiresAt: Date; usedAt?: Date; createdAt: Date }) =>
      (
        await db()
          .insert(passwordTokens)
          .values({ userId: w.buyer.id, tokenHash: uniq('hash'), ...values })
          .returning({ id: passwordTokens.id })
      )[0]!.id;
    const links = {
      usedOutside: await link({
        purpose: 'recuperacion',
        createdAt: daysAgo(31),
        usedAt: daysAgo(30, -SECOND),
        expiresAt: daysAgo(30, -SECOND + 3_600_000),
      }),
      expiredOutside: await link({
        purpose: 'bienvenida',
        createdAt: daysAgo(33),
        expiresAt: daysAgo(30, -SECOND),
      }),
      usedInside: await link({
        purpose: 'recuperacion',
        createdAt: daysAgo(31),
        usedAt: daysAgo(30, SECOND),
        expiresAt: daysAgo(30, SECOND + 3_600_000),
      }),
      expiredInside: await link({
        purpose: 'bienvenida',
        createdAt: daysAgo(33),
        expiresAt: daysAgo(30, SECOND),
      }),
      unusedValid: await link({
        purpose: 'bienvenida',
        createdAt: daysAgo(2),
        expiresAt: new Date(NOW.getTime() + DAY),
      }),
    };

    // Sign-in attempts: 30 days.
    const attempt = async (createdAt: Date) =>
      (
        await db()
          .insert(authAttempts)
          .values({ kind: 'login', subject: uniq('s'), ip: '203.0.113.9', createdAt })
          .returning({ id: authAttempts.id })
      )[0]!.id;
    const attempts = {
      outside: [await attempt(daysAgo(30, -SECOND)), await attempt(daysAgo(400))],
      inside: [await attempt(daysAgo(30, SECOND)), await attempt(daysAgo(1))],
    };

    // The system log: 24 calendar months by default.
    const entry = async (createdAt: Date) =>
      (
        await db()
          .insert(systemLogs)
          .values({ userId: null, eventType: 'login', description: uniq('entrada'), createdAt })
          .returning({ id: systemLogs.id })
      )[0]!.id;
    const logs = { outside: await entry(monthsAgo(24, -SECOND)), inside: await entry(monthsAgo(24, SECOND)) };

    // Sign-ins with the company's account in progress (decision 0120): a day after they started.
    const flow = async (createdAt: Date) =>
      (
        await db()
          .insert(ssoLogins)
          .values({
            stateHash: uniq('estado'),
            sessionId: 'a.sesion',
            idCliente: w.client.id,
            correo: 'ana@empresa.com.mx',
            codeVerifier: 'verificador',
            nonce: 'nonce',
            createdAt,
            expiresAt: new Date(createdAt.getTime() + 600_000),
          })
          .returning({ id: ssoLogins.id })
      )[0]!.id;
    const flows = { outside: await flow(daysAgo(1, -SECOND)), inside: await flow(daysAgo(1, SECOND)) };

    // SCIM tokens (decision 0121): a revoked one 13 months after its revocation; the live one stays.
    const scimToken = async (revocadoEn: Date | null) =>
      (
        await db()
          .insert(scimTokens)
          .values({ idCliente: w.client.id, tokenHash: uniq('hash'), prefijo: 'scim_x', revocadoEn })
          .returning({ id: scimTokens.id })
      )[0]!.id;
    const scimRows = {
      outside: await scimToken(monthsAgo(13, -SECOND)),
      inside: await scimToken(monthsAgo(13, SECOND)),
      live: await scimToken(null),
    };

    // Scheduled price changes (decision 0132): an applied one 13 months after it was applied; a pending one
    // stays however old.
    const priceChange = async (appliedAt: Date | null, createdAt: Date) =>
      (
        await db()
          .insert(scheduledPrices)
          .values({
            productId: w.product.id,
            idCliente: w.client.id,
            precio: 150,
            vigenteDesde: '2025-01-01',
            createdAt,
            appliedAt,
            precioAnterior: appliedAt ? 100 : null,
          })
          .returning({ id: scheduledPrices.id })
      )[0]!.id;
    const priceRows = {
      outside: await priceChange(monthsAgo(13, -SECOND), monthsAgo(14)),
      inside: await priceChange(monthsAgo(13, SECOND), monthsAgo(14)),
      pending: await priceChange(null, monthsAgo(20)),
    };

    // The v1 API's Idempotency-Key answers (decision 0124): 24 hours after the write.
    const [apiToken] = await db()
      .insert(apiTokens)
      .values({
        nombre: 'Retención',
        prefijo: 'pdc_retencio',
        tokenHash: uniq('hash'),
        idCliente: w.client.id,
        permisos: ['inventario:escribir'],
        expiraEn: new Date(t.app.clock.now().getTime() + 86_400_000),
      })
      .returning({ id: apiTokens.id });
    const idemKey = async (createdAt: Date) =>
      (
        await db()
          .insert(apiIdempotencyKeys)
          .values({
            tokenId: apiToken!.id,
            clave: uniq('clave'),
            huella: 'h',
            statusCode: 200,
            respuesta: {},
            createdAt,
          })
          .returning({ id: apiIdempotencyKeys.id })
      )[0]!.id;
    const idemRows = {
      outside: await idemKey(daysAgo(1, -SECOND)),
      inside: await idemKey(daysAgo(1, SECOND)),
    };

    const before = (await purgeEntries()).length;
    const run = await runRetention(db(), settings(), t.app.clock.now(), tz());
    expect(run.interrupted).toBe(false);
    const expected = {
      eventos_webhook: 2,
      entregas_webhook: 3,
      recordatorios: 1,
      resumenes_atrasos: 1,
      alertas_presupuesto: 1,
      avisos: 1,
      correos: 3,
      enlaces: 2,
      intentos_acceso: 2,
      registros_sistema: 1,
      entregas_push: 1,
      dispositivos_push: 2,
      inicios_sso: 1,
      tokens_scim: 1,
      claves_idempotencia: 1,
      fotos_sueltas: 0,
      precios_programados: 1,
    };
    expect(run.removed).toEqual(expected);
    const pricesLeft = await db()
      .select({ id: scheduledPrices.id })
      .from(scheduledPrices)
      .where(inArray(scheduledPrices.id, Object.values(priceRows)));
    expect(pricesLeft.map((r) => r.id).sort((a, b) => a - b)).toEqual([priceRows.inside, priceRows.pending]);
    const idemLeft = await db()
      .select({ id: apiIdempotencyKeys.id })
      .from(apiIdempotencyKeys)
      .where(inArray(apiIdempotencyKeys.id, Object.values(idemRows)));
    expect(idemLeft.map((r) => r.id)).toEqual([idemRows.inside]);
    const scimLeft = await db().select({ id: scimTokens.id }).from(scimTokens);
    expect(scimLeft.map((r) => r.id).sort((a, b) => a - b)).toEqual([scimRows.inside, scimRows.live]);

    const eventIds = async (ids: string[]) =>
      (await db().select({ id: webhookEvents.id }).from(webhookEvents).where(inArray(webhookEvents.id, ids)))
        .map((r) => r.id)
        .sort();
    expect(await eventIds([allDelivered, deliveredJustOutside])).toEqual([]);
    const kept = [deliveredJustInside, oneFailed, pending, sending, recent];
    expect(await eventIds(kept)).toEqual([...kept].sort());
    const deliveriesLeft = await db()
      .select({ eventId: webhookDeliveries.eventId })
      .from(webhookDeliveries)
      .where(inArray(webhookDeliveries.eventId, [allDelivered, deliveredJustOutside, ...kept]));
    // Every delivery of a kept event stays, the delivered one of `oneFailed` too.
    expect(deliveriesLeft).toHaveLength(6);

    const reminders = await db()
      .select({ fecha: approvalReminders.fecha })
      .from(approvalReminders)
      .where(eq(approvalReminders.userId, w.buyer.id));
    expect(reminders.map((r) => r.fecha)).toEqual(['2025-05-16']);
    const digestsLeft = await db()
      .select({ fecha: lateLineDigests.fecha })
      .from(lateLineDigests)
      .where(eq(lateLineDigests.userId, w.buyer.id));
    expect(digestsLeft.map((r) => r.fecha)).toEqual(['2025-05-16']);
    const alertsLeft = await db()
      .select({ id: budgetAlerts.id })
      .from(budgetAlerts)
      .where(
        inArray(
          budgetAlerts.id,
          alerts.map((a) => a.id),
        ),
      );
    expect(alertsLeft.map((a) => a.id)).toEqual([alerts[1]!.id]);
    const itemsLeft = await db()
      .select({ id: notifications.id })
      .from(notifications)
      .where(
        inArray(
          notifications.id,
          items.map((i) => i.id),
        ),
      );
    expect(itemsLeft.map((i) => i.id)).toEqual([items[1]!.id]);
    const pushesLeft = await db()
      .select({ id: pushDeliveries.id })
      .from(pushDeliveries)
      .where(
        inArray(
          pushDeliveries.id,
          pushes.map((p) => p.id),
        ),
      );
    expect(pushesLeft.map((p) => p.id)).toEqual([pushes[1]!.id]);
    const devicesLeft = await db()
      .select({ id: pushSubscriptions.id })
      .from(pushSubscriptions)
      .where(inArray(pushSubscriptions.id, Object.values(devices)));
    expect(devicesLeft.map((d) => d.id)).toEqual([devices.usedInside]);

    const mailsLeft = new Set(
      (
        await db()
          .select({ id: emailOutbox.id })
          .from(emailOutbox)
          .where(inArray(emailOutbox.id, Object.values(mails)))
      ).map((r) => r.id),
    );
    expect(
      Object.entries(mails)
        .filter(([, id]) => !mailsLeft.has(id))
        .map(([k]) => k),
    ).toEqual(['sentOutside', 'sentWithAttachment', 'accessOfUserWithPassword']);

    const linksLeft = new Set(
      (
        await db()
          .select({ id: passwordTokens.id })
          .from(passwordTokens)
          .where(inArray(passwordTokens.id, Object.values(links)))
      ).map((r) => r.id),
    );
    expect(
      Object.entries(links)
        .filter(([, id]) => !linksLeft.has(id))
        .map(([k]) => k),
    ).toEqual(['usedOutside', 'expiredOutside']);

    const attemptsLeft = await db()
      .select({ id: authAttempts.id })
      .from(authAttempts)
      .where(inArray(authAttempts.id, [...attempts.outside, ...attempts.inside]));
    expect(attemptsLeft.map((a) => a.id).sort((a, b) => a - b)).toEqual(attempts.inside);

    const logsLeft = await db()
      .select({ id: systemLogs.id })
      .from(systemLogs)
      .where(inArray(systemLogs.id, [logs.outside, logs.inside]));
    expect(logsLeft.map((l) => l.id)).toEqual([logs.inside]);
    const flowsLeft = await db()
      .select({ id: ssoLogins.id })
      .from(ssoLogins)
      .where(inArray(ssoLogins.id, Object.values(flows)));
    expect(flowsLeft.map((f) => f.id)).toEqual([flows.inside]);

    // One entry for the run, with the counts per kind, in Spanish.
    const entries = await purgeEntries();
    expect(entries).toHaveLength(before + 1);
    const last = entries.at(-1)!;
    expect(last.userId).toBeNull();
    expect(last.metadata).toEqual({
      ...expected,
      interrumpida: false,
      fallida: false,
      lote_mas_largo_ms: run.longestBatchMs,
    });
    expect(run.longestBatchMs).toBeGreaterThan(0);
    expect(last.description).toBe(
      'Depuración de datos antiguos: eventos de webhook: 2, entregas de webhook: 3, recordatorios de autorización: 1, resúmenes de líneas atrasadas: 1, alertas de presupuesto: 1, avisos de la campana: 1, correos enviados: 3, enlaces de contraseña y bienvenida: 2, intentos de acceso: 2, registros del sistema: 1, envíos al teléfono: 1, teléfonos suscritos: 2, inicios de sesión con la cuenta de la empresa: 1, tokens de aprovisionamiento (SCIM) revocados: 1, claves de idempotencia de la API: 1, fotos de recepciones y reclamos sin adjuntar: 0, cambios de precio programados ya aplicados: 1',
    );

    // A second run finds nothing more, and says so.
    const again = await runRetention(db(), settings(), t.app.clock.now(), tz());
    expect(Object.values(again.removed)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect((await purgeEntries()).at(-1)!.metadata).toMatchObject({
      registros_sistema: 0,
      interrumpida: false,
    });
  });

  it('removes photos never attached 24 hours after the upload, with their file unless another photo names it', async () => {
    const w = await world();
    const HOUR = 3_600_000;
    const stored = async (data: Buffer) => {
      const file = await preparePhoto(data, CLAIM_PHOTO_MAX_BYTES);
      await insertPreparedFiles(db(), [file]);
      return file.id;
    };
    const lone = await stored(fixture('green-40x30.jpg'));
    const shared = await stored(fixture('red-40x30.png'));
    const [claim] = await db()
      .insert(orderClaims)
      .values({ orderId: w.order.id, numero: 1, userId: w.buyer.id, resolucionSolicitada: 'credito' })
      .returning();
    const photo = (fileId: string, createdAt: Date, claimId: number | null = null) =>
      db()
        .insert(orderPhotos)
        .values({
          orderId: w.order.id,
          userId: w.buyer.id,
          fileId,
          nombre: 'f',
          tipo: 'image/jpeg',
          claimId,
          createdAt,
        })
        .returning({ id: orderPhotos.id })
        .then((r) => r[0]!.id);
    const oldLone = await photo(lone, new Date(NOW.getTime() - 25 * HOUR));
    const oldShared = await photo(shared, new Date(NOW.getTime() - 25 * HOUR));
    const recent = await photo(shared, new Date(NOW.getTime() - 23 * HOUR));
    const attached = await photo(shared, daysAgo(400), claim!.id);
    const run = await runRetention(db(), settings(), t.app.clock.now(), tz());
    expect(run.removed.fotos_sueltas).toBe(2);
    const left = await db()
      .select({ id: orderPhotos.id })
      .from(orderPhotos)
      .where(inArray(orderPhotos.id, [oldLone, oldShared, recent, attached]));
    expect(left.map((r) => r.id).sort((a, b) => a - b)).toEqual([recent, attached].sort((a, b) => a - b));
    const files = await db()
      .select({ id: storedFiles.id })
      .from(storedFiles)
      .where(inArray(storedFiles.id, [lone, shared]));
    expect(files.map((f) => f.id)).toEqual([shared]);
    expect(await db().select().from(storedFileParts).where(eq(storedFileParts.fileId, lone))).toEqual([]);
    const [entry] = (await purgeEntries()).slice(-1);
    expect(entry!.metadata).toMatchObject({ fotos_sueltas: 2 });
  });

  it('keeps the system log for ever with RETENTION_LOG_MONTHS=0, and a shorter period removes more', async () => {
    await runRetention(db(), settings(), t.app.clock.now(), tz());
    const [old] = await db()
      .insert(systemLogs)
      .values({ userId: null, eventType: 'login', description: uniq('antigua'), createdAt: monthsAgo(120) })
      .returning({ id: systemLogs.id });
    const [sixMonths] = await db()
      .insert(systemLogs)
      .values({
        userId: null,
        eventType: 'login',
        description: uniq('seis'),
        createdAt: monthsAgo(6, -SECOND),
      })
      .returning({ id: systemLogs.id });
    const forever = await runRetention(db(), settings({ logMonths: 0 }), t.app.clock.now(), tz());
    expect(forever.removed.registros_sistema).toBe(0);
    expect(forever.batches.registros_sistema).toBe(0);
    // Everything older than six months goes: these two and what the tests before kept under 24 months.
    const [{ older }] = (await db()
      .select({ older: sql<number>`count(*)::int` })
      .from(systemLogs)
      .where(sql`${systemLogs.createdAt} < ${monthsAgo(6)}`)) as [{ older: number }];
    expect(older).toBeGreaterThanOrEqual(2);
    const shorter = await runRetention(db(), settings({ logMonths: 6 }), t.app.clock.now(), tz());
    expect(shorter.removed.registros_sistema).toBe(older);
    const left = await db()
      .select({ id: systemLogs.id })
      .from(systemLogs)
      .where(inArray(systemLogs.id, [old!.id, sixMonths!.id]));
    expect(left).toEqual([]);
  });

  it('purges in bounded batches: a batch size of 7 removes 50 rows in 8 statements, 15 events in 3', async () => {
    await runRetention(db(), settings(), t.app.clock.now(), tz());
    const w = await world();
    await oldAttempts(50, '203.0.113.7', (i) => daysAgo(40 + i));
    for (let i = 0; i < 15; i++)
      await w.event(daysAgo(100 + i), [{ estado: 'entregado', entregadoEn: daysAgo(100 + i) }]);
    // A bound no batch misses, so a loaded machine does not halve the batches (the next test halves them).
    const run = await runRetention(
      db(),
      settings({ batchSize: 7, batchHoldMs: 60_000 }),
      t.app.clock.now(),
      tz(),
    );
    expect(run.removed.intentos_acceso).toBe(50);
    expect(run.batches.intentos_acceso).toBe(8);
    expect(run.removed.eventos_webhook).toBe(15);
    expect(run.removed.entregas_webhook).toBe(15);
    expect(run.batches.eventos_webhook).toBe(3);
    // Kinds with nothing to remove take one statement each, which finds nothing.
    expect(run.batches.recordatorios).toBe(1);
    // Each batch of 7 rows held its locks briefly (generous on a slow machine).
    expect(run.longestBatchMs).toBeLessThan(5_000);
    const [{ n }] = (await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(authAttempts)
      .where(eq(authAttempts.ip, '203.0.113.7'))) as [{ n: number }];
    expect(n).toBe(0);
  });

  it('halves the batch after one that held its locks longer than the bound', async () => {
    await runRetention(db(), settings(), t.app.clock.now(), tz());
    await oldAttempts(20, '203.0.113.11', () => daysAgo(60));
    // A bound no batch can meet: every full batch halves the next, 8 → 4 → 2 → 1 (then 1 at a time).
    const run = await runRetention(
      db(),
      settings({ batchSize: 8, batchHoldMs: -1 }),
      t.app.clock.now(),
      tz(),
    );
    expect(run.removed.intentos_acceso).toBe(20);
    // 8 + 4 + 2 = 14 rows in three batches, then six of one row, then one that finds none.
    expect(run.batches.intentos_acceso).toBe(10);
  });

  it('stops between two batches when its signal aborts, and logs what it removed as interrupted', async () => {
    await runRetention(db(), settings(), t.app.clock.now(), tz());
    await oldAttempts(20, '203.0.113.8', () => daysAgo(45));
    // The server stops while the first batch runs: the signal reads aborted from the second check on.
    const stopping = new AbortController();
    let checks = 0;
    const signal = {
      get aborted() {
        checks++;
        if (checks === 2) stopping.abort();
        return stopping.signal.aborted;
      },
    } as AbortSignal;
    const run = await runRetention(db(), settings({ batchSize: 5 }), t.app.clock.now(), tz(), signal);
    expect(run.interrupted).toBe(true);
    // The first kind (webhooks) ran one empty batch; nothing after it started.
    expect(run.batches.eventos_webhook).toBe(1);
    expect(run.batches.intentos_acceso).toBe(0);
    const left = await db()
      .select({ id: authAttempts.id })
      .from(authAttempts)
      .where(and(eq(authAttempts.ip, '203.0.113.8')));
    expect(left).toHaveLength(20);
    const last = (await purgeEntries()).at(-1)!;
    expect(last.metadata).toMatchObject({ intentos_acceso: 0, interrumpida: true, fallida: false });
    expect(last.description).toMatch(/^Depuración de datos antiguos \(interrumpida\): /);
  });

  it('a statement that fails still leaves the entry, marked failed with what went before, and the run fails', async () => {
    await runRetention(db(), settings(), t.app.clock.now(), tz());
    const w = await world();
    await w.event(daysAgo(100), [{ estado: 'entregado', entregadoEn: daysAgo(100) }]);
    await oldAttempts(3, '203.0.113.12', () => daysAgo(31));
    // The database refuses to delete sign-in attempts (as a broken disk or a revoked grant would).
    await db().execute(sql`create function retention_refuse() returns trigger language plpgsql as $$
      begin raise exception 'borrado rechazado por la prueba'; end $$`);
    await db().execute(sql`create trigger retention_refuse before delete on auth_attempts
      for each row execute function retention_refuse()`);
    try {
      await expect(runRetention(db(), settings(), t.app.clock.now(), tz())).rejects.toThrow();
    } finally {
      await db().execute(sql`drop trigger retention_refuse on auth_attempts`);
      await db().execute(sql`drop function retention_refuse()`);
    }
    const last = (await purgeEntries()).at(-1)!;
    expect(last.metadata).toMatchObject({
      eventos_webhook: 1,
      entregas_webhook: 1,
      intentos_acceso: 0,
      registros_sistema: 0,
      interrumpida: false,
      fallida: true,
    });
    expect(last.description).toMatch(/^Depuración de datos antiguos \(falló\): eventos de webhook: 1,/);
    // The retry removes them.
    const retry = await runRetention(db(), settings(), t.app.clock.now(), tz());
    expect(retry.removed.intentos_acceso).toBe(3);
  });

  it('runs as the queued job on the app clock and logs its entry', async () => {
    await runRetention(db(), settings(), t.app.clock.now(), tz());
    const before = (await purgeEntries()).length;
    const [old] = await db()
      .insert(authAttempts)
      .values({ kind: 'login', subject: uniq('trabajo'), ip: '203.0.113.10', createdAt: daysAgo(31) })
      .returning({ id: authAttempts.id });
    const [young] = await db()
      .insert(authAttempts)
      .values({ kind: 'login', subject: uniq('trabajo'), ip: '203.0.113.10', createdAt: daysAgo(29) })
      .returning({ id: authAttempts.id });
    await t.app.jobs.send(RETENTION_QUEUE, {});
    const deadline = performance.now() + 60_000;
    while ((await purgeEntries()).length === before && performance.now() < deadline)
      await new Promise((r) => setTimeout(r, 200));
    const entries = await purgeEntries();
    expect(entries).toHaveLength(before + 1);
    expect(entries.at(-1)!.metadata).toMatchObject({ intentos_acceso: 1, interrumpida: false });
    const left = await db()
      .select({ id: authAttempts.id })
      .from(authAttempts)
      .where(inArray(authAttempts.id, [old!.id, young!.id]));
    expect(left.map((r) => r.id)).toEqual([young!.id]);
  }, 90_000);
});
