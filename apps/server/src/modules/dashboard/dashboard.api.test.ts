import { addMonths } from '@portal/shared/domain/months';
import { businessDate, businessMonth } from '@portal/shared/domain/time';
import { and, eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/client.ts';
import { moveOrderTotals } from '../../db/order-totals.ts';
import { productMonthSales, userCategoryBudgets, users } from '../../db/schema/index.ts';
import { parseCsv } from '../../lib/csv-read.ts';
import { MSG } from '../../messages.ts';
import { monthsBack } from '../../test/calendar.ts';
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

const TZ = 'America/Mexico_City';
const toCentavos = (pesos: number | string) => Math.round(Number(pesos) * 100);

describe.each(DB_KINDS)('spend dashboard (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { env: { BUSINESS_TZ: TZ } });
  });
  afterAll(async () => {
    await t?.close();
  });
  const db = () => t.database.db;
  let ip = 0;
  const signIn = (u: { usuario: string }) =>
    new ApiClient(t.app, `10.55.${Math.floor(ip / 200)}.${(ip++ % 200) + 1}`).loginOk(
      u.usuario,
      TEST_PASSWORD,
    );

  /** A client with two buyers, an authorizer, two categories and three products (taxed and untaxed). */
  async function world(modo: 'regular' | 'categoria' = 'regular') {
    const tag = uniq('tab');
    const client = await makeClient(db(), {
      nombre: `Cliente ${tag}`,
      cantidadAutorizadores: 1,
      limiteDeCompras: -1,
      modoPresupuesto: modo,
    });
    const papel = await makeCategory(db(), client.id, 'Papelería');
    const limpieza = await makeCategory(db(), client.id, 'Limpieza');
    const buyer = (nombre: string, presupuesto: number) =>
      makeUser(db(), {
        rol: 1,
        idCliente: client.id,
        nombre,
        presupuestoDefault: presupuesto,
        limiteDeCompras: -1,
      });
    const ana = await buyer('Ana Compras', 1_000_000);
    const beto = await buyer('Beto Compras', 50_000);
    const r2 = await makeUser(db(), { rol: 2, idCliente: client.id });
    const p1 = await makeProduct(db(), {
      idCliente: client.id,
      idCategoria: papel.id,
      precio: 12345,
      impuesto: true,
    });
    const p2 = await makeProduct(db(), {
      idCliente: client.id,
      idCategoria: limpieza.id,
      precio: 9999,
      impuesto: false,
    });
    const p3 = await makeProduct(db(), {
      idCliente: client.id,
      idCategoria: papel.id,
      precio: 333,
      impuesto: true,
    });
    for (const u of [ana, beto]) for (const p of [p1, p2, p3]) await assign(db(), u.id, p.id, 50);
    if (modo === 'categoria')
      await db()
        .insert(userCategoryBudgets)
        .values([
          { userId: ana.id, categoryId: papel.id, presupuesto: 500_000 },
          { userId: ana.id, categoryId: limpieza.id, presupuesto: 300_000 },
          { userId: beto.id, categoryId: papel.id, presupuesto: 20_000 },
          { userId: beto.id, categoryId: limpieza.id, presupuesto: 40_000 },
        ]);
    const api = { ana: await signIn(ana), beto: await signIn(beto), r2: await signIn(r2) };
    /** A real purchase: the cart, then the order. */
    const buy = async (who: ApiClient, items: [typeof p1, number][]) => {
      for (const [p, cantidad] of items)
        await who.post('/api/carrito/nuevo_item', { item: { id: p.id, cantidad } });
      const res = await who.post('/api/compra', {
        orden: items.map(([p, cantidad]) => ({ id: p.id, cantidad })),
        fecha: businessDate(new Date(), TZ),
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().pedido.id as number;
    };
    const old = (
      who: { id: number },
      monthsAgo: number,
      status: 'aprobado' | 'cancelado',
      items: [typeof p1, number][],
    ) =>
      makeOrder(db(), {
        idUser: who.id,
        idCliente: client.id,
        status,
        transactionDate: monthsBack(monthsAgo, new Date(), TZ),
        lines: items.map(([p, cantidad]) => ({
          productId: p.id,
          precio: p.precio,
          impuesto: p.impuesto,
          cantidad,
          idCategoria: p.idCategoria,
        })),
      });
    return { tag, client, papel, limpieza, ana, beto, r2, p1, p2, p3, api, buy, old };
  }

  /** A varied month and history: purchases, an approval with edits, a cancellation, a withdrawal. */
  async function activity(w: Awaited<ReturnType<typeof world>>) {
    const a1 = await w.buy(w.api.ana, [
      [w.p1, 3],
      [w.p2, 2],
      [w.p3, 7],
    ]);
    const a2 = await w.buy(w.api.ana, [[w.p3, 1]]);
    const b1 = await w.buy(w.api.beto, [
      [w.p1, 1],
      [w.p2, 1],
    ]);
    const b2 = await w.buy(w.api.beto, [[w.p3, 5]]);
    const a3 = await w.buy(w.api.ana, [[w.p2, 4]]);
    // Approved with an edit (3 → 2 of p1, p3 removed), another cancelled, one withdrawn.
    const edit = await w.api.r2.post('/api/update/compra', {
      id: a1,
      orden: [
        { id: w.p1.id, cantidad: 2 },
        { id: w.p2.id, cantidad: 2 },
      ],
    });
    expect(edit.statusCode, edit.body).toBe(200);
    expect((await w.api.r2.post(`/api/cancelar/compra/${b1}`, { motivo: 'No' })).statusCode).toBe(200);
    expect((await w.api.beto.post(`/api/historial/${b2}/retirar`, {})).statusCode).toBe(200);
    await w.old(w.ana, 2, 'aprobado', [[w.p1, 10]]);
    await w.old(w.beto, 2, 'cancelado', [[w.p2, 9]]);
    await w.old(w.ana, 5, 'aprobado', [
      [w.p3, 4],
      [w.p2, 1],
    ]);
    return { a1, a2, a3, b1, b2 };
  }

  const csv = async (api: ApiClient, tipo: 'general' | 'detalle', desde: string, hasta: string) => {
    const res = await api.post(
      tipo === 'general' ? '/api/reporte/autorizador' : '/api/reporte/autorizador/productos/detalle',
      {
        tipo,
        fecha_inicio: desde,
        fecha_fin: hasta,
      },
    );
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    const table = parseCsv(res.body);
    return table.records.map((r) => Object.fromEntries(table.header.map((h, i) => [h, r.cells[i] ?? ''])));
  };

  it('months, buyers and top products equal the reports and the budget cards, to the centavo', async () => {
    const w = await world();
    await activity(w);
    const res = await w.api.r2.get('/api/tablero');
    expect(res.statusCode, res.body).toBe(200);
    const tab = res.json();
    const current = businessMonth(new Date(), TZ).key;
    expect(tab).toMatchObject({
      cliente: { id: w.client.id },
      hasta: current,
      desde: addMonths(current, -11),
      modo: 'regular',
    });
    expect(tab.meses).toHaveLength(12);

    // Months by status = the general report's totals by month and status.
    const first = `${tab.desde}-01`;
    const rows = await csv(w.api.r2, 'general', first, businessDate(new Date(), TZ));
    const fromCsv = new Map<string, number>();
    for (const r of rows) {
      const [, mm, yyyy] = r.Fecha!.split('/');
      const key = `${yyyy}-${mm}:${r.Estatus!.toLowerCase()}`;
      fromCsv.set(key, (fromCsv.get(key) ?? 0) + toCentavos(r.Total!));
    }
    for (const m of tab.meses)
      for (const s of ['aprobado', 'pendiente', 'espera', 'cancelado'])
        expect(toCentavos(m[s]), `${m.mes} ${s}`).toBe(fromCsv.get(`${m.mes}:${s}`) ?? 0);
    expect(tab.meses.some((m: { aprobado: number }) => m.aprobado > 0)).toBe(true);

    // Top products = the detail report's non-cancelled lines: quantity and amount per product.
    const detail = await csv(w.api.r2, 'detalle', first, businessDate(new Date(), TZ));
    // Lines keep the product's key at purchase; orders written by the factory carry `CL-<id>`.
    const idOf = new Map<string, number>();
    for (const p of [w.p1, w.p2, w.p3]) {
      idOf.set(p.claveInterna, p.id);
      idOf.set(`CL-${p.id}`, p.id);
    }
    const perProduct = new Map<number, { cantidad: number; importe: number }>();
    for (const r of detail.filter((d) => d.Estatus !== 'Cancelado')) {
      const id = idOf.get(r['Clave interna']!)!;
      const p = perProduct.get(id) ?? { cantidad: 0, importe: 0 };
      p.cantidad += Number(r.Cantidad);
      p.importe += toCentavos(r.Importe!);
      perProduct.set(id, p);
    }
    expect(tab.top_productos).toHaveLength(3);
    for (const p of tab.top_productos)
      expect({ cantidad: p.cantidad, importe: toCentavos(p.importe) }).toEqual(perProduct.get(p.id));
    const importes = tab.top_productos.map((p: { importe: number }) => p.importe);
    expect(importes).toEqual([...importes].sort((a: number, b: number) => b - a));

    // Buyers = their own "Utilizado" and "Presupuesto" cards this month.
    for (const who of ['ana', 'beto'] as const) {
      const card = (await w.api[who].get('/api/sesion')).json().comprador.presupuesto;
      const row = tab.por_usuario.find((u: { id: number }) => u.id === w[who].id);
      expect({ presupuesto: row.presupuesto, utilizado: row.utilizado }).toEqual({
        presupuesto: card.presupuesto_total,
        utilizado: card.presupuesto_utilizado,
      });
    }
    // Sorted by share: Beto's $500 budget holds a smaller share than… whoever is higher comes first.
    const shares = tab.por_usuario.map(
      (u: { utilizado: number; presupuesto: number }) => u.utilizado / u.presupuesto,
    );
    expect(shares).toEqual([...shares].sort((a: number, b: number) => b - a));
    expect(tab.usuarios.total).toBe(2);
    // Regular budgets: categories of the month, no budget, amount plus IVA per line as the detail report.
    const monthDetail = detail.filter(
      (d) => d.Estatus !== 'Cancelado' && d.Fecha!.endsWith(`/${current.slice(5)}/${current.slice(0, 4)}`),
    );
    for (const c of tab.por_categoria) {
      const expected = monthDetail
        .filter((d) => d.Categoría === c.nombre)
        .reduce((s, d) => s + toCentavos(d.Importe!) + toCentavos(d.IVA!), 0);
      expect({ nombre: c.nombre, presupuesto: c.presupuesto, utilizado: toCentavos(c.utilizado) }).toEqual({
        nombre: c.nombre,
        presupuesto: null,
        utilizado: expected,
      });
    }
    expect(tab.por_dia).toBeNull();
    expect(tab.clientes_cerca).toBeNull();
  });

  it('category budgets: each buyer and category equals the buyer’s category cards', async () => {
    const w = await world('categoria');
    await activity(w);
    const tab = (await w.api.r2.get('/api/tablero')).json();
    expect(tab.modo).toBe('categoria');
    const totals = new Map<number, { presupuesto: number; utilizado: number }>();
    for (const who of ['ana', 'beto'] as const) {
      const session = (await w.api[who].get('/api/sesion')).json().comprador;
      const row = tab.por_usuario.find((u: { id: number }) => u.id === w[who].id);
      expect({ presupuesto: row.presupuesto, utilizado: row.utilizado }).toEqual({
        presupuesto: session.presupuesto.presupuesto_total,
        utilizado: session.presupuesto.presupuesto_utilizado,
      });
      for (const c of session.categorias) {
        if (c.presupuesto === null) continue;
        const sum = totals.get(c.id) ?? { presupuesto: 0, utilizado: 0 };
        sum.presupuesto += toCentavos(c.presupuesto);
        sum.utilizado += toCentavos(c.utilizado);
        totals.set(c.id, sum);
      }
    }
    expect(tab.por_categoria.map((c: { id: number }) => c.id).sort()).toEqual([...totals.keys()].sort());
    for (const c of tab.por_categoria)
      expect({ presupuesto: toCentavos(c.presupuesto), utilizado: toCentavos(c.utilizado) }).toEqual(
        totals.get(c.id),
      );
  });

  it('administrators: one client or every client, orders per day and the clients closest to their budgets', async () => {
    const w = await world();
    await activity(w);
    const other = await world();
    await other.buy(other.api.beto, [[other.p1, 3]]);
    const admin = await signIn(await makeUser(db(), { rol: 4, idCliente: null }));
    const one = (await admin.get(`/api/tablero?cliente=${w.client.id}`)).json();
    const mine = (await w.api.r2.get('/api/tablero')).json();
    expect(one.meses).toEqual(mine.meses);
    expect(one.top_productos).toEqual(mine.top_productos);
    expect(one.por_dia).toHaveLength(30);
    const today = one.por_dia.at(-1);
    expect(today.fecha).toBe(businessDate(new Date(), TZ));
    // Today: every order placed today, cancelled and withdrawn ones too.
    expect(today.pedidos).toBe(5);
    expect(one.clientes_cerca).toBeNull();

    const all = (await admin.get('/api/tablero')).json();
    expect(all.cliente).toBeNull();
    expect(all.por_usuario).toEqual([]);
    expect(all.clientes_cerca.length).toBeGreaterThan(0);
    expect(all.clientes_cerca.length).toBeLessThanOrEqual(5);
    const current = mine.meses.at(-1);
    const everyone = all.meses.at(-1);
    expect(everyone.aprobado).toBeGreaterThanOrEqual(current.aprobado);
  });

  it('the buyer’s six months against the budget, as the cards count them (regular and category budgets)', async () => {
    for (const modo of ['regular', 'categoria'] as const) {
      const w = await world(modo);
      await activity(w);
      const res = await w.api.ana.get('/api/historial/gasto');
      expect(res.statusCode, res.body).toBe(200);
      const gasto = res.json();
      const current = businessMonth(new Date(), TZ).key;
      expect(gasto.modo).toBe(modo);
      expect(gasto.meses.map((m: { mes: string }) => m.mes)).toEqual(
        [5, 4, 3, 2, 1, 0].map((n) => addMonths(current, -n)),
      );
      const session = (await w.api.ana.get('/api/sesion')).json().comprador;
      expect(gasto.presupuesto).toBe(session.presupuesto.presupuesto_total);
      expect(gasto.meses.at(-1).utilizado).toBe(session.presupuesto.presupuesto_utilizado);
      // The orders written two and five calendar months back count in their months.
      const months = new Map(
        gasto.meses.map((m: { mes: string; utilizado: number }) => [m.mes, m.utilizado]),
      );
      expect(months.get(addMonths(current, -2))).toBeGreaterThan(0);
      expect(months.get(addMonths(current, -5))).toBeGreaterThan(0);
      if (modo === 'categoria') {
        expect(gasto.categorias.map((c: { nombre: string }) => c.nombre)).toEqual(['Limpieza', 'Papelería']);
        for (const c of gasto.categorias) {
          const card = session.categorias.find((x: { id: number }) => x.id === c.id);
          expect({ presupuesto: c.presupuesto, utilizado: c.meses.at(-1).utilizado }).toEqual({
            presupuesto: card.presupuesto,
            utilizado: card.utilizado,
          });
        }
      } else expect(gasto.categorias).toEqual([]);
    }
    const w = await world();
    expect((await w.api.r2.get('/api/historial/gasto')).statusCode).toBe(403);
  });

  it('a change to the orders shows in the next view at once (the range figures are never stale)', async () => {
    const w = await world();
    const admin = await signIn(await makeUser(db(), { rol: 4, idCliente: null }));
    const view = async () => (await w.api.r2.get('/api/tablero')).json();
    const everyone = async () => (await admin.get('/api/tablero')).json();
    const before = await view();
    const allBefore = await everyone();
    expect(before.meses.at(-1).pendiente).toBe(0);
    const id = await w.buy(w.api.ana, [[w.p2, 3]]);
    const bought = await view();
    expect(bought.meses.at(-1).pendiente).toBe(299.97);
    expect(bought.top_productos).toEqual([
      { id: w.p2.id, clave: w.p2.claveInterna, nombre: w.p2.nombre, cantidad: 3, importe: 299.97 },
    ]);
    expect((await everyone()).meses.at(-1).pendiente).toBeCloseTo(
      allBefore.meses.at(-1).pendiente + 299.97,
      2,
    );
    await w.api.r2.post('/api/update/compra', { id, orden: [{ id: w.p2.id, cantidad: 1 }] });
    const approved = await view();
    expect(approved.meses.at(-1)).toMatchObject({ pendiente: 0, aprobado: 99.99 });
    expect(approved.top_productos[0]).toMatchObject({ cantidad: 1, importe: 99.99 });
    // Even a change made directly in the database (the counter moves with the orders themselves; the
    // summary is kept by hand here as every path that changes orders keeps it).
    await db().transaction(async (tx) => {
      await moveOrderTotals(tx, id, -1);
      await tx.execute(sql`update orders set status = 'cancelado', surtido_estatus = null where id = ${id}`);
    });
    expect((await view()).meses.at(-1)).toMatchObject({ aprobado: 0, cancelado: 99.99 });
  });

  it('the client’s counter moves with every change of its orders; on PostgreSQL two connections writing them at once do not queue on it', async () => {
    const w = await world();
    const version = async () =>
      Number(
        (
          await rowsOf<{ v: string | null }>(
            db(),
            sql`select sum(version)::text as v from client_order_versions where id_cliente = ${w.client.id}`,
          )
        )[0]?.v ?? 0,
      );
    const order = () =>
      makeOrder(db(), {
        idUser: w.ana.id,
        idCliente: w.client.id,
        lines: [{ productId: w.p1.id, precio: 1000, cantidad: 1, idCategoria: w.papel.id }],
      });
    const start = await version();
    const first = await order();
    const second = await order();
    expect(await version()).toBe(start + 2);
    await db().execute(sql`update orders set nota = 'uno' where id = ${first.id}`);
    // Deleted with its part of the summary, as every path that changes orders keeps it.
    await db().transaction(async (tx) => {
      await moveOrderTotals(tx, second.id, -1);
      await tx.execute(sql`delete from orders where id = ${second.id}`);
    });
    expect(await version()).toBe(start + 4);
    if (kind !== 'postgres') return;
    // Two connections of different stripes (decision 0084): the first raises its row and keeps its
    // transaction open; the second's commit must not wait for it (with one row a client it did, until the
    // first committed: here, until its lock timeout).
    const url = (t.database.pool as unknown as { options: { connectionString: string } }).options
      .connectionString;
    const opened: pg.Client[] = [];
    try {
      let a: { c: pg.Client; stripe: number } | undefined;
      let b: { c: pg.Client; stripe: number } | undefined;
      while (!b && opened.length < 40) {
        const c = new pg.Client({ connectionString: url });
        await c.connect();
        opened.push(c);
        const stripe = Number((await c.query('select pg_backend_pid() % 16 as s')).rows[0].s);
        if (!a) a = { c, stripe };
        else if (stripe !== a.stripe) b = { c, stripe };
      }
      if (!a || !b) throw new Error('no two connections of different stripes');
      const third = await order();
      await a.c.query('begin');
      await a.c.query(`update orders set nota = 'a' where id = $1`, [first.id]);
      await a.c.query('set constraints all immediate');
      await b.c.query(`set lock_timeout = '3s'`);
      await b.c.query('begin');
      await b.c.query(`update orders set nota = 'b' where id = $1`, [third.id]);
      await b.c.query('commit');
      await a.c.query('commit');
      expect(await version()).toBe(start + 7);
    } finally {
      await Promise.all(opened.map((c) => c.end()));
    }
  });

  it('buyers by share of their budget: sorted, cut to the top, counted at 80 % and 100 % (both budget modes)', async () => {
    for (const modo of ['regular', 'categoria'] as const) {
      const w = await world(modo);
      const make = async (nombre: string, presupuesto: number, spend: number) => {
        const u = await makeUser(db(), {
          rol: 1,
          idCliente: w.client.id,
          nombre,
          presupuestoDefault: presupuesto,
        });
        if (modo === 'categoria' && presupuesto > 0)
          await db()
            .insert(userCategoryBudgets)
            .values({ userId: u.id, categoryId: w.limpieza.id, presupuesto });
        if (spend > 0)
          await makeOrder(db(), {
            idUser: u.id,
            idCliente: w.client.id,
            status: 'aprobado',
            lines: [
              { productId: w.p2.id, precio: spend, impuesto: false, cantidad: 1, idCategoria: w.limpieza.id },
            ],
          });
        return u;
      };
      const exact = await make('Exacto 80', 100_000, 80_000);
      const over = await make('Pasado', 100_000, 103_000);
      const none = await make('Sin presupuesto', 0, 5_000);
      const low = await make('Poco', 100_000, 13_000);
      const under = await make('Casi', 100_000, 79_999);
      const tab = (await w.api.r2.get('/api/tablero')).json();
      // Ana and Beto (world) have spent nothing: share 0, after everyone else, by id. With category budgets
      // the cards count only categories with a budget: the buyer without one has used nothing.
      const shared = [over.id, exact.id, under.id, low.id, w.ana.id, w.beto.id];
      expect(
        tab.por_usuario.map((u: { id: number }) => u.id),
        modo,
      ).toEqual(modo === 'regular' ? [none.id, ...shared] : [...shared, none.id]);
      expect(tab.usuarios, modo).toEqual(
        modo === 'regular'
          ? { total: 7, sobre_80: 3, sobre_100: 2 }
          : { total: 7, sobre_80: 2, sobre_100: 1 },
      );
    }
  });

  it('the buyers’ part shows each change of a buyer or its budgets at once (it is reused only while none happened)', async () => {
    for (const modo of ['regular', 'categoria'] as const) {
      const w = await world(modo);
      const buyers = async () => {
        const tab = (await w.api.r2.get('/api/tablero')).json();
        return { lista: tab.por_usuario, usuarios: tab.usuarios, categorias: tab.por_categoria };
      };
      const ana = async () =>
        (await buyers()).lista.find((u: { id: number }) => u.id === w.ana.id) as
          | { nombre: string; usuario: string; presupuesto: number; utilizado: number; pedidos: number }
          | undefined;
      const first = await buyers();
      expect(await buyers(), modo).toEqual(first);
      expect((await ana())?.pedidos, modo).toBe(0);
      // A purchase (the orders' counter).
      await w.buy(w.api.ana, [[w.p2, 2]]);
      expect((await ana())?.pedidos, modo).toBe(1);
      // A rename, a new username, a new monthly budget: written straight to the table, as any path would.
      await db().update(users).set({ nombre: 'Ana Renombrada' }).where(eq(users.id, w.ana.id));
      expect((await ana())?.nombre, modo).toBe('Ana Renombrada');
      const usuario = uniq('ana');
      await db().update(users).set({ usuario }).where(eq(users.id, w.ana.id));
      expect((await ana())?.usuario, modo).toBe(usuario);
      await db().update(users).set({ presupuestoDefault: 777_700 }).where(eq(users.id, w.ana.id));
      // (With category budgets the buyer's budget is the sum of them.)
      if (modo === 'regular') expect((await ana())?.presupuesto, modo).toBe(7_777);
      if (modo === 'categoria') {
        // A category budget of hers changes the category's budget.
        const papel = async () =>
          (await buyers()).categorias.find((c: { id: number }) => c.id === w.papel.id)?.presupuesto;
        const before = await papel();
        await db()
          .update(userCategoryBudgets)
          .set({ presupuesto: 900_000 })
          .where(
            and(eq(userCategoryBudgets.userId, w.ana.id), eq(userCategoryBudgets.categoryId, w.papel.id)),
          );
        expect(await papel(), modo).toBe(before + 4_000);
      }
      // A new buyer counts; a deactivated one without orders this month leaves the list.
      const nuevo = await makeUser(db(), { rol: 1, idCliente: w.client.id, presupuestoDefault: 1_000 });
      expect((await buyers()).usuarios.total, modo).toBe(first.usuarios.total + 1);
      await db().update(users).set({ activo: false }).where(eq(users.id, nuevo.id));
      expect((await buyers()).usuarios.total, modo).toBe(first.usuarios.total);
      // A sign-in writes the user's row too, and changes nothing shown: the same figures.
      const now = await buyers();
      await signIn({ usuario });
      expect(await buyers(), modo).toEqual(now);
    }
  });

  it('refusals: bad months and ranges are Spanish 400s; another client is 404; buyers 403', async () => {
    const w = await world();
    const other = await world();
    const bad = async (qs: string, msg: string) => {
      const res = await w.api.r2.get(`/api/tablero?${qs}`);
      expect(res.statusCode, `${qs} → ${res.body}`).toBe(400);
      expect(res.json().msg).toBe(msg);
    };
    await bad('desde=2026-13', MSG.mesInvalido);
    await bad('hasta=noviembre', MSG.mesInvalido);
    await bad('desde=2026-5', MSG.mesInvalido);
    await bad('desde=2026-06&hasta=2026-05', MSG.rangoMesesInvalido);
    await bad('desde=2024-01&hasta=2026-01', MSG.rangoMesesLargo);
    expect((await w.api.r2.get('/api/tablero?desde=2024-02&hasta=2026-01')).json().meses).toHaveLength(24);
    // Only `desde`: twelve months from it, never past the current month.
    const current = businessMonth(new Date(), TZ).key;
    expect((await w.api.r2.get(`/api/tablero?desde=${addMonths(current, -3)}`)).json().meses).toHaveLength(4);
    const early = (await w.api.r2.get(`/api/tablero?desde=${addMonths(current, -30)}`)).json();
    expect({ desde: early.desde, hasta: early.hasta }).toEqual({
      desde: addMonths(current, -30),
      hasta: addMonths(current, -19),
    });

    const theirs = await w.api.r2.get(`/api/tablero?cliente=${other.client.id}`);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json().msg).toBe(MSG.clienteNoEncontrado);
    const missing = await w.api.r2.get('/api/tablero?cliente=2000000000');
    expect({ status: missing.statusCode, body: missing.body }).toEqual({
      status: theirs.statusCode,
      body: theirs.body,
    });
    expect((await w.api.r2.get(`/api/tablero?cliente=${w.client.id}`)).statusCode).toBe(200);
    expect((await w.api.ana.get('/api/tablero')).statusCode).toBe(403);
    const admin = await signIn(await makeUser(db(), { rol: 4, idCliente: null }));
    expect((await admin.get('/api/tablero?cliente=2000000000')).statusCode).toBe(404);
  });

  /** The summary recounted from the orders, as rows with something in them. */
  const recount = () =>
    rowsOf<{
      id_cliente: number;
      mes: string;
      product_id: number;
      id_categoria: number;
      cantidad: string;
      importe: string;
      iva: string;
    }>(
      db(),
      sql`select o.id_cliente, to_char(date_trunc('month', o.transaction_date at time zone ${TZ}), 'YYYY-MM-DD') as mes,
          l.product_id, l.id_categoria, sum(l.cantidad)::text as cantidad, sum(l.precio * l.cantidad)::text as importe,
          sum(case when l.impuesto then (l.precio * l.cantidad * 16 + 50) / 100 else 0 end)::text as iva
        from order_lines l join orders o on o.id = l.order_id where o.status <> 'cancelado'
        group by 1, 2, 3, 4 order by 1, 2, 3, 4`,
    );
  const summary = () =>
    rowsOf<{
      id_cliente: number;
      mes: string;
      product_id: number;
      id_categoria: number;
      cantidad: string;
      importe: string;
      iva: string;
    }>(
      db(),
      sql`select id_cliente, to_char(mes, 'YYYY-MM-DD') as mes, product_id, id_categoria, cantidad::text, importe::text, iva::text
        from ${productMonthSales} where cantidad <> 0 or importe <> 0 or iva <> 0 order by 1, 2, 3, 4`,
    );

  it('the sales summary equals a full recount after a random run of purchases, edits, cancellations and withdrawals', async () => {
    const w = await world();
    let seed = 20261125;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const products = [w.p1, w.p2, w.p3];
    const open: number[] = [];
    for (let step = 0; step < 24; step++) {
      const action = open.length === 0 ? 0 : random(4);
      if (action === 0) {
        const who = random(2) === 0 ? w.api.ana : w.api.beto;
        const items = products.filter(() => random(2) === 0);
        open.push(
          await w.buy(
            who,
            (items.length ? items : [w.p2]).map((p) => [p, 1 + random(4)] as [typeof p, number]),
          ),
        );
      } else {
        const id = open.splice(random(open.length), 1)[0]!;
        if (action === 1) {
          const detail = (await w.api.r2.get(`/api/pedidos/${id}`)).json().pedido;
          const orden = detail.lineas
            .filter((_: unknown, i: number) => i === 0 || random(2) === 0)
            .map((l: { id_producto: number; cantidad: number }) => ({
              id: l.id_producto,
              cantidad: Math.max(1, l.cantidad - random(2)),
            }));
          expect((await w.api.r2.post('/api/update/compra', { id, orden })).statusCode).toBe(200);
        } else if (action === 2) {
          expect((await w.api.r2.post(`/api/cancelar/compra/${id}`, {})).statusCode).toBe(200);
        } else {
          const detail = (await w.api.r2.get(`/api/pedidos/${id}`)).json();
          const owner = detail.usuario.id === w.ana.id ? w.api.ana : w.api.beto;
          expect((await owner.post(`/api/historial/${id}/retirar`, {})).statusCode).toBe(200);
        }
      }
    }
    expect(await summary()).toEqual(await recount());
  });

  it('concurrency: purchases of the same products at once keep the summary exact (no deadlock)', async () => {
    const w = await world();
    const buyers = await Promise.all(
      [1, 2, 3, 4, 5, 6].map(async (i) => {
        const u = await makeUser(db(), {
          rol: 1,
          idCliente: w.client.id,
          nombre: `Comprador ${i}`,
          presupuestoDefault: 10_000_000,
          limiteDeCompras: -1,
        });
        for (const p of [w.p1, w.p2, w.p3]) await assign(db(), u.id, p.id, 50);
        return signIn(u);
      }),
    );
    // Opposite product orders, so rows would be locked in opposite orders without the key order.
    const ids = await Promise.all(
      buyers.map((api, i) =>
        w.buy(
          api,
          i % 2 === 0
            ? [
                [w.p1, 1],
                [w.p2, 2],
                [w.p3, 3],
              ]
            : [
                [w.p3, 3],
                [w.p2, 2],
                [w.p1, 1],
              ],
        ),
      ),
    );
    expect(new Set(ids).size).toBe(6);
    await Promise.all(ids.slice(0, 3).map((id) => w.api.r2.post(`/api/cancelar/compra/${id}`, {})));
    expect(await summary()).toEqual(await recount());
  });
});
