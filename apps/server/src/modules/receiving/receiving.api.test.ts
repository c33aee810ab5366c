import { RECEIVER_MSG, RECEIVING_PER_PAGE } from '@portal/shared/schemas/receiving';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shipmentFlagDrift, waitingShipmentCountDrift } from '../../db/order-shipments.ts';
import {
  clientAddresses,
  clientShipmentsToReceive,
  clients,
  orderClaims,
  orderPhotos,
  orderReceipts,
  orderShipmentLines,
  orderShipments,
  orders,
  systemLogs,
  users,
} from '../../db/schema/index.ts';
import { MSG } from '../../messages.ts';
import { postForm, signedInAdmin } from '../../test/admin-fixtures.ts';
import { lacks, nextIp, USER_NOT_FOUND } from '../../test/client-admin.ts';
import { makeClient, makeUser, TEST_PASSWORD } from '../../test/factories.ts';
import { ApiClient, createTestApp, DB_KINDS, type TestApp } from '../../test/harness.ts';
import { PHOTOS, shippingWorld } from '../../test/shipping-fixtures.ts';
import { startSmtp } from '../../test/smtp.ts';
import { enrolTwoFactor } from '../../test/two-factor.ts';

/**
 * Receivers named by the client (issue 41 item 4, decision 0130): naming them (rol 4, rol 5 with
 * `usuarios`), their list of shipments to receive, a receipt by a receiver (recorded as theirs, the claim, the
 * buyer's e-mail and timeline), the race with the buyer, and the flag removed.
 */
