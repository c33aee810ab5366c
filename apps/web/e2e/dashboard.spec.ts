import { readFileSync } from 'node:fs';
import type { Browser, Page } from '@playwright/test';
import { checkA11y, expect, expectHome, PHONE_WIDTH, screenshot, signIn, test } from './fixtures';
import {
  apiPost,
  asAdmin,
  assignAll,
  businessToday,
  choose,
  createAccount,
  createCategory,
  createClient,
  createProduct,
  type NewUser,
  openAccessWeek,
  runSuffix,
  signInAdmin,
  xsrfHeaders,
} from './helpers';
import { e2eBaseUrl } from './ports';

/**
 * The spend dashboards (issue 15, items 2 to 4): the authorizer's Tablero (orders per month by status,
 * buyers against their budgets with the 80% and 100% marks, categories, top products; "Ver como tabla",
 * "Descargar CSV", a buyer's name opens the order list searched by that buyer), the administrator's with
 * a client picked, and the buyer's six months on the history page. The client, its products, the buyers
 * and the authorizer are this attempt's own; their orders are this month's.
 *
 * The orders: Ana (budget $5,000) a helmet, approved ($464), two pairs of gloves, pendiente ($232) and one
 * pair cancelled ($116); Luis (budget $1,000, lowered to $900 after buying) two helmets ($928: 103%);
 * Marta (budget $500) a helmet ($464: 92%).
 */
test.describe.configure({ mode: 'serial' });

const PASSWORD = 'Tablero#2026';

interface Data {
  cliente: string;
  autorizador: string;
  ana: string;
  luis: string;
  marta: string;
}

const data = new Map<string, Data>();

async function inContext<T>(browser: Browser, usuario: string, work: (page: Page) => Promise<T>): Promise<T> {
  const context = await browser.newContext({
    baseURL: e2eBaseUrl(),
    locale: 'es-MX',
    timezoneId: 'America/Mexico_City',
  });
  try {
    const page = await context.newPage();
    await signIn(page, usuario, PASSWORD);
    // Signing in hashes a password: on a busy machine it takes its time.
    await expect(page).toHaveURL(/\/(usuario|autorizador)\/principal$/, { timeout: 60_000 });
    return await work(page);
  } finally {
    await context.close();
  }
}

async function buy(page: Page, producto: number, cantidad: number): Promise<number> {
  await apiPost(page, '/api/carrito/nuevo_item', { item: { id: producto, cantidad } });
  const compra = await apiPost<{ pedido: { id: number } }>(page, '/api/compra', {
    orden: [{ id: producto, cantidad }],
    fecha: businessToday(),
  });
  return compra.pedido.id;
}

