import { businessDate } from '@portal/shared/domain/time';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, orderEvents, orders, systemLogs, users } from '../../db/schema/index.ts';
import { MSG } from '../../messages.ts';
import { postForm, signedInAdmin } from '../../test/admin-fixtures.ts';
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
import { startSmtp } from '../../test/smtp.ts';

describe.each(DB_KINDS)('approval rules by amount (%s)', (kind) => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let admin: ApiClient;
  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp(kind, { env: { SMTP_URL: smtp.url } });
    admin = (await signedInAdmin(t.app, t.database.db)).api;
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });
  const db = () => t.database.db;

  /** A client with rules (centavos), a buyer, rol 2 and rol 3, and a $100 + IVA product ($116). */
  async function world(opts: {
    levels: number;
    autoHasta?: number | null;
    segundoNivelDesde?: number | null;
    /** The window whose orders of the buyer add up (decision 0100); 0 (each order alone) unless given. */
    ventana?: number;
  }) {
    const tag = uniq('r');
    const client = await makeClient(db(), { cantidadAutorizadores: opts.levels, limiteDeCompras: -1 });
    await db()
      .update(clients)
      .set({
        aprobacionAutomaticaHasta: opts.autoHasta ?? null,
        segundoNivelDesde: opts.segundoNivelDesde ?? null,
        ventanaReglasHoras: opts.ventana ?? 0,
      })
      .where(eq(clients.id, client.id));
    const category = await makeCategory(db(), client.id, 'Papelería');
    const buyer = await makeUser(db(), {
      rol: 1,
      idCliente: client.id,
      presupuestoDefault: 1_000_000,
      limiteDeCompras: -1,
      nombre: 'Beto Comprador',
      email: `${tag}-comprador@example.test`,
    });
    const auth2 = await makeUser(db(), {
      rol: 2,
      idCliente: client.id,
      email: `${tag}-autorizador@example.test`,
    });
    const auth3 = await makeUser(db(), { rol: 3, idCliente: client.id, email: `${tag}-super@example.test` });
    const product = await makeProduct(db(), {
      idCliente: client.id,
      idCategoria: category.id,
      precio: 10000,
      impuesto: true,
      nombre: 'Tóner',
    });
    await assign(db(), buyer.id, product.id, 50);
    return {
      tag,
      client,
      buyer,
      product,
      api: {
        buyer: await new ApiClient(t.app).loginOk(buyer.usuario, TEST_PASSWORD),
        r2: await new ApiClient(t.app).loginOk(auth2.usuario, TEST_PASSWORD),
        r3: await new ApiClient(t.app).loginOk(auth3.usuario, TEST_PASSWORD),
      },
    };
  }

  async function purchase(w: Awaited<ReturnType<typeof world>>, cantidad: number) {
    const add = await w.api.buyer.post('/api/carrito/nuevo_item', { item: { id: w.product.id, cantidad } });
    expect(add.statusCode, add.body).toBe(200);
    const res = await w.api.buyer.post('/api/compra', {
      orden: [{ id: w.product.id, cantidad }],
      fecha: businessDate(new Date()),
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().pedido as { id: number; status: string; total: number };
  }

  const eventsOf = (id: number) =>
    db().select().from(orderEvents).where(eq(orderEvents.orderId, id)).orderBy(asc(orderEvents.id));

  it('automatic approval: an order up to the amount is aprobado at purchase, with the rule in its event, and the buyer is e-mailed', async () => {
    // $116 per unit: 4 units = $464 ≤ $500; 5 units = $580 > $500.
    const w = await world({ levels: 2, autoHasta: 50000 });
    const small = await purchase(w, 4);
    expect(small).toMatchObject({ status: 'aprobado', total: 464 });
    const events = await eventsOf(small.id);
    expect(events.map((e) => [e.tipo, e.fromStatus, e.toStatus, e.actorId])).toEqual([
      ['creado', null, 'pendiente', w.buyer.id],
      ['aprobado', 'pendiente', 'aprobado', null],
    ]);
    expect(events[1]!.changes).toEqual({ regla: 'aprobacion_automatica', hasta: 50000 });
    const [log] = await db()
      .select()
      .from(systemLogs)
      .where(eq(systemLogs.eventType, 'pedido_aprobado'))
      .orderBy(asc(systemLogs.id));
    expect(log).toBeDefined();
    await t.app.mailer.flush();
    const mail = await smtp.waitFor((m) => m.to.includes(`${w.tag}-comprador@`));
    expect(mail.subject).toBe(`Pedido #${String(small.id).padStart(5, '0')} aprobado`);
    // The buyer's view names the rule.
    const detail = (await w.api.buyer.get(`/api/historial/${small.id}`)).json();
    expect(detail.pedido.eventos[1]).toMatchObject({ tipo: 'aprobado', actor: null, a: 'aprobado' });
    expect(detail.pedido.eventos[1].cambios).toEqual({ regla: 'aprobacion_automatica', hasta: 50000 });

    // Over the amount: pendiente, and the authorizers are e-mailed as always.
    const big = await purchase(w, 5);
    expect(big).toMatchObject({ status: 'pendiente', total: 580 });
    expect((await eventsOf(big.id)).map((e) => e.tipo)).toEqual(['creado']);
    await t.app.mailer.flush();
    await smtp.waitFor((m) => m.to.includes(`${w.tag}-autorizador@`));
    // Nobody is e-mailed to review the automatic one.
    expect(
      smtp.received.some(
        (m) =>
          m.to.includes(`${w.tag}-autorizador@`) && m.subject.includes(String(small.id).padStart(5, '0')),
      ),
    ).toBe(false);
  });

  it('automatic approval still checks the budget at purchase: over it, refused and nothing is written', async () => {
    const w = await world({ levels: 1, autoHasta: 1_000_000 });
    const add = await w.api.buyer.post('/api/carrito/nuevo_item', {
      item: { id: w.product.id, cantidad: 1 },
    });
    expect(add.statusCode, add.body).toBe(200);
    // The budget drops to $100 after the cart was filled: the $116 order no longer fits.
    await db().update(users).set({ presupuestoDefault: 10000 }).where(eq(users.id, w.buyer.id));
    const res = await w.api.buyer.post('/api/compra', {
      orden: [{ id: w.product.id, cantidad: 1 }],
      fecha: businessDate(new Date()),
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().msg).toBe(MSG.presupuestoInsuficienteCompra);
    expect(await db().select().from(orders).where(eq(orders.idUser, w.buyer.id))).toHaveLength(0);
  });

  it('second level from an amount: a level-1 approval below it completes the order, at or above it goes to espera', async () => {
    // $116 per unit; Super Autorizador from $580 (5 units).
    const w = await world({ levels: 2, segundoNivelDesde: 58000 });
    const below = await purchase(w, 4);
    const atLimit = await purchase(w, 5);
    const edited = await purchase(w, 6);
    expect([below.status, atLimit.status, edited.status]).toEqual(['pendiente', 'pendiente', 'pendiente']);

    const view = (await w.api.r2.get(`/api/pedidos/${below.id}`)).json();
    expect(view.reglas).toEqual({
      aprobacion_automatica_hasta: null,
      segundo_nivel_desde: 580,
      ventana_horas: 0,
      previos: 0,
    });

    const r1 = await w.api.r2.post('/api/update/compra', {
      id: below.id,
      orden: [{ id: w.product.id, cantidad: 4 }],
    });
    expect(r1.statusCode, r1.body).toBe(200);
    expect(r1.json()).toMatchObject({ nuevo_estatus: 'aprobado', msg: MSG.pedidoAprobado });
    const ev = (await eventsOf(below.id)).at(-1)!;
    expect(ev).toMatchObject({ tipo: 'aprobado', fromStatus: 'pendiente', toStatus: 'aprobado' });
    expect(ev.changes).toEqual({ regla: 'segundo_nivel', desde: 58000 });

    const r2 = await w.api.r2.post('/api/update/compra', {
      id: atLimit.id,
      orden: [{ id: w.product.id, cantidad: 5 }],
    });
    expect(r2.json()).toMatchObject({ nuevo_estatus: 'espera' });
    expect((await eventsOf(atLimit.id)).at(-1)!.changes).toBeNull();

    // The edited total decides: 6 units ($696) edited down to 4 ($464) completes the order.
    const r3 = await w.api.r2.post('/api/update/compra', {
      id: edited.id,
      orden: [{ id: w.product.id, cantidad: 4 }],
    });
    expect(r3.json()).toMatchObject({ nuevo_estatus: 'aprobado' });
    const [row] = await db().select().from(orders).where(eq(orders.id, edited.id));
    expect(row).toMatchObject({ status: 'aprobado', total: 46400 });

    // The Super Autorizador still gives the final approval of the one at the amount.
    const final = await w.api.r3.post('/api/update/compra', {
      id: atLimit.id,
      orden: [{ id: w.product.id, cantidad: 5 }],
    });
    expect(final.json()).toMatchObject({ nuevo_estatus: 'aprobado' });
  });

  it("a split cart meets the automatic rule as one: the buyer's orders of the window before add up; cancelled and older ones do not", async () => {
    // $116 per unit, automatic up to $500, a 24-hour window.
    const w = await world({ levels: 1, autoHasta: 50000, ventana: 24 });
    const first = await purchase(w, 3); // $348
    expect(first.status).toBe('aprobado');
    expect((await eventsOf(first.id)).at(-1)!.changes).toEqual({
      regla: 'aprobacion_automatica',
      hasta: 50000,
    });
    // $348 + $232 = $580 > $500: this one waits for an approver, though $232 alone would pass.
    const second = await purchase(w, 2);
    expect(second.status).toBe('pendiente');
    expect((await eventsOf(second.id)).map((e) => e.tipo)).toEqual(['creado']);
    // Cancelled, it no longer counts: $348 + $116 = $464 ≤ $500, approved, the rule's event says what was added.
    const cancel = await w.api.r2.post(`/api/cancelar/compra/${second.id}`, {});
    expect(cancel.statusCode, cancel.body).toBe(200);
    const third = await purchase(w, 1);
    expect(third.status).toBe('aprobado');
    expect((await eventsOf(third.id)).at(-1)!.changes).toEqual({
      regla: 'aprobacion_automatica',
      hasta: 50000,
      previos: 34800,
    });
    // Orders placed before the window do not count: moved 25 hours back, $116 + $116 passes again.
    const earlier = new Date(Date.now() - 25 * 3_600_000);
    await db().update(orders).set({ transactionDate: earlier }).where(eq(orders.idUser, w.buyer.id));
    const fourth = await purchase(w, 1);
    expect(fourth.status).toBe('aprobado');
    expect((await eventsOf(fourth.id)).at(-1)!.changes).toEqual({
      regla: 'aprobacion_automatica',
      hasta: 50000,
    });
    // Another buyer of the same client is not added: its $464 is approved alone.
    const other = await makeUser(db(), { rol: 1, idCliente: w.client.id, presupuestoDefault: 1_000_000 });
    await assign(db(), other.id, w.product.id, 50);
    const otherApi = await new ApiClient(t.app).loginOk(other.usuario, TEST_PASSWORD);
    expect(
      (await otherApi.post('/api/carrito/nuevo_item', { item: { id: w.product.id, cantidad: 4 } }))
        .statusCode,
    ).toBe(200);
    const otherOrder = await otherApi.post('/api/compra', {
      orden: [{ id: w.product.id, cantidad: 4 }],
      fecha: businessDate(new Date()),
    });
    expect(otherOrder.json().pedido.status).toBe('aprobado');
  });

  it("a split cart meets the second level as one: a level-1 approval adds the buyer's orders placed in the window before the order", async () => {
    // $116 per unit; Super Autorizador from $1,000; a 24-hour window.
    const w = await world({ levels: 2, segundoNivelDesde: 100000, ventana: 24 });
    const a = await purchase(w, 5); // $580
    const b = await purchase(w, 5); // $580: with a, $1,160
    // The approver's view says what came before and over which window.
    const viewA = (await w.api.r2.get(`/api/pedidos/${a.id}`)).json();
    expect(viewA.reglas).toMatchObject({ segundo_nivel_desde: 1000, ventana_horas: 24, previos: 0 });
    const viewB = (await w.api.r2.get(`/api/pedidos/${b.id}`)).json();
    expect(viewB.reglas).toMatchObject({ ventana_horas: 24, previos: 580 });
    // b first: a was placed before it, $1,160 ≥ $1,000, so it goes to the Super Autorizador.
    const rb = await w.api.r2.post('/api/update/compra', {
      id: b.id,
      orden: [{ id: w.product.id, cantidad: 5 }],
    });
    expect(rb.json()).toMatchObject({ nuevo_estatus: 'espera' });
    // a: nothing placed before it, $580 < $1,000, completed by the rule.
    const ra = await w.api.r2.post('/api/update/compra', {
      id: a.id,
      orden: [{ id: w.product.id, cantidad: 5 }],
    });
    expect(ra.json()).toMatchObject({ nuevo_estatus: 'aprobado' });
    expect((await eventsOf(a.id)).at(-1)!.changes).toEqual({ regla: 'segundo_nivel', desde: 100000 });
    // Edited down so that the sum is below the amount: $580 + $348 = $928, completed, the event says $580 before.
    const c = await purchase(w, 5);
    await db().update(orders).set({ status: 'cancelado', surtidoEstatus: null }).where(eq(orders.id, b.id));
    const rc = await w.api.r2.post('/api/update/compra', {
      id: c.id,
      orden: [{ id: w.product.id, cantidad: 3 }],
    });
    expect(rc.json()).toMatchObject({ nuevo_estatus: 'aprobado' });
    expect((await eventsOf(c.id)).at(-1)!.changes).toEqual({
      regla: 'segundo_nivel',
      desde: 100000,
      previos: 58000,
    });
  });

  it("the approvers' list marks the pendiente orders a level-1 approval would send to the second level", async () => {
    // $116 per unit; Super Autorizador from $1,000; a 24-hour window.
    const w = await world({ levels: 2, segundoNivelDesde: 100000, ventana: 24 });
    const small = await purchase(w, 5); // $580 alone
    const split = await purchase(w, 5); // $580, with small before it $1,160
    const large = await purchase(w, 9); // $1,044 alone is enough
    const marks = async (api = w.api.r2, query = '?status=todos') => {
      const res = await api.get(`/api/pedidos${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return new Map(
        (res.json().pedidos as { id: number; segundo_nivel: boolean }[]).map((p) => [p.id, p.segundo_nivel]),
      );
    };
    expect(await marks()).toEqual(
      new Map([
        [large.id, true],
        [split.id, true],
        [small.id, false],
      ]),
    );
    // An order already in espera is past the question; a cancelled one before it no longer adds up.
    await db().update(orders).set({ status: 'espera' }).where(eq(orders.id, large.id));
    await db()
      .update(orders)
      .set({ status: 'cancelado', surtidoEstatus: null })
      .where(eq(orders.id, small.id));
    expect(await marks()).toEqual(
      new Map([
        [large.id, false],
        [split.id, false],
        [small.id, false],
      ]),
    );
    // Without a rule by amount every order goes to the second level alike: nothing is singled out.
    const plain = await world({ levels: 2 });
    const o = await purchase(plain, 9);
    expect((await marks(plain.api.r2)).get(o.id)).toBe(false);
  });

  it('orders already waiting keep their path when a rule is turned on', async () => {
    const w = await world({ levels: 2 });
    const placed = await purchase(w, 1);
    const r1 = await w.api.r2.post('/api/update/compra', {
      id: placed.id,
      orden: [{ id: w.product.id, cantidad: 1 }],
    });
    expect(r1.json().nuevo_estatus).toBe('espera');
    await db()
      .update(clients)
      .set({ segundoNivelDesde: 100_000, aprobacionAutomaticaHasta: 50_000 })
      .where(eq(clients.id, w.client.id));
    // Already in espera: the Super Autorizador still decides it.
    const view = (await w.api.r3.get(`/api/pedidos/${placed.id}`)).json();
    expect(view.acciones.aprobar).toBe(true);
    const final = await w.api.r3.post('/api/update/compra', {
      id: placed.id,
      orden: [{ id: w.product.id, cantidad: 1 }],
    });
    expect(final.json().nuevo_estatus).toBe('aprobado');
  });

  it('the client form saves, shows, keeps and turns off the rules; refuses negative, clashing and one-level amounts', async () => {
    const base = (extra: Record<string, string>) => ({
      nombre: uniq('Reglas'),
      presupuesto_default: '1000',
      limite_de_compras: '-1',
      cantidad_autorizadores: '2',
      ...extra,
    });
    const created = await postForm(
      admin,
      '/api/clientes',
      base({ aprobacion_automatica_hasta: '500', segundo_nivel_desde: '5000.50' }),
    );
    expect(created.statusCode, created.body).toBe(201);
    const cliente = created.json().cliente;
    expect(cliente).toMatchObject({
      aprobacion_automatica_hasta: 500,
      segundo_nivel_desde: 5000.5,
      ventana_reglas_horas: 24,
    });
    const [row] = await db().select().from(clients).where(eq(clients.id, cliente.id));
    expect(row).toMatchObject({ aprobacionAutomaticaHasta: 50000, segundoNivelDesde: 500050 });

    // Absent keeps, blank turns off.
    const kept = await postForm(admin, `/api/clientes/update/${cliente.id}`, {
      nombre: cliente.nombre,
      presupuesto_default: '1000',
      limite_de_compras: '-1',
    });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json().cliente).toMatchObject({
      aprobacion_automatica_hasta: 500,
      segundo_nivel_desde: 5000.5,
      ventana_reglas_horas: 24,
    });
    const windowed = await postForm(admin, `/api/clientes/update/${cliente.id}`, {
      nombre: cliente.nombre,
      presupuesto_default: '1000',
      limite_de_compras: '-1',
      ventana_reglas_horas: '0',
    });
    expect(windowed.json().cliente).toMatchObject({
      ventana_reglas_horas: 0,
      aprobacion_automatica_hasta: 500,
    });
    const off = await postForm(admin, `/api/clientes/update/${cliente.id}`, {
      nombre: cliente.nombre,
      presupuesto_default: '1000',
      limite_de_compras: '-1',
      aprobacion_automatica_hasta: '',
      segundo_nivel_desde: '',
    });
    expect(off.json().cliente).toMatchObject({
      aprobacion_automatica_hasta: null,
      segundo_nivel_desde: null,
    });

    const refusals: [Record<string, string>, string, string][] = [
      [{ aprobacion_automatica_hasta: '-1' }, MSG.reglaImporteInvalido, 'aprobacion_automatica_hasta'],
      [{ segundo_nivel_desde: 'mucho' }, MSG.reglaImporteInvalido, 'segundo_nivel_desde'],
      [{ aprobacion_automatica_hasta: '10.555' }, MSG.importeDecimales, 'aprobacion_automatica_hasta'],
      [{ ventana_reglas_horas: '721' }, MSG.ventanaReglasHorasInvalida, 'ventana_reglas_horas'],
      [{ ventana_reglas_horas: '1.5' }, MSG.ventanaReglasHorasInvalida, 'ventana_reglas_horas'],
      [{ ventana_reglas_horas: '-1' }, MSG.ventanaReglasHorasInvalida, 'ventana_reglas_horas'],
      [
        { aprobacion_automatica_hasta: '5000', segundo_nivel_desde: '5000' },
        MSG.reglaAutomaticaNoMenor,
        'aprobacion_automatica_hasta',
      ],
      [
        { cantidad_autorizadores: '1', segundo_nivel_desde: '100' },
        MSG.reglaSegundoNivelSinNiveles,
        'segundo_nivel_desde',
      ],
    ];
    for (const [extra, msg, field] of refusals) {
      const res = await postForm(admin, '/api/clientes', base(extra));
      expect(res.statusCode, JSON.stringify(extra)).toBe(400);
      expect(res.json().msg, JSON.stringify(extra)).toBe(msg);
      expect(res.json().errors?.[field], JSON.stringify(extra)).toBe(msg);
    }
    // Lowering the levels of a client that has a second-level amount asks to clear it first.
    const again = await postForm(admin, '/api/clientes', base({ segundo_nivel_desde: '100' }));
    const lowered = await postForm(admin, `/api/clientes/update/${again.json().cliente.id}`, {
      nombre: again.json().cliente.nombre,
      presupuesto_default: '1000',
      limite_de_compras: '-1',
      cantidad_autorizadores: '1',
    });
    expect(lowered.statusCode).toBe(400);
    expect(lowered.json().msg).toBe(MSG.reglaSegundoNivelSinNiveles);
  });
});
