/**
 * Ship-to addresses (decision 0126): a client's address book kept by the distributor and by the client's
 * own administrator, each buyer's default and allowed addresses, the cart's choice, and the order's copy,
 * frozen when the book changes, printed whole by the purchase order, the v1 API and the order. On both
 * databases.
 */
import { ADDRESS_MSG } from '@portal/shared/schemas/addresses';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, systemLogs, users } from '../../db/schema/index.ts';
import { MSG } from '../../messages.ts';
import { integrationToken, signedInAdmin } from '../../test/admin-fixtures.ts';
import { makeBuyer } from '../../test/buyer-fixtures.ts';
import { CLIENT_NOT_FOUND, clientWithAdmin, lacks } from '../../test/client-admin.ts';
import { assign, makeUser, uniq } from '../../test/factories.ts';
import { type ApiClient, createTestApp, DB_KINDS, type TestApp } from '../../test/harness.ts';
import { pdfText } from '../../test/pdf-text.ts';

const NORTE = {
  nombre: 'Almacén Norte',
  calle: 'Av. Industria',
  numero_exterior: '100',
  numero_interior: 'B',
  colonia: 'Industrial',
  municipio: 'Apodaca',
  ciudad: 'Monterrey',
  estado: 'Nuevo León',
  cp: '66600',
  contacto: 'Ana López',
  telefono: '81 1234-5678',
  horario: 'L-V 9:00 a 14:00',
};
const NORTE_LINE =
  'Almacén Norte, Av. Industria núm. ext. 100 int. B, Industrial, Apodaca, Monterrey, Nuevo León, C.P. 66600';
const NORTE_CONTACT = 'Recibe: Ana López · Tel. 81 1234 5678 · Horario: L-V 9:00 a 14:00';
const SUR = {
  ...NORTE,
  nombre: 'Bodega Sur',
  calle: 'Calle Reforma',
  numero_exterior: '5',
  numero_interior: '',
  colonia: 'Centro',
  municipio: 'Monterrey',
  cp: '64000',
  contacto: 'Beto Ruiz',
  telefono: '8187654321',
  horario: '',
};
const SUR_LINE = 'Bodega Sur, Calle Reforma núm. ext. 5, Centro, Monterrey, Nuevo León, C.P. 64000';