async function ensureData(browser: Browser): Promise<Data> {
  const suffix = runSuffix();
  const known = data.get(suffix);
  if (known) return known;
  const cliente = `Ferretera Tablero ${suffix}`;
  const names = {
    autorizador: `sofia.mena.${suffix}`,
    ana: `ana.tovar.${suffix}`,
    luis: `luis.ortega.${suffix}`,
    marta: `marta.solis.${suffix}`,
  };
  const made = await asAdmin(browser, async (admin) => {
    const idCliente = await createClient(admin, {
      nombre: cliente,
      presupuesto_default: 5000,
      limite_de_compras: -1,
    });
    await openAccessWeek(admin, idCliente);
    const obra = await createCategory(admin, idCliente, 'Obra', 'IconHammer');
    const seguridad = await createCategory(admin, idCliente, 'Seguridad', 'IconHelmet');
    const casco = await createProduct(admin, {
      id_cliente: idCliente,
      id_categoria: obra,
      clave_interna: 'OBR-10',
      nombre: 'Casco de seguridad',
      precio: 400,
      unidad_de_medida: 'Pieza',
    });
    const guantes = await createProduct(admin, {
      id_cliente: idCliente,
      id_categoria: seguridad,
      clave_interna: 'SEG-20',
      nombre: 'Guantes de carnaza',
      precio: 100,
      unidad_de_medida: 'Par',
    });
    const buyer = (usuario: string, nombre: string, presupuesto: number): NewUser => ({
      id_cliente: idCliente,
      usuario,
      correo: `${usuario}@tablero.mx`,
      nombre,
      rol: 1,
      presupuesto_default: presupuesto,
      limite_de_compras: -1,
    });
    const luis = buyer(names.luis, 'Luis Ortega Ramos', 1000);
    const ids = {
      ana: await createAccount(admin, buyer(names.ana, 'Ana Tovar Lima', 5000), PASSWORD),
      luis: await createAccount(admin, luis, PASSWORD),
      marta: await createAccount(admin, buyer(names.marta, 'Marta Solís Vera', 500), PASSWORD),
    };
    for (const id of Object.values(ids)) await assignAll(admin, id, 10);
    await createAccount(
      admin,
      {
        id_cliente: idCliente,
        usuario: names.autorizador,
        correo: `${names.autorizador}@tablero.mx`,
        nombre: 'Sofía Mena Cruz',
        rol: 2,
      },
      PASSWORD,
    );
    return { casco, guantes, luis, idLuis: ids.luis };
  });
  const [aprobado, cancelado] = await inContext(browser, names.ana, async (page) => {
    const a = await buy(page, made.casco, 1);
    await buy(page, made.guantes, 2);
    return [a, await buy(page, made.guantes, 1)];
  });
  await inContext(browser, names.luis, (page) => buy(page, made.casco, 2));
  await inContext(browser, names.marta, (page) => buy(page, made.casco, 1));
  await inContext(browser, names.autorizador, async (page) => {
    await apiPost(page, '/api/pedidos/aprobar-lote', { ids: [aprobado] });
    await apiPost(page, '/api/pedidos/cancelar-lote', { ids: [cancelado] });
  });
  // Luis's budget is lowered after he bought: $928 of orders on a $900 budget.
  await asAdmin(browser, async (admin) => {
    const { correo, ...fields } = made.luis;
    const res = await admin.request.put(`/api/usuarios/${made.idLuis}`, {
      headers: await xsrfHeaders(admin),
      data: {
        ...fields,
        user_id: correo,
        presupuesto_default: 900,
        direccion_entrega: 'Av. Juárez 45, Puebla',
        active_week: 1,
        entrega_week: 1,
      },
    });
    expect(res.ok(), await res.text()).toBe(true);
  });
  const entry = { cliente, ...names };
  data.set(suffix, entry);
  return entry;
}

const currentMonth = () => businessToday().slice(0, 7);

