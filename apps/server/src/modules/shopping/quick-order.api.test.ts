import { addDays, businessDate } from '@portal/shared/domain/time';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../messages.ts';
import { type BuyerOptions, cartQuantities, makeBuyer } from '../../test/buyer-fixtures.ts';
import { assign, makeUser, makeWeek, TEST_PASSWORD } from '../../test/factories.ts';
import { ApiClient, createTestApp, DB_KINDS, type TestApp } from '../../test/harness.ts';

describe.each(DB_KINDS)('quick order: POST /api/pedido-rapido (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => t?.close());
  const db = () => t.database.db;

  const buyer = (opts?: BuyerOptions) => makeBuyer(t, opts);
  const quick = (api: ApiClient, texto: unknown) => api.post('/api/pedido-rapido', { texto });
  const cartOf = (userId: number) => cartQuantities(t, userId);
  let n = 0;
  /** A clave of this test's own (claves are unique per client only). */
  const clave = (prefix: string) => `${prefix}-${kind}-${++n}`;

  it('adds lines in order by clave interna or clave cliente, any separator Excel or a person uses', async () => {
    const { user, api, product } = await buyer();
    const a = await product(1000, { nombre: 'Lápiz', claveInterna: clave('LAP') });
    const b = await product(2000, { nombre: 'Goma', claveInterna: clave('GOM'), claveCliente: 'CLI-GOMA' });
    const c = await product(500, { nombre: 'Clip', claveInterna: clave('CLP') });
    const d = await product(700, { nombre: 'Regla', claveInterna: clave('REG') });
    await assign(db(), user.id, a.id, 5);
    await assign(db(), user.id, b.id, 3);
    await assign(db(), user.id, c.id, 10);
    await assign(db(), user.id, d.id, 10);
    const texto = [
      `${a.claveInterna}\t2`,
      '',
      'cli-goma, 1',
      `${c.claveInterna.toLowerCase()};4`,
      `   ${d.claveInterna}    3   `,
      `${a.claveInterna} 9`,
    ].join('\r\n');
    const res = await quick(api, texto);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      status: 'ok',
      msg: MSG.productosAgregados(5),
      omitidos: [],
      desconocidas: [],
      invalidas: [],
    });
    // The second line of a asks on top of the first, capped at its limit of 5.
    expect(body.agregados).toEqual([
      { id: a.id, cantidad: 2 },
      { id: b.id, cantidad: 1 },
      { id: c.id, cantidad: 4 },
      { id: d.id, cantidad: 3 },
      { id: a.id, cantidad: 3 },
    ]);
    // …and the cut is said, never silent.
    expect(body.ajustados).toEqual([
      { id: a.id, pedido: 9, agregado: 3, motivo: 'Se ajustó de 9 a 3 por tu límite.' },
    ]);
    expect(await cartOf(user.id)).toEqual({ [a.id]: 5, [b.id]: 1, [c.id]: 4, [d.id]: 3 });
    expect(body.totales).toMatchObject({ total: 50 + 20 + 20 + 21 });
  });

  it('reports unknown claves by line (another client’s or an unassigned product’s too) and unreadable lines', async () => {
    const { user, api, product } = await buyer();
    const mine = await product(1000, { nombre: 'Mío', claveInterna: clave('MIO') });
    const unassigned = await product(1000, { claveInterna: clave('SIN') });
    const off = await product(1000, { nombre: 'Apagado', claveInterna: clave('OFF'), activo: false });
    await assign(db(), user.id, mine.id, 5);
    await assign(db(), user.id, off.id, 5);
    const other = await buyer();
    const foreign = await other.product(1000, { claveInterna: clave('AJENO') });
    await assign(db(), other.user.id, foreign.id, 5);

    const texto = [
      `${mine.claveInterna} 2`,
      'NO-EXISTE 1',
      `${foreign.claveInterna} 1`,
      `${unassigned.claveInterna} 1`,
      `${mine.claveInterna} 0`,
      `${mine.claveInterna} 1.5`,
      `${mine.claveInterna} dos`,
      `${mine.claveInterna}`,
      `${mine.claveInterna} 1 extra`,
      `${off.claveInterna} 1`,
    ].join('\n');
    const res = await quick(api, texto);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.agregados).toEqual([{ id: mine.id, cantidad: 2 }]);
    expect(body.omitidos).toEqual([
      { id: off.id, nombre: 'Apagado', motivo: MSG.productoInactivo, codigo: 'INACTIVE_PRODUCT' },
    ]);
    expect(body.desconocidas).toEqual([
      { linea: 2, clave: 'NO-EXISTE' },
      { linea: 3, clave: foreign.claveInterna },
      { linea: 4, clave: unassigned.claveInterna },
    ]);
    expect(body.invalidas).toEqual([
      { linea: 5, texto: `${mine.claveInterna} 0`, motivo: MSG.pedidoRapidoCantidad },
      { linea: 6, texto: `${mine.claveInterna} 1.5`, motivo: MSG.pedidoRapidoCantidad },
      { linea: 7, texto: `${mine.claveInterna} dos`, motivo: MSG.pedidoRapidoCantidad },
      { linea: 8, texto: mine.claveInterna, motivo: MSG.pedidoRapidoFaltaCantidad },
      { linea: 9, texto: `${mine.claveInterna} 1 extra`, motivo: MSG.pedidoRapidoFormato },
    ]);
    expect(await cartOf(user.id)).toEqual({ [mine.id]: 2 });

    // A clave cliente that several assigned products share names none of them.
    const twin1 = await product(100, { claveInterna: clave('T1'), claveCliente: 'GEMELO' });
    const twin2 = await product(100, { claveInterna: clave('T2'), claveCliente: 'GEMELO' });
    await assign(db(), user.id, twin1.id, 5);
    await assign(db(), user.id, twin2.id, 5);
    const twins = (await quick(api, `GEMELO 1\n${twin2.claveInterna} 1`)).json();
    expect(twins.invalidas).toEqual([{ linea: 1, texto: 'GEMELO 1', motivo: MSG.pedidoRapidoClaveAmbigua }]);
    expect(twins.agregados).toEqual([{ id: twin2.id, cantidad: 1 }]);
  });

  it('bad input is 400 in Spanish: empty, too long, too many lines, no readable line, wrong type', async () => {
    const { user, api, product } = await buyer();
    const p = await product(100, { claveInterna: clave('P') });
    await assign(db(), user.id, p.id, 5);
    const cases: [unknown, string][] = [
      ['', MSG.pedidoRapidoVacio],
      ['  \n\t\n ', MSG.pedidoRapidoVacio],
      [`${p.claveInterna} 1\n`.padEnd(20_001, ' '), MSG.pedidoRapidoLargo],
      [Array.from({ length: 201 }, () => `${p.claveInterna} 1`).join('\n'), MSG.pedidoRapidoLineas],
      [`\n${p.claveInterna} 0`, MSG.pedidoRapidoLinea(2, MSG.pedidoRapidoCantidad)],
      [`${p.claveInterna} -3`, MSG.pedidoRapidoLinea(1, MSG.pedidoRapidoCantidad)],
      [`${p.claveInterna} 100001`, MSG.pedidoRapidoLinea(1, MSG.pedidoRapidoCantidad)],
      [p.claveInterna, MSG.pedidoRapidoLinea(1, MSG.pedidoRapidoFaltaCantidad)],
      [42, MSG.pedidoRapidoVacio],
      [undefined, MSG.pedidoRapidoVacio],
    ];
    for (const [texto, msg] of cases) {
      const res = await quick(api, texto);
      expect(res.statusCode, String(texto).slice(0, 40)).toBe(400);
      expect(res.json().msg).toBe(msg);
    }
    // 200 lines with content (blank lines besides) is the most it takes.
    const most = Array.from({ length: 200 }, () => `${p.claveInterna} 1\n`).join('\n');
    expect((await quick(api, most)).statusCode).toBe(200);
    expect(await cartOf(user.id)).toEqual({ [p.id]: 5 });
  });

  it('outside the access week, another role or without XSRF it is refused', async () => {
    const mine = await buyer();
    const p = await mine.product(100, { claveInterna: clave('W') });
    await assign(db(), mine.user.id, p.id, 5);
    const body = { texto: `${p.claveInterna} 1` };
    const noXsrf = await mine.api.request('POST', '/api/pedido-rapido', body, { xsrf: null });
    expect(noXsrf.statusCode).toBe(419);
    const authorizer = await makeUser(db(), { rol: 2, idCliente: mine.client.id });
    const auth = await new ApiClient(t.app).loginOk(authorizer.usuario, TEST_PASSWORD);
    expect((await auth.post('/api/pedido-rapido', body)).statusCode).toBe(403);
    expect((await new ApiClient(t.app).post('/api/pedido-rapido', body)).statusCode).toBe(401);

    const today = businessDate(new Date());
    await makeWeek(db(), { idCliente: mine.client.id, inicio: addDays(today, 5), fin: addDays(today, 9) });
    const outside = await mine.api.post('/api/pedido-rapido', body);
    expect(outside.statusCode).toBe(403);
    expect(outside.json()).toMatchObject({ code: 'OUTSIDE_WEEK', msg: MSG.fueraDeSemana });
    expect(await cartOf(mine.user.id)).toEqual({});
  });

  it('concurrency: two quick orders at once never pass a cantidad_limite, the budget or the purchase limit', async () => {
    // 100.00 of budget; each paste asks for 60.00 of a and 3 of b (limit 4).
    const { user, api, product } = await buyer({ presupuesto: 10000 });
    const a = await product(6000, { claveInterna: clave('RA') });
    const b = await product(100, { claveInterna: clave('RB'), claveCliente: 'RB-CLI' });
    await assign(db(), user.id, a.id, 5);
    await assign(db(), user.id, b.id, 4);
    const texto = `${a.claveInterna} 1\nRB-CLI 3`;
    const second = await new ApiClient(t.app, '10.0.0.2').loginOk(user.usuario, TEST_PASSWORD);
    const results = await Promise.all([quick(api, texto), quick(second, texto), quick(api, texto)]);
    for (const r of results) expect(r.statusCode, r.body).toBe(200);
    expect(await cartOf(user.id)).toEqual({ [a.id]: 1, [b.id]: 4 });
    const added = results.flatMap((r) => r.json().agregados as { id: number; cantidad: number }[]);
    expect(added.filter((x) => x.id === a.id)).toEqual([{ id: a.id, cantidad: 1 }]);
    expect(added.filter((x) => x.id === b.id).reduce((s, x) => s + x.cantidad, 0)).toBe(4);

    // The purchase limit reached this month refuses every line of both pastes.
    const limited = await buyer({ limite: 1 });
    const r = await limited.product(100, { claveInterna: clave('RL') });
    await assign(db(), limited.user.id, r.id, 5);
    await limited.order([[r, 1]], 'pendiente', true);
    const tab = await new ApiClient(t.app, '10.0.0.3').loginOk(limited.user.usuario, TEST_PASSWORD);
    const both = await Promise.all([
      quick(limited.api, `${r.claveInterna} 1`),
      quick(tab, `${r.claveInterna} 1`),
    ]);
    for (const res of both) {
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().omitidos).toEqual([
        { id: r.id, nombre: r.nombre, motivo: MSG.limiteDeCompras, codigo: 'PURCHASE_LIMIT' },
      ]);
    }
    expect(await cartOf(limited.user.id)).toEqual({});
  });
});