describe.each(DB_KINDS)('receivers named by the client (%s)', (kind) => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let operator: ApiClient;
  let operatorId: number;
  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp(kind, { env: { SMTP_URL: smtp.url } });
    const admin = await signedInAdmin(t.app, db());
    operator = admin.api;
    operatorId = admin.user.id;
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });
  const db = () => t.database.db;

  /** The shipping world, two addresses of its client and a receiver-to-be (rol 1) signed in. */
  const world = async () => {
    const w = await shippingWorld(t, operator);
    const address = async (nombre: string, idCliente = w.client.id) =>
      (
        await db()
          .insert(clientAddresses)
          .values({
            idCliente,
            nombre,
            calle: 'Av. Industria',
            numeroExterior: '100',
            colonia: 'Industrial',
            municipio: 'Apodaca',
            ciudad: 'Monterrey',
            estado: 'Nuevo León',
            cp: '66600',
            contacto: 'Ana López',
            telefono: '8112345678',
          })
          .returning()
      )[0]!;
    const norte = await address('Almacén Norte');
    const sur = await address('Bodega Sur');
    const receiver = await makeUser(db(), {
      rol: 1,
      idCliente: w.client.id,
      nombre: 'Rogelio Recibe',
      email: `${w.tag}-receptor@example.test`,
    });
    const receiverApi = await new ApiClient(t.app, nextIp()).loginOk(receiver.usuario, TEST_PASSWORD);
    /** The order's copy of the address it was sent to, as the purchase writes it (decision 0126). */
    const sendTo = (orderId: number, a: typeof norte) =>
      db()
        .update(orders)
        .set({ entrega: { id_direccion: a.id, nombre: a.nombre, calle: a.calle, cp: a.cp } })
        .where(eq(orders.id, orderId));
    const name = (userId: number, body: unknown, api = operator) =>
      api.put(`/api/usuarios/${userId}/receptor`, body);
    /** An approved order sent to `a` (or the profile's address), then shipped whole. */
    const shippedTo = async (a: typeof norte | null) => {
      const o = await w.approved();
      if (a) await sendTo(o.id, a);
      await w.ship(o.id, [
        { id: o.toner, cantidad: 5 },
        { id: o.hojas, cantidad: 2 },
      ]);
      return o;
    };
    /** The receiver uploads a photo through its own route. */
    const receiverUpload = (id: number) =>
      postForm(receiverApi, `/api/recepcion/${id}/fotos`, {}, { archivo: PHOTOS.jpeg() });
    return { ...w, address, norte, sur, receiver, receiverApi, sendTo, name, shippedTo, receiverUpload };
  };

  /** A client administrator of the client, with or without the `usuarios` permission. */
  const clientAdminOf = async (idCliente: number, permisos: string[]) => {
    await db().update(clients).set({ permisosCliente: permisos }).where(eq(clients.id, idCliente));
    const user = await makeUser(db(), { rol: 5, idCliente, nombre: 'Clara Administradora' });
    const api = await new ApiClient(t.app, nextIp()).loginOk(user.usuario, TEST_PASSWORD);
    await enrolTwoFactor(api);
    return api;
  };

  it('the distributor names a receiver for some addresses; refusals say why and change nothing', async () => {
    const w = await world();
    const res = await w.name(w.receiver.id, { receptor: true, direcciones: [w.norte.id] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      msg: RECEIVER_MSG.guardado,
      receptor: true,
      direcciones: [{ id: w.norte.id, nombre: 'Almacén Norte', activa: true }],
    });
    expect((await operator.get(`/api/usuarios/${w.receiver.id}/receptor`)).json()).toMatchObject({
      receptor: true,
      direcciones: [{ id: w.norte.id }],
    });
    const [log] = await db()
      .select({ description: systemLogs.description })
      .from(systemLogs)
      .where(and(eq(systemLogs.eventType, 'usuario_receptor'), eq(systemLogs.userId, operatorId)))
      .orderBy(systemLogs.id);
    expect(log?.description).toContain('Rogelio Recibe es receptor de mercancía');
    // An approver may receive too.
    const approver = await makeUser(db(), { rol: 2, idCliente: w.client.id });
    expect((await w.name(approver.id, { receptor: true, direcciones: [] })).statusCode).toBe(200);

    const other = await makeClient(db(), { nombre: `Otro ${w.tag}` });
    const foreignAddress = await w.address('Ajena', other.id);
    const refusals = [
      [await w.name(w.receiver.id, { receptor: true, direcciones: [foreignAddress.id] }), 404],
      [await w.name(w.receiver.id, { receptor: true, direcciones: [999_999_999] }), 404],
      [await w.name(999_999_999, { receptor: true, direcciones: [] }), 404],
      [await w.name(w.receiver.id, { receptor: true, direcciones: ['norte'] }), 400],
      [await w.name(w.receiver.id, { receptor: true, direcciones: [0] }), 400],
      [await w.name(w.receiver.id, { receptor: true, direcciones: [w.norte.id, w.norte.id] }), 400],
      [await w.name(w.receiver.id, { receptor: 'si', direcciones: [] }), 400],
      [await w.name(w.receiver.id, { receptor: false, direcciones: [w.sur.id] }), 400],
    ] as const;
    expect(refusals.map(([r]) => r.statusCode)).toEqual(refusals.map(([, s]) => s));
    expect(refusals[0][0].json()).toMatchObject({
      code: 'ADDRESS_NOT_FOUND',
      msg: MSG.direccionNoEncontrada,
    });
    expect(refusals[3][0].json().msg).toBe(RECEIVER_MSG.direccionesInvalidas);
    expect(refusals[7][0].json().msg).toBe(RECEIVER_MSG.direccionesSinReceptor);
    // An inactive address, and a client administrator (rol 5) as a receiver.
    await db().update(clientAddresses).set({ activo: false }).where(eq(clientAddresses.id, w.sur.id));
    const inactive = await w.name(w.receiver.id, { receptor: true, direcciones: [w.sur.id] });
    expect([inactive.statusCode, inactive.json().msg]).toEqual([400, RECEIVER_MSG.direccionInactiva]);
    const admin5 = await makeUser(db(), { rol: 5, idCliente: w.client.id });
    const wrongRole = await w.name(admin5.id, { receptor: true, direcciones: [] });
    expect([wrongRole.statusCode, wrongRole.json().msg]).toEqual([400, RECEIVER_MSG.receptorSoloRoles]);
    // Nothing changed by the refusals.
    expect((await operator.get(`/api/usuarios/${w.receiver.id}/receptor`)).json().direcciones).toEqual([
      { id: w.norte.id, nombre: 'Almacén Norte', activa: true },
    ]);
  });

  it('the client administrator names receivers of its own client with the usuarios permission only', async () => {
    const w = await world();
    const own = await clientAdminOf(w.client.id, ['usuarios']);
    const res = await w.name(w.receiver.id, { receptor: true, direcciones: [w.sur.id] }, own);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().direcciones).toEqual([{ id: w.sur.id, nombre: 'Bodega Sur', activa: true }]);

    const other = await makeClient(db(), { nombre: `Otro ${w.tag}` });
    const foreignUser = await makeUser(db(), { rol: 1, idCliente: other.id });
    const foreignAddress = await w.address('Ajena', other.id);
    const foreign = await w.name(foreignUser.id, { receptor: true, direcciones: [] }, own);
    expect([foreign.statusCode, foreign.json()]).toEqual([404, expect.objectContaining(USER_NOT_FOUND)]);
    expect((await own.get(`/api/usuarios/${foreignUser.id}/receptor`)).statusCode).toBe(404);
    const foreignAddr = await w.name(
      w.receiver.id,
      { receptor: true, direcciones: [foreignAddress.id] },
      own,
    );
    expect(foreignAddr.statusCode).toBe(404);

    const reader = await clientAdminOf(w.client.id, []);
    expect((await reader.get(`/api/usuarios/${w.receiver.id}/receptor`)).statusCode).toBe(200);
    const refused = await w.name(w.receiver.id, { receptor: false, direcciones: [] }, reader);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject(lacks('usuarios'));
    const [row] = await db()
      .select({ receptor: users.receptor })
      .from(users)
      .where(eq(users.id, w.receiver.id));
    expect(row?.receptor).toBe(true);
  });

  it('a receiver lists only its client’s shipments to its addresses, newest first, by pages, with a search', async () => {
    const w = await world();
    // Not a receiver yet: the area is refused.
    const before = await w.receiverApi.get('/api/recepcion');
    expect([before.statusCode, before.json().code]).toEqual([403, 'NOT_RECEIVER']);
    expect((await w.buyerApi.get('/api/recepcion')).statusCode).toBe(403);

    const toNorte = await w.shippedTo(w.norte);
    const toSur = await w.shippedTo(w.sur);
    const toProfile = await w.shippedTo(null);
    const received = await w.shippedTo(w.norte);
    expect((await w.receive(received.id, 1)).statusCode).toBe(200);
    // Another client's shipped order (its own world).
    const foreign = await world();
    await foreign.shippedTo(foreign.norte);

    expect((await w.name(w.receiver.id, { receptor: true, direcciones: [w.norte.id] })).statusCode).toBe(200);
    const mine = (await w.receiverApi.get('/api/recepcion')).json();
    expect(mine.envios.map((e: { id_pedido: number }) => e.id_pedido)).toEqual([toNorte.id]);
    expect(mine.envios[0]).toMatchObject({
      numero: 1,
      guia: 'GUIA-1',
      direccion: 'Almacén Norte',
      comprador: w.buyer.nombre,
      unidades: 7,
      reposicion: false,
    });
    const outOfReach = await w.receiverApi.get(`/api/recepcion/${toSur.id}/envios/1`);
    expect([outOfReach.statusCode, outOfReach.json().code]).toEqual([404, 'SHIPMENT_NOT_FOUND']);
    const detail = (await w.receiverApi.get(`/api/recepcion/${toNorte.id}/envios/1`)).json();
    expect(detail.lineas).toEqual([
      {
        id: toNorte.toner,
        nombre: w.toner.nombre,
        unidad_de_medida: expect.any(String),
        cantidad: 5,
        recibido: null,
        motivo: null,
      },
      {
        id: toNorte.hojas,
        nombre: w.hojas.nombre,
        unidad_de_medida: expect.any(String),
        cantidad: 2,
        recibido: null,
        motivo: null,
      },
    ]);
    expect(detail.recepcion).toBeNull();
    expect(
      (await w.receiverApi.get(`/api/recepcion/${received.id}/envios/1`)).json().recepcion,
    ).toMatchObject({
      por: w.buyer.nombre,
    });

    // Every address: the client's shipments to any address or the profile's, never another client's.
    await w.name(w.receiver.id, { receptor: true, direcciones: [] });
    const all = (await w.receiverApi.get('/api/recepcion')).json();
    expect(all.envios.map((e: { id_pedido: number }) => e.id_pedido)).toEqual([
      toProfile.id,
      toSur.id,
      toNorte.id,
    ]);
    expect(all.total).toBe(3);
    // Search by order number (as people write it) and by part of the guía.
    const byNumber = (
      await w.receiverApi.get(`/api/recepcion?q=%23${String(toSur.id).padStart(5, '0')}`)
    ).json();
    expect(byNumber.envios.map((e: { id_pedido: number }) => e.id_pedido)).toEqual([toSur.id]);
    await db()
      .update(orderShipments)
      .set({ guia: 'DHL-778899' })
      .where(eq(orderShipments.orderId, toNorte.id));
    const byGuia = (await w.receiverApi.get('/api/recepcion?q=7788')).json();
    expect(byGuia.envios.map((e: { id_pedido: number }) => e.id_pedido)).toEqual([toNorte.id]);
    // A term with a trigram (read through the guías' trigram index) or shorter (planned for its pattern),
    // in any case; a received shipment's guía is not among those to receive.
    for (const q of ['dhl-77', '99', 'h'])
      expect(
        (await w.receiverApi.get(`/api/recepcion?q=${q}`))
          .json()
          .envios.map((e: { id_pedido: number }) => e.id_pedido),
        q,
      ).toEqual([toNorte.id]);
    await db()
      .update(orderShipments)
      .set({ guia: 'DHL-445566' })
      .where(eq(orderShipments.orderId, received.id));
    for (const q of ['DHL-4455', '44'])
      expect((await w.receiverApi.get(`/api/recepcion?q=${q}`)).json(), q).toMatchObject({
        envios: [],
        total: 0,
      });
    const bad = await w.receiverApi.get('/api/recepcion?page=0');
    expect(bad.statusCode).toBe(400);

    // Pages of 20: shipments written straight to one more order (the list reads rows, however made).
    const many = await w.shippedTo(null);
    for (let n = 2; n <= RECEIVING_PER_PAGE + 1; n++) {
      const [s] = await db()
        .insert(orderShipments)
        .values({
          orderId: many.id,
          idCliente: w.client.id,
          numero: n,
          guia: `LOTE-${n}`,
          fecha: '2026-12-01',
        })
        .returning({ id: orderShipments.id });
      await db()
        .insert(orderShipmentLines)
        .values({ shipmentId: s!.id, orderLineId: many.toner, cantidad: 1 });
    }
    const page1 = (await w.receiverApi.get('/api/recepcion')).json();
    const page2 = (await w.receiverApi.get('/api/recepcion?page=2')).json();
    expect([page1.total, page1.envios.length, page2.envios.length]).toEqual([24, 20, 4]);
    // A page past the end still says how many there are, with or without a search.
    const past = (await w.receiverApi.get('/api/recepcion?page=3')).json();
    expect([past.total, past.envios.length]).toEqual([24, 0]);
    const searched = (await w.receiverApi.get('/api/recepcion?q=lote-')).json();
    expect([searched.total, searched.envios.length]).toEqual([RECEIVING_PER_PAGE, RECEIVING_PER_PAGE]);
    const searchedPast = (await w.receiverApi.get('/api/recepcion?q=lote-&page=2')).json();
    expect([searchedPast.total, searchedPast.envios.length]).toEqual([RECEIVING_PER_PAGE, 0]);
    expect(page1.envios[0]).toMatchObject({ id_pedido: many.id, numero: RECEIVING_PER_PAGE + 1 });
    expect(page2.envios.map((e: { id_pedido: number }) => e.id_pedido)).toEqual([
      many.id,
      toProfile.id,
      toSur.id,
      toNorte.id,
    ]);
  });

  it('each shipment keeps whether it was received (decision 0139): receipts, replacements, two reaches, deletions', async () => {
    const w = await world();
    const ids = (body: { envios: { id_pedido: number; numero: number }[] }) =>
      body.envios.map((e) => `${e.id_pedido}/${e.numero}`);
    const listOf = async (api: ApiClient) => {
      const res = await api.get('/api/recepcion');
      expect(res.statusCode, res.body).toBe(200);
      return { envios: ids(res.json()), total: res.json().total as number };
    };
    const flags = async (orderId: number) =>
      (
        await db()
          .select({ numero: orderShipments.numero, recibido: orderShipments.recibido })
          .from(orderShipments)
          .where(eq(orderShipments.orderId, orderId))
          .orderBy(orderShipments.numero)
      ).map((f) => [f.numero, f.recibido]);
    // Two receivers of the client: one at Almacén Norte, one at every address.
    await w.name(w.receiver.id, { receptor: true, direcciones: [w.norte.id] });
    const everywhere = await makeUser(db(), { rol: 2, idCliente: w.client.id, nombre: 'Toño Todo' });
    expect((await w.name(everywhere.id, { receptor: true, direcciones: [] })).statusCode).toBe(200);
    const everywhereApi = await new ApiClient(t.app, nextIp()).loginOk(everywhere.usuario, TEST_PASSWORD);

    const a = await w.shippedTo(w.norte);
    const b = await w.shippedTo(w.sur);
    const c = await w.shippedTo(w.norte);
    // A replacement of two damaged toners of c: shipment 2, written by the claim's acceptance.
    const claimId = (
      await w.claim(c.id, {
        lineas: [{ id: c.toner, cantidad: 2, motivo: 'danado' }],
        resolucion: 'reposicion',
      })
    ).json().reclamo.id;
    const accepted = await w.decide(claimId, { accion: 'aceptar', resolucion: 'reposicion' });
    expect(accepted.json()).toMatchObject({ envio: { numero: 2 } });
    // Another client's shipment to its own Almacén Norte, waiting too.
    const foreign = await world();
    const theirs = await foreign.shippedTo(foreign.norte);
    const [shipment] = await db()
      .select({
        idCliente: orderShipments.idCliente,
        idDireccion: orderShipments.idDireccion,
        recibido: orderShipments.recibido,
      })
      .from(orderShipments)
      .where(eq(orderShipments.orderId, theirs.id));
    expect(shipment).toEqual({
      idCliente: foreign.client.id,
      idDireccion: foreign.norte.id,
      recibido: false,
    });

    // The buyer receives c's first shipment: it alone is marked, and leaves both lists.
    expect((await w.receive(c.id, 1)).statusCode).toBe(200);
    expect(await flags(c.id)).toEqual([
      [1, true],
      [2, false],
    ]);
    expect(await listOf(w.receiverApi)).toEqual({ envios: [`${c.id}/2`, `${a.id}/1`], total: 2 });
    expect(await listOf(everywhereApi)).toEqual({
      envios: [`${c.id}/2`, `${b.id}/1`, `${a.id}/1`],
      total: 3,
    });
    // The other client's receiver sees its own shipment only.
    expect((await foreign.name(foreign.receiver.id, { receptor: true, direcciones: [] })).statusCode).toBe(
      200,
    );
    expect(await listOf(foreign.receiverApi)).toEqual({ envios: [`${theirs.id}/1`], total: 1 });
    expect(await shipmentFlagDrift(db())).toEqual([]);
    expect(await waitingShipmentCountDrift(db())).toEqual([]);

    // The receiver at Norte receives the replacement; the one at every address still sees b and a.
    const replacement = await w.receiverApi.post(`/api/recepcion/${c.id}/envios/2/recepcion`, {});
    expect(replacement.statusCode, replacement.body).toBe(200);
    expect(await flags(c.id)).toEqual([
      [1, true],
      [2, true],
    ]);
    expect(await listOf(everywhereApi)).toEqual({ envios: [`${b.id}/1`, `${a.id}/1`], total: 2 });

    // A receipt deleted (no route does; the trigger keeps the flag whoever writes): c's first is back.
    await db().delete(orderReceipts).where(eq(orderReceipts.orderId, c.id));
    expect(await flags(c.id)).toEqual([
      [1, false],
      [2, false],
    ]);
    expect(await listOf(w.receiverApi)).toEqual({
      envios: [`${c.id}/2`, `${c.id}/1`, `${a.id}/1`],
      total: 3,
    });
    // A received shipment deleted with its receipt (the cascade), and a received order deleted whole.
    expect((await w.receive(b.id, 1)).statusCode).toBe(200);
    await db().delete(orderShipments).where(eq(orderShipments.orderId, b.id));
    expect((await w.receive(a.id, 1)).statusCode).toBe(200);
    await db().delete(orders).where(eq(orders.id, a.id));
    expect(await listOf(everywhereApi)).toEqual({ envios: [`${c.id}/2`, `${c.id}/1`], total: 2 });
    expect(await shipmentFlagDrift(db())).toEqual([]);
    expect(await waitingShipmentCountDrift(db())).toEqual([]);

    // A writer that names another client (or none) still gets the order's.
    const [written] = await db()
      .insert(orderShipments)
      .values({ orderId: c.id, idCliente: foreign.client.id, numero: 3, fecha: '2026-12-01' })
      .returning({ idCliente: orderShipments.idCliente });
    expect(written?.idCliente).toBe(w.client.id);
    expect(await shipmentFlagDrift(db())).toEqual([]);
    expect(await waitingShipmentCountDrift(db())).toEqual([]);
  });

  it('a receiver receives with a damaged unit and a photo: recorded as theirs, a claim, the buyer told', async () => {
    const w = await world();
    await w.name(w.receiver.id, { receptor: true, direcciones: [w.norte.id] });
    const o = await w.shippedTo(w.norte);
    const upload = await w.receiverUpload(o.id);
    expect(upload.statusCode, upload.body).toBe(200);
    // The receiver's photos go through its own route; the buyer's route refuses it (not its order).
    const viaBuyerRoute = await w.upload(o.id, PHOTOS.jpeg(), w.receiverApi);
    expect(viaBuyerRoute.statusCode).toBe(404);
    const res = await w.receiverApi.post(`/api/recepcion/${o.id}/envios/1/recepcion`, {
      lineas: [{ id: o.toner, recibido: 4, motivo: 'danado' }],
      nota: 'Una caja golpeada',
      fotos: [upload.json().id],
      resolucion: 'reposicion',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ reclamo: { numero: 1 }, pedido: { surtido: 'entregado' } });
    const [receipt] = await db().select().from(orderReceipts).where(eq(orderReceipts.orderId, o.id));
    expect(receipt?.userId).toBe(w.receiver.id);
    const [claim] = await db().select().from(orderClaims).where(eq(orderClaims.orderId, o.id));
    expect(claim).toMatchObject({ numero: 1, userId: w.receiver.id, estado: 'abierto' });
    const [photo] = await db().select().from(orderPhotos).where(eq(orderPhotos.orderId, o.id));
    expect(photo).toMatchObject({ userId: w.receiver.id, receiptId: receipt!.id, claimId: claim!.id });
    const [toner] = await w.lines(o.id);
    expect(toner!.reclamado).toBe(1);

    // The buyer sees it on the order's timeline, by the receiver's name, and hears of it by e-mail.
    const detail = await w.detail(o.id);
    expect(detail.envios[0].recepcion).toMatchObject({ por: 'Rogelio Recibe', nota: 'Una caja golpeada' });
    expect(detail.eventos.find((e: { tipo: string }) => e.tipo === 'recepcion')).toMatchObject({
      actor: 'Rogelio Recibe',
    });
    const mail = await smtp.waitFor(
      (m) => m.to.includes(w.buyer.email) && m.subject.includes('recibido por Rogelio Recibe'),
    );
    expect(mail.text).toContain(
      `Tu envío 1 del pedido #${String(o.id).padStart(5, '0')} fue recibido por Rogelio Recibe.`,
    );
    expect(mail.text).toContain('se abrió el reclamo 1');
    expect(mail.text).toContain(`1 × ${w.toner.nombre}`);
    // The operators hear of the claim as opened by the receiver.
    const folio = String(o.id).padStart(5, '0');
    const opened = await smtp.waitFor((m) => m.subject === `Pedido #${folio}: reclamo 1 abierto`);
    expect(opened.text).toContain(
      `Rogelio Recibe (${w.client.nombre}) abrió el reclamo 1 del pedido #${folio}`,
    );

    // Received once, by whoever came first: the list drops it and a second receipt is 409.
    expect((await w.receiverApi.get('/api/recepcion')).json().total).toBe(0);
    const again = await w.receive(o.id, 1);
    expect([again.statusCode, again.json().code]).toEqual([409, 'RECEIPT_EXISTS']);
    // The receiver's shipment page then says what the receipt counted and the claim it opened.
    const received = (await w.receiverApi.get(`/api/recepcion/${o.id}/envios/1`)).json();
    expect(received.lineas).toEqual([
      expect.objectContaining({ id: o.toner, cantidad: 5, recibido: 4, motivo: 'danado' }),
      // A line the receipt did not name arrived whole.
      expect.objectContaining({ id: o.hojas, cantidad: 2, recibido: 2, motivo: null }),
    ]);
    expect(received.recepcion).toMatchObject({
      por: 'Rogelio Recibe',
      nota: 'Una caja golpeada',
      fotos: [{ id: photo!.id, nombre: 'caja.jpg', tipo: 'image/jpeg' }],
      reclamo: { numero: 1, estado: 'abierto' },
    });
    // The receiver sees the photo it took: its bytes, as the buyer's route serves them.
    const served = await w.receiverApi.get(`/api/recepcion/${o.id}/fotos/${photo!.id}`);
    expect(served.statusCode, served.body).toBe(200);
    expect(served.headers['content-type']).toBe('image/jpeg');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['content-disposition']).toBe(`inline; filename="foto-${photo!.id}.jpg"`);
    expect(served.rawPayload.equals(PHOTOS.jpeg().data)).toBe(true);
    // A shipment not received yet has no receipt and no photos.
    const waiting = (
      await w.receiverApi.get(`/api/recepcion/${(await w.shippedTo(w.norte)).id}/envios/1`)
    ).json();
    expect(waiting.recepcion).toBeNull();
  });

  it('out of reach answers like a missing order or photo: another address, another client, a missing one', async () => {
    const w = await world();
    await w.name(w.receiver.id, { receptor: true, direcciones: [w.norte.id] });
    const toSur = await w.shippedTo(w.sur);
    const foreign = await world();
    const theirs = await foreign.shippedTo(foreign.norte);
    for (const id of [toSur.id, theirs.id, 999_999_999]) {
      const receipt = await w.receiverApi.post(`/api/recepcion/${id}/envios/1/recepcion`, {});
      expect([receipt.statusCode, receipt.json().code]).toEqual([404, 'ORDER_NOT_FOUND']);
      const photo = await w.receiverUpload(id);
      expect(photo.statusCode).toBe(404);
    }
    // Nothing was written.
    expect(await db().select().from(orderReceipts).where(eq(orderReceipts.orderId, toSur.id))).toEqual([]);
    // A receiver's photo cannot be attached by the buyer (photos are the uploader's), nor served to strangers.
    const o = await w.shippedTo(w.norte);
    const mine = (await w.receiverUpload(o.id)).json().id;
    const byBuyer = await w.receive(o.id, 1, { fotos: [mine] });
    expect(byBuyer.statusCode).toBe(400);

    // Photos are served within the reach only: another address's, another client's, a missing photo, and a
    // photo of a reachable order asked under another order all answer like a missing photo.
    const photoNotFound = async (url: string) => {
      const res = await w.receiverApi.get(url);
      expect([res.statusCode, res.json().msg, res.json().code], url).toEqual([
        404,
        MSG.fotoNoEncontrada,
        'PHOTO_NOT_FOUND',
      ]);
    };
    const sur = (await w.upload(toSur.id, PHOTOS.jpeg())).json().id as number;
    const foreignPhoto = (await foreign.upload(theirs.id, PHOTOS.png())).json().id as number;
    expect((await w.buyerApi.get(`/api/historial/${toSur.id}/fotos/${sur}`)).statusCode).toBe(200);
    await photoNotFound(`/api/recepcion/${toSur.id}/fotos/${sur}`);
    await photoNotFound(`/api/recepcion/${theirs.id}/fotos/${foreignPhoto}`);
    await photoNotFound(`/api/recepcion/${o.id}/fotos/999999999`);
    await photoNotFound(`/api/recepcion/${o.id}/fotos/${sur}`);
    await photoNotFound(`/api/recepcion/${999_999_999}/fotos/${mine}`);
    // Its own loose photo of a reachable order is served; signed out, nothing is.
    expect((await w.receiverApi.get(`/api/recepcion/${o.id}/fotos/${mine}`)).statusCode).toBe(200);
    const anonymous = await new ApiClient(t.app, nextIp()).get(`/api/recepcion/${o.id}/fotos/${mine}`);
    expect(anonymous.statusCode).toBe(401);
  });

  it('the buyer and the receiver receive the same shipment at once: one is written, the other gets 409', async () => {
    const w = await world();
    await w.name(w.receiver.id, { receptor: true, direcciones: [] });
    const o = await w.shippedTo(w.norte);
    const results = await Promise.all([
      w.receive(o.id, 1, {}),
      w.receiverApi.post(`/api/recepcion/${o.id}/envios/1/recepcion`, {
        lineas: [{ id: o.toner, recibido: 4, motivo: 'faltante' }],
        resolucion: 'credito',
      }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(results.find((r) => r.statusCode === 409)!.json().code).toBe('RECEIPT_EXISTS');
    const receipts = await db().select().from(orderReceipts).where(eq(orderReceipts.orderId, o.id));
    expect(receipts).toHaveLength(1);
    const winner = results[0]!.statusCode === 200 ? w.buyer.id : w.receiver.id;
    expect(receipts[0]!.userId).toBe(winner);
    // The shipment is marked received once, by the winner's receipt (decision 0139).
    const [flag] = await db()
      .select({ recibido: orderShipments.recibido })
      .from(orderShipments)
      .where(eq(orderShipments.orderId, o.id));
    expect(flag?.recibido).toBe(true);
    expect(await shipmentFlagDrift(db())).toEqual([]);
    expect(await waitingShipmentCountDrift(db())).toEqual([]);
    // A claim exists only when the receiver's receipt (with its difference) won.
    const claims = await db().select().from(orderClaims).where(eq(orderClaims.orderId, o.id));
    expect(claims).toHaveLength(winner === w.receiver.id ? 1 : 0);
  });

  it('the receivers’ total is the kept count of their addresses, exact under shipments and receipts at once (decision 0149)', async () => {
    const w = await world();
    await w.name(w.receiver.id, { receptor: true, direcciones: [w.norte.id] });
    const total = async () => {
      const res = await w.receiverApi.get('/api/recepcion');
      expect(res.statusCode, res.body).toBe(200);
      return res.json().total as number;
    };
    // Six approved orders sent to Almacén Norte and two to the profile's address, all shipped at once.
    const toNorte = [];
    for (let i = 0; i < 6; i++) {
      const o = await w.approved(1, 1);
      await w.sendTo(o.id, w.norte);
      toNorte.push(o);
    }
    const toProfile = [await w.approved(1, 1), await w.approved(1, 1)];
    await Promise.all(
      [...toNorte, ...toProfile].map((o) =>
        w.ship(o.id, [
          { id: o.toner, cantidad: 1 },
          { id: o.hojas, cantidad: 1 },
        ]),
      ),
    );
    expect(await total()).toBe(6);
    // Four received at once (two by the buyer, two by the receiver), and a second shipment of nothing new.
    const results = await Promise.all([
      w.receive(toNorte[0]!.id, 1),
      w.receive(toNorte[1]!.id, 1),
      w.receiverApi.post(`/api/recepcion/${toNorte[2]!.id}/envios/1/recepcion`, {}),
      w.receiverApi.post(`/api/recepcion/${toNorte[3]!.id}/envios/1/recepcion`, {}),
    ]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    expect(await total()).toBe(2);
    // Reaching every address: Norte's two and the profile's two; the search still counts its matches.
    await w.name(w.receiver.id, { receptor: true, direcciones: [] });
    expect(await total()).toBe(4);
    const searched = await w.receiverApi.get(`/api/recepcion?q=${toProfile[0]!.id}`);
    expect(searched.json().total).toBe(1);
    // Limited to an address with none to receive: zero, not the client's.
    await w.name(w.receiver.id, { receptor: true, direcciones: [w.sur.id] });
    expect(await total()).toBe(0);
    expect(await waitingShipmentCountDrift(db())).toEqual([]);
    expect(await shipmentFlagDrift(db())).toEqual([]);

    // Every statement appends its rows; once the client has many, a read merges them into one an address.
    await w.name(w.receiver.id, { receptor: true, direcciones: [] });
    const rowsOfClient = async () =>
      (
        await db()
          .select({ d: clientShipmentsToReceive.idDireccion, n: clientShipmentsToReceive.envios })
          .from(clientShipmentsToReceive)
          .where(eq(clientShipmentsToReceive.idCliente, w.client.id))
      ).sort((a, b) => a.d - b.d);
    const appended = (await rowsOfClient()).length;
    expect(appended).toBeGreaterThan(2);
    const moved = Array.from({ length: 70 }, (_, i) => ({
      idCliente: w.client.id,
      idDireccion: w.sur.id,
      envios: i % 2 === 0 ? 1 : -1,
    }));
    await db().insert(clientShipmentsToReceive).values(moved);
    expect(await total()).toBe(4);
    expect(await rowsOfClient()).toEqual([
      { d: 0, n: 2 },
      { d: w.norte.id, n: 2 },
    ]);
    expect(await total()).toBe(4);
    expect(await waitingShipmentCountDrift(db())).toEqual([]);
  });

  it('the flag removed refuses the receiver’s very next request', async () => {
    const w = await world();
    await w.name(w.receiver.id, { receptor: true, direcciones: [] });
    const o = await w.shippedTo(w.norte);
    // Served once (the session's principal is kept by the process), then the flag goes.
    expect((await w.receiverApi.get('/api/recepcion')).statusCode).toBe(200);
    expect((await w.receiverApi.get('/api/sesion')).json().user.receptor).toBe(true);
    const own = await clientAdminOf(w.client.id, ['usuarios']);
    expect((await w.name(w.receiver.id, { receptor: false, direcciones: [] }, own)).statusCode).toBe(200);
    const list = await w.receiverApi.get('/api/recepcion');
    expect([list.statusCode, list.json().msg]).toEqual([403, RECEIVER_MSG.soloReceptores]);
    const receipt = await w.receiverApi.post(`/api/recepcion/${o.id}/envios/1/recepcion`, {});
    expect(receipt.statusCode).toBe(403);
    expect((await w.receiverApi.get('/api/sesion')).json().user.receptor).toBe(false);
    expect(await db().select().from(orderReceipts).where(eq(orderReceipts.orderId, o.id))).toEqual([]);
  });
});