test('el autorizador ve su Tablero: gráficas, marcas de 80% y 100%, la tabla, el CSV y los pedidos de un comprador', async ({
  page,
  browser,
}) => {
  const d = await ensureData(browser);
  await signIn(page, d.autorizador, PASSWORD);
  await expectHome(page, 2);
  await page.getByRole('link', { name: 'Tablero' }).click();
  await expect(page).toHaveURL(/\/autorizador\/tablero$/);
  await expect(page.getByRole('heading', { name: 'Tablero', level: 1 })).toBeVisible();

  // The charts are drawn.
  await expect(page.getByTestId('grafica-meses').locator('[data-barra]').first()).toBeVisible();
  // A chart below the screen is drawn when it comes near (decision 0095).
  await page.getByTestId('grafica-categorias').scrollIntoViewIfNeeded();
  await expect(page.getByTestId('grafica-categorias').locator('[data-barra]').first()).toBeVisible();
  // The last category's figures open inside the chart (above its bar), not cut by the card's edge.
  const categorias = page.getByTestId('grafica-categorias');
  const lastBar = await categorias.locator('[data-barra]').last().boundingBox();
  if (!lastBar) throw new Error('la última barra no tiene caja');
  await page.mouse.move(lastBar.x + 2, lastBar.y + lastBar.height / 2);
  const categoryFigures = categorias.getByTestId('grafica-detalle');
  await expect(categoryFigures).toContainText(/Utilizado\s*\$[\d,]+\.\d{2}/);
  const [chartBox, figuresBox] = await Promise.all([categorias.boundingBox(), categoryFigures.boundingBox()]);
  if (!chartBox || !figuresBox) throw new Error('la gráfica o sus cifras no tienen caja');
  expect(figuresBox.y + figuresBox.height).toBeLessThanOrEqual(chartBox.y + chartBox.height);
  expect(figuresBox.y).toBeGreaterThanOrEqual(chartBox.y);
  await page.mouse.move(0, 0);
  // Buyers by share, marked in words too.
  await expect(page.getByTestId('conteo-compradores')).toHaveText(
    /3 compradores\s*2 con 80% o más\s*1 con 100% o más/,
  );
  const bars = page.getByTestId('barra-presupuesto');
  await expect(bars).toHaveCount(3);
  await expect(bars.nth(0)).toContainText('Luis Ortega Ramos');
  await expect(bars.nth(0)).toContainText('Agotado');
  await expect(bars.nth(0)).toContainText('$928.00 / $900.00 · 103%');
  await expect(bars.nth(1)).toContainText('Marta Solís Vera');
  await expect(bars.nth(1)).toContainText('Cerca del límite');
  await expect(bars.nth(2)).toContainText('Ana Tovar Lima');
  await expect(bars.nth(2)).not.toContainText(/Agotado|Cerca del límite/);
  // Top products: helmets first (4 × $400 before IVA), the cancelled pair of gloves left out.
  const productos = page.getByRole('region', { name: 'Productos más comprados' });
  await expect(productos.getByRole('row').nth(1)).toContainText('OBR-10Casco de seguridad4$1,600.00');
  await expect(productos.getByRole('row').nth(2)).toContainText('SEG-20Guantes de carnaza2$200.00');
  await screenshot(page, 'autorizador-tablero');

  // "Ver como tabla": this month's amounts by status.
  const meses = page.getByRole('region', { name: 'Pedidos por mes' });
  await meses.getByRole('button', { name: 'Ver como tabla: Pedidos por mes' }).click();
  // The pointer leaves the button (its hover colour is not part of the picture).
  await page.mouse.move(0, 0);
  const mes = meses.getByRole('row').last();
  await expect(mes).toContainText('$464.00$1,624.00$0.00$116.00$2,204.00');
  await expect(meses.getByRole('table', { name: 'Pedidos por mes' })).toBeVisible();
  await screenshot(page, 'autorizador-tablero-tabla');
  await meses.getByRole('button', { name: 'Ver gráfica: Pedidos por mes' }).click();
  await expect(page.getByTestId('grafica-meses')).toBeVisible();

  // "Descargar CSV": the buyers' figures, made in the browser.
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Descargar CSV: Presupuesto usado por comprador' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`tablero-compradores-${currentMonth()}.csv`);
  const csv = readFileSync(await download.path(), 'utf8');
  expect(csv.split('\r\n')).toEqual([
    '\uFEFFComprador,Usuario,Utilizado,Presupuesto,Porcentaje,Marca',
    `Luis Ortega Ramos,${d.luis},928.00,900.00,103.11,Agotado`,
    `Marta Solís Vera,${d.marta},464.00,500.00,92.8,Cerca del límite`,
    `Ana Tovar Lima,${d.ana},696.00,5000.00,13.92,`,
    '',
  ]);

  // The month picker, in Spanish: this month alone.
  await page.getByRole('button', { name: 'Periodo' }).click();
  const mesCorto = new Intl.DateTimeFormat('es-MX', { month: 'short', timeZone: 'America/Mexico_City' })
    .format(new Date())
    .replace('.', '');
  const actual = page.getByRole('dialog').getByRole('button', { name: new RegExp(`^${mesCorto}`, 'i') });
  await actual.click();
  await actual.click();
  await expect(page).toHaveURL(new RegExp(`desde=${currentMonth()}&hasta=${currentMonth()}`));
  await expect(meses).toContainText(/de (\p{L}+) \d{4} a \1 \d{4}\./u);
  // One month, one column: its segments (a status with orders each) stand at one place.
  const segments = page.getByTestId('grafica-meses').locator('[data-barra]');
  await expect(segments.first()).toBeVisible();
  expect(await segments.evaluateAll((rects) => new Set(rects.map((r) => r.getAttribute('x'))).size)).toBe(1);
  // The pointer on the column shows its figures by status, and leaving the chart hides them.
  const column = await page.getByTestId('grafica-meses').locator('[data-barra]').first().boundingBox();
  if (!column) throw new Error('la columna del mes no tiene caja');
  await page.mouse.move(column.x + column.width / 2, column.y + column.height / 2);
  const figures = page.getByTestId('grafica-meses').getByTestId('grafica-detalle');
  await expect(figures).toContainText(/Aprobado\s*\$[\d,]+\.\d{2}/);
  await expect(figures).toContainText('Cancelado');
  await page.mouse.move(0, 0);
  await expect(figures).toHaveCount(0);

  // At phone width the charts fit the screen, nothing scrolls sideways.
  await page.setViewportSize({ width: PHONE_WIDTH, height: 844 });
  await expect(page.getByTestId('grafica-meses').locator('[data-barra]').first()).toBeVisible();
  // Each buyer's name and mark are whole (the figures go under them), not cut with "…" (polled: the layout
  // settles once the side menu has slid away).
  const cutTexts = () =>
    page
      .getByTestId('barra-presupuesto')
      .locator('a, .mantine-Badge-label')
      .evaluateAll((els) => els.filter((el) => el.scrollWidth > el.clientWidth).map((el) => el.textContent));
  await expect.poll(cutTexts).toEqual([]);
  await checkA11y(page, 'autorizador-tablero a 390 px');
  await screenshot(page, 'autorizador-tablero-390');
  await page.setViewportSize({ width: 1366, height: 860 });

  // A buyer's name opens the order list searched by that buyer, this month.
  await bars.nth(0).getByRole('link', { name: 'Luis Ortega Ramos' }).click();
  await expect(page).toHaveURL(
    new RegExp(`/autorizador/principal\\?estatus=todos&q=${d.luis.replace(/\./g, '\\.')}`),
  );
  await expect(page.getByRole('searchbox').first()).toHaveValue(d.luis);
  const rows = page.locator('[data-orden-link]').filter({ visible: true });
  await expect(rows).toHaveCount(1);
});