describe.each(DB_KINDS)('ship-to addresses (%s)', (kind) => {
  let t: TestApp;
  let distributor: ApiClient;
  beforeAll(async () => {
    t = await createTestApp(kind);
    distributor = (await signedInAdmin(t.app, t.database.db)).api;
  });
  afterAll(async () => {
    await t?.close();
  });
  const db = () => t.database.db;

  /** A buyer (no approval levels: its orders are approved at once) with a product assigned. */
  async function world() {
    const b = await makeBuyer(t, { client: { cantidadAutorizadores: 0 } });
    await db()
      .update(users)
      .set({ direccionEntrega: 'Oficina central', calle: 'Av. Juárez 10', cp: '06000' })
      .where(eq(users.id, b.user.id));
    const product = await b.product(10_000);
    await assign(db(), b.user.id, product.id, 50);
    const create = async (body: Record<string, unknown>) => {
      const res = await distributor.post('/api/direcciones', { id_cliente: b.client.id, ...body });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().direccion as { id: number };
    };
    const buy = async (body: Record<string, unknown> = {}) => {
      const add = await b.api.post('/api/carrito/nuevo_item', { item: { id: product.id, cantidad: 1 } });
      expect(add.statusCode, add.body).toBe(200);
      return b.api.post('/api/compra', { orden: [{ id: product.id, cantidad: 1 }], ...body });
    };
    return { ...b, product, create, buy };
  }

  it('the distributor creates, lists a page at a time, changes and deactivates a client’s addresses', async () => {
    const w = await world();
    const norte = await w.create(NORTE);
    const list = await distributor.get(`/api/direcciones?id_cliente=${w.client.id}`);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject({ total: 1, page: 1, per_page: 20 });
    expect(list.json().direcciones[0]).toMatchObject({
      ...NORTE,
      telefono: '8112345678',
      id: norte.id,
      id_cliente: w.client.id,
      activo: true,
      predeterminada_de: 0,
      permitida_a: 0,
    });
    for (let i = 0; i < 3; i++) await w.create({ ...SUR, nombre: `Sucursal ${i}` });
    const page2 = await distributor.get(`/api/direcciones?id_cliente=${w.client.id}&page=2&por_pagina=3`);
    expect(page2.json()).toMatchObject({ total: 4, page: 2, per_page: 3 });
    expect(page2.json().direcciones.map((d: { nombre: string }) => d.nombre)).toEqual(['Sucursal 2']);

    // The same label (case ignored) twice among the active ones: 409.
    const twice = await distributor.post('/api/direcciones', {
      id_cliente: w.client.id,
      ...NORTE,
      nombre: 'almacén norte',
    });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().msg).toBe(MSG.direccionRepetida);

    const changed = await distributor.put(`/api/direcciones/${norte.id}`, { ...NORTE, horario: 'Sábados' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().direccion.horario).toBe('Sábados');

    const gone = await distributor.request('DELETE', `/api/direcciones/${norte.id}`);
    expect(gone.statusCode, gone.body).toBe(200);
    expect(gone.json().direccion.activo).toBe(false);
    const active = await distributor.get(`/api/direcciones?id_cliente=${w.client.id}`);
    expect(active.json().total).toBe(3);
    const all = await distributor.get(`/api/direcciones?id_cliente=${w.client.id}&inactivas=1`);
    expect(all.json().total).toBe(4);
    // Its label is free again; the log names every change.
    await w.create(NORTE);
    const logged = await db().select().from(systemLogs).where(eq(systemLogs.idCliente, w.client.id));
    expect(logged.map((l) => l.eventType)).toEqual(
      expect.arrayContaining(['direccion_creada', 'direccion_modificada', 'direccion_desactivada']),
    );
  });

  it('refuses a bad C.P., a bad phone and missing fields in Spanish', async () => {
    const w = await world();
    for (const [cp, ok] of [
      ['6660', false],
      ['666001', false],
      ['66a00', false],
      [' 66600 ', true],
    ] as const) {
      const res = await distributor.post('/api/direcciones', {
        id_cliente: w.client.id,
        ...NORTE,
        nombre: uniq('Dirección'),
        cp,
      });
      if (ok) expect(res.statusCode, res.body).toBe(201);
      else {
        expect(res.statusCode, cp).toBe(400);
        expect(res.json().msg).toBe(ADDRESS_MSG.cpInvalido);
      }
    }
    const phone = await distributor.post('/api/direcciones', {
      id_cliente: w.client.id,
      ...NORTE,
      telefono: '12345',
    });
    expect(phone.statusCode).toBe(400);
    expect(phone.json().msg).toBe(ADDRESS_MSG.telefonoInvalido);
    const street = await distributor.post('/api/direcciones', {
      id_cliente: w.client.id,
      ...NORTE,
      calle: ' ',
    });
    expect(street.statusCode).toBe(400);
    expect(street.json().msg).toBe(ADDRESS_MSG.calleRequerida);
    const noClient = await distributor.post('/api/direcciones', NORTE);
    expect(noClient.statusCode).toBe(400);
    expect(noClient.json().msg).toBe(MSG.debesSeleccionarCliente);
  });

  it('a client administrator works on its own client only; another client’s ids answer 404', async () => {
    const w = await world();
    const norte = await w.create(NORTE);
    const own = await clientWithAdmin(t, { permisosCliente: ['usuarios'] });
    const mine = await own.api.post('/api/direcciones', SUR);
    expect(mine.statusCode, mine.body).toBe(201);
    expect(mine.json().direccion.id_cliente).toBe(own.client.id);
    const listed = await own.api.get('/api/direcciones');
    expect(listed.json().direcciones.map((d: { id: number }) => d.id)).toEqual([mine.json().direccion.id]);

    const theirs = await own.api.get(`/api/direcciones?id_cliente=${w.client.id}`);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toMatchObject(CLIENT_NOT_FOUND);
    for (const res of [
      await own.api.put(`/api/direcciones/${norte.id}`, SUR),
      await own.api.request('DELETE', `/api/direcciones/${norte.id}`),
      await own.api.put(`/api/direcciones/${norte.id}`, { ...SUR, id_cliente: own.client.id }),
      await own.api.get(`/api/usuarios/${w.user.id}/direcciones`),
      await own.api.put(`/api/usuarios/${w.user.id}/direcciones`, { id_direccion: null, direcciones: [] }),
    ]) {
      expect(res.statusCode, res.body).toBe(404);
    }
    // An own buyer may not be given another client's address.
    const buyer = await makeUser(db(), { rol: 1, idCliente: own.client.id });
    const foreign = await own.api.put(`/api/usuarios/${buyer.id}/direcciones`, {
      id_direccion: norte.id,
      direcciones: [],
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().msg).toBe(MSG.direccionDeOtroCliente);

    // Without the `usuarios` permission it reads, and changes nothing.
    const reader = await clientWithAdmin(t, { permisosCliente: [] });
    expect((await reader.api.get('/api/direcciones')).statusCode).toBe(200);
    const refused = await reader.api.post('/api/direcciones', SUR);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject(lacks('usuarios'));
  });

  it('a buyer’s default and allowed addresses; a default cannot be deactivated', async () => {
    const w = await world();
    const norte = await w.create(NORTE);
    const sur = await w.create(SUR);
    const other = await w.create({ ...SUR, nombre: 'Otra' });
    const set = await distributor.put(`/api/usuarios/${w.user.id}/direcciones`, {
      id_direccion: norte.id,
      direcciones: [sur.id, norte.id],
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({ status: 'ok', msg: MSG.direccionesGuardadas, id_direccion: norte.id });
    expect(set.json().direcciones).toEqual([
      {
        id: norte.id,
        nombre: 'Almacén Norte',
        direccion: NORTE_LINE.replace('Almacén Norte, ', ''),
        contacto: NORTE_CONTACT,
        predeterminada: true,
      },
      expect.objectContaining({ id: sur.id, nombre: 'Bodega Sur', predeterminada: false }),
    ]);
    expect((await distributor.get(`/api/usuarios/${w.user.id}/direcciones`)).json()).toEqual({
      id_direccion: norte.id,
      direcciones: set.json().direcciones,
    });
    // The buyer reads the same in its cart.
    const cart = await w.api.get('/api/carrito/direcciones');
    expect(cart.statusCode).toBe(200);
    expect(cart.json().direcciones.map((d: { id: number }) => d.id)).toEqual([norte.id, sur.id]);
    // The book counts them.
    const book = await distributor.get(`/api/direcciones?id_cliente=${w.client.id}`);
    const byId = new Map(book.json().direcciones.map((d: { id: number }) => [d.id, d]));
    expect(byId.get(norte.id)).toMatchObject({ predeterminada_de: 1, permitida_a: 0 });
    expect(byId.get(sur.id)).toMatchObject({ predeterminada_de: 0, permitida_a: 1 });

    const inUse = await distributor.request('DELETE', `/api/direcciones/${norte.id}`);
    expect(inUse.statusCode).toBe(409);
    expect(inUse.json().msg).toBe(MSG.direccionPredeterminadaEnUso(1));
    // An allowed one goes, and leaves the buyer's choices.
    expect((await distributor.request('DELETE', `/api/direcciones/${sur.id}`)).statusCode).toBe(200);
    expect(
      (await w.api.get('/api/carrito/direcciones')).json().direcciones.map((d: { id: number }) => d.id),
    ).toEqual([norte.id]);
    // An inactive address cannot be given; only buyers have addresses.
    const inactive = await distributor.put(`/api/usuarios/${w.user.id}/direcciones`, {
      id_direccion: norte.id,
      direcciones: [sur.id],
    });
    expect(inactive.statusCode).toBe(400);
    const approver = await makeUser(db(), { rol: 2, idCliente: w.client.id });
    const notBuyer = await distributor.put(`/api/usuarios/${approver.id}/direcciones`, {
      id_direccion: other.id,
      direcciones: [],
    });
    expect(notBuyer.statusCode).toBe(400);
    expect(notBuyer.json().msg).toBe(MSG.direccionSoloCompradores);
    const missing = await distributor.put('/api/usuarios/2147483647/direcciones', {
      id_direccion: null,
      direcciones: [],
    });
    expect(missing.statusCode).toBe(404);
  });

  it('the order copies the chosen address whole and keeps it when the book changes; the PDF prints it', async () => {
    const w = await world();
    const norte = await w.create(NORTE);
    const sur = await w.create(SUR);
    const other = await w.buy({ id_direccion: norte.id });
    // Not yet the buyer's: refused with the cart untouched.
    expect(other.statusCode).toBe(400);
    expect(other.json()).toMatchObject({ code: 'ADDRESS_NOT_ALLOWED', msg: MSG.direccionNoPermitida });
    // Without any: today's profile address.
    const first = await w.api.post('/api/compra', { orden: [{ id: w.product.id, cantidad: 1 }] });
    expect(first.statusCode, first.body).toBe(201);
    const [profileCopy] = await db().select().from(orders).where(eq(orders.id, first.json().pedido.id));
    expect(profileCopy!.entrega).toEqual({
      direccion_entrega: 'Oficina central',
      calle: 'Av. Juárez 10',
      colonia: '',
      ciudad: '',
      estado: '',
      cp: '06000',
    });

    await distributor.put(`/api/usuarios/${w.user.id}/direcciones`, {
      id_direccion: norte.id,
      direcciones: [sur.id],
    });
    // The default when none is named.
    const byDefault = await w.buy();
    expect(byDefault.statusCode, byDefault.body).toBe(201);
    const [defaultCopy] = await db().select().from(orders).where(eq(orders.id, byDefault.json().pedido.id));
    expect(defaultCopy!.entrega).toEqual({ id_direccion: norte.id, ...NORTE, telefono: '8112345678' });

    // The second address, chosen.
    const chosen = await w.buy({ id_direccion: sur.id });
    expect(chosen.statusCode, chosen.body).toBe(201);
    const id = chosen.json().pedido.id as number;
    const [copy] = await db().select().from(orders).where(eq(orders.id, id));
    expect(copy!.entrega).toEqual({ id_direccion: sur.id, ...SUR });

    // The book changes afterwards: the order keeps its copy everywhere.
    await distributor.put(`/api/direcciones/${sur.id}`, {
      ...SUR,
      calle: 'Calle Nueva',
      contacto: 'Otra Persona',
    });
    const [after] = await db().select().from(orders).where(eq(orders.id, id));
    expect(after!.entrega).toEqual(copy!.entrega);
    const detail = await w.api.get(`/api/historial/${id}`);
    expect(detail.json().pedido.entrega).toEqual({
      direccion: SUR_LINE,
      contacto: 'Recibe: Beto Ruiz · Tel. 81 8765 4321',
    });
    const pdf = await w.api.get(`/api/historial/${id}/pdf`);
    expect(pdf.statusCode, pdf.body).toBe(200);
    const { text } = await pdfText(pdf.rawPayload);
    const flat = text.replace(/\s+/g, ' ');
    expect(flat).toContain(SUR_LINE);
    expect(flat).toContain('Recibe: Beto Ruiz');
    expect(flat).not.toContain('Calle Nueva');
    // The default order's PDF prints the contact and window too.
    const pdf2 = await w.api.get(`/api/historial/${byDefault.json().pedido.id}/pdf`);
    const flat2 = (await pdfText(pdf2.rawPayload)).text.replace(/\s+/g, ' ');
    expect(flat2).toContain(NORTE_LINE);
    expect(flat2).toContain(NORTE_CONTACT);

    // The v1 API prints every part, the entry and both lines.
    const token = await integrationToken(distributor, {
      id_cliente: w.client.id,
      permisos: ['pedidos:leer'],
    });
    const v1 = await t.app.inject({
      method: 'GET',
      url: `/api/v1/pedidos/${id}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(v1.statusCode, v1.body).toBe(200);
    expect(v1.json().entrega).toEqual({
      id_direccion: sur.id,
      direccion_entrega: '',
      ...SUR,
      completa: SUR_LINE,
      contacto_completo: 'Recibe: Beto Ruiz · Tel. 81 8765 4321',
    });
  });

  it('refuses another client’s, a missing, an inactive or a not allowed address at purchase', async () => {
    const w = await world();
    const norte = await w.create(NORTE);
    const sur = await w.create(SUR);
    await distributor.put(`/api/usuarios/${w.user.id}/direcciones`, {
      id_direccion: norte.id,
      direcciones: [sur.id],
    });
    const elsewhere = await makeBuyer(t);
    const foreign = await distributor.post('/api/direcciones', { id_cliente: elsewhere.client.id, ...NORTE });
    for (const [idDireccion, status, msg] of [
      [foreign.json().direccion.id, 404, MSG.direccionNoEncontrada],
      [2147483647, 404, MSG.direccionNoEncontrada],
      [(await w.create({ ...SUR, nombre: 'No permitida' })).id, 400, MSG.direccionNoPermitida],
    ] as const) {
      const res = await w.buy({ id_direccion: idDireccion });
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json().msg).toBe(msg);
    }
    await distributor.request('DELETE', `/api/direcciones/${sur.id}`);
    const inactive = await w.api.post('/api/compra', {
      orden: [{ id: w.product.id, cantidad: 1 }],
      id_direccion: sur.id,
    });
    expect(inactive.statusCode).toBe(400);
    // Nothing was ordered; the cart still holds the product.
    expect(await db().select().from(orders).where(eq(orders.idUser, w.user.id))).toEqual([]);
    const ok = await w.api.post('/api/compra', { orden: [{ id: w.product.id, cantidad: 1 }] });
    expect(ok.statusCode, ok.body).toBe(201);
  });
});