test('el administrador ve el Tablero de un cliente, sus pedidos por día, y los clientes cerca de su presupuesto', async ({
  page,
  browser,
}) => {
  const d = await ensureData(browser);
  await signInAdmin(page);
  await page.getByRole('link', { name: 'Tablero' }).first().click();
  await expect(page).toHaveURL(/\/administrador\/tablero$/);
  // Every client: the clients closest to their budget, no buyers.
  await expect(page.getByRole('region', { name: 'Clientes más cerca de su presupuesto' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Presupuesto usado por comprador' })).toHaveCount(0);

  await choose(page, 'Cliente', d.cliente, d.cliente);
  await expect(page).toHaveURL(/cliente=\d+/);
  await expect(page.getByText(`El gasto de ${d.cliente}`)).toBeVisible();
  await expect(page.getByTestId('grafica-dias').locator('[data-barra]').first()).toBeVisible();
  await expect(page.getByTestId('barra-presupuesto')).toHaveCount(3);
  await expect(page.getByTestId('conteo-compradores')).toContainText('1 con 100% o más');
  // Today's five orders, every status counted.
  const dias = page.getByRole('region', { name: 'Pedidos por día' });
  await dias.getByRole('button', { name: 'Ver como tabla: Pedidos por día' }).click();
  const [y, m, day] = businessToday().split('-');
  await expect(dias.getByRole('row').filter({ hasText: `${day}/${m}/${y}` })).toContainText('5$2,204.00');
  await dias.getByRole('button', { name: 'Ver gráfica: Pedidos por día' }).click();
  await page.mouse.move(0, 0);
  await screenshot(page, 'admin-tablero');
});

test('el comprador ve sus últimos 6 meses frente a su presupuesto en el historial', async ({
  page,
  browser,
}) => {
  const d = await ensureData(browser);
  await signIn(page, d.marta, PASSWORD);
  await expectHome(page, 1);
  await page.getByRole('link', { name: 'Historial' }).click();
  const grafica = page.getByRole('region', { name: 'Tu gasto de los últimos 6 meses' });
  await expect(grafica.locator('[data-barra]').first()).toBeVisible();
  await expect(grafica.getByText('Presupuesto: $500.00 al mes.')).toBeVisible();
  await grafica.getByRole('button', { name: 'Ver como tabla: Tu gasto de los últimos 6 meses' }).click();
  await expect(grafica.getByRole('row')).toHaveCount(7);
  await expect(grafica.getByRole('row').last()).toContainText('$464.00$500.00');
  await grafica.getByRole('button', { name: 'Ver gráfica: Tu gasto de los últimos 6 meses' }).click();
  await page.mouse.move(0, 0);
  await screenshot(page, 'usuario-historial-gasto');
});

test('en modo por categoría, el historial muestra también una gráfica por categoría', async ({
  page,
  browser,
}) => {
  const usuario = `rosa.ibarra.${runSuffix()}`;
  const productos = await asAdmin(browser, async (admin) => {
    const idCliente = await createClient(admin, {
      nombre: `Surtidora Tablero ${runSuffix()}`,
      presupuesto_default: 1000,
      limite_de_compras: -1,
      modo_presupuesto: 'categoria',
    });
    await openAccessWeek(admin, idCliente);
    const papeleria = await createCategory(admin, idCliente, 'Papelería', 'IconPencil');
    const cafeteria = await createCategory(admin, idCliente, 'Cafetería', 'IconCoffee');
    const block = await createProduct(admin, {
      id_cliente: idCliente,
      id_categoria: papeleria,
      clave_interna: 'PAP-01',
      nombre: 'Block de notas',
      precio: 50,
      unidad_de_medida: 'Paquete',
    });
    const cafe = await createProduct(admin, {
      id_cliente: idCliente,
      id_categoria: cafeteria,
      clave_interna: 'CAF-01',
      nombre: 'Café molido 1 kg',
      precio: 150,
      unidad_de_medida: 'Bolsa',
    });
    const idUser = await createAccount(
      admin,
      {
        id_cliente: idCliente,
        usuario,
        correo: `${usuario}@surtidora.mx`,
        nombre: 'Rosa Ibarra Garza',
        rol: 1,
        categorias: [
          { id: papeleria, presupuesto: 1000 },
          { id: cafeteria, presupuesto: 300 },
        ],
      },
      PASSWORD,
    );
    await assignAll(admin, idUser, 10);
    return { block, cafe };
  });
  await signIn(page, usuario, PASSWORD);
  await expectHome(page, 1);
  await buy(page, productos.block, 6);
  await buy(page, productos.cafe, 1);
  await page.getByRole('link', { name: 'Historial' }).click();
  const total = page.getByRole('region', { name: 'Tu gasto de los últimos 6 meses' });
  await expect(total.getByText('Presupuesto: $1,300.00 al mes.')).toBeVisible();
  const papeleria = page.getByRole('region', { name: 'Papelería' });
  await papeleria.scrollIntoViewIfNeeded();
  await expect(papeleria.locator('[data-barra]').first()).toBeVisible();
  await papeleria.getByRole('button', { name: 'Ver como tabla: Papelería' }).click();
  await expect(papeleria.getByRole('row').last()).toContainText('$348.00$1,000.00');
  await papeleria.getByRole('button', { name: 'Ver gráfica: Papelería' }).click();
  await expect(page.getByRole('region', { name: 'Cafetería' })).toContainText('Presupuesto: $300.00 al mes.');
  await page.mouse.move(0, 0);
  await screenshot(page, 'usuario-historial-gasto-categorias');
});
