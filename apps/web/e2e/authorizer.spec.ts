import { readFile } from 'node:fs/promises';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { expect, expectHome, screenshot, signIn, signOut, test } from './fixtures';
import {
  asAdmin,
  assignAll,
  createAccount,
  createCategory,
  createClient,
  createProduct,
  runSuffix,
} from './helpers';
import { e2eBaseUrl } from './ports';

/**
 * The authorizer area (roles 2 and 3) end to end against the real server, in two clients this run creates
 * through the API (the demo accounts neither buy nor review here):
 * - a client with two levels: its buyer places ONE order; its authorizer lowers a quantity and approves it
 *   (→ Espera), its super authorizer approves it (→ Aprobado), the buyer sees it approved with its history.
 * - a client with one level and category budgets: its buyer places two orders; its authorizer (the
 *   "revisor") cancels one with a reason (the buyer sees it) and approves the other (→ Aprobado).
 * - The report dialog's messages and the CSV download (BOM, header, the rows of those orders).
 * Orders are placed through the real API, signed in through the login page in a separate browser context.
 */
test.describe.configure({ mode: 'serial', timeout: 90_000 });

const PASSWORD = 'Valle#2026';
const COMPRADOR_NOMBRE = 'María Fernanda López García';

/** This attempt's accounts (set up in beforeAll; the names carry the attempt). */
const who = { usuario: '', autorizador: '', superautorizador: '', comprador: '', revisor: '' };

interface CatalogueProduct {
  id: number;
  nombre: string;
  precio: number;
  impuesto: boolean;
  id_categoria: number;
  cantidad_limite: number;
}

interface PlacedLine {
  product: CatalogueProduct;
  cantidad: number;
}

interface PlacedOrder {
  id: number;
  numero: string;
  lines: PlacedLine[];
}

const TZ = 'America/Mexico_City';

function today(): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: TZ }).format(new Date());
}

function orderNumber(id: number): string {
  return `#${String(id).padStart(5, '0')}`;
}

/** The app's money format (truncated, grouped, MXN) from centavos. */
function mxn(centavos: number): string {
  const entero = Math.trunc(centavos / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `$${entero}.${String(centavos % 100).padStart(2, '0')} MXN`;
}

/** Subtotal + IVA (16% of the taxable part, rounded half-up once), in centavos. */
function totalOf(lines: { precio: number; impuesto: boolean; cantidad: number }[]): number {
  let subtotal = 0;
  let taxable = 0;
  for (const l of lines) {
    const amount = Math.round(l.precio * 100) * l.cantidad;
    subtotal += amount;
    if (l.impuesto) taxable += amount;
  }
  return subtotal + Math.floor((taxable * 16 + 50) / 100);
}

/**
 * The two clients, their products and their accounts, created by the administrator through the API. The
 * products imitate a stationery catalogue; every buyer may order up to 5 of each.
 */
async function createClients(browser: Browser): Promise<void> {
  const s = runSuffix();
  Object.assign(who, {
    usuario: `maria.lopez.${s}`,
    autorizador: `hector.salinas.${s}`,
    superautorizador: `patricia.mendez.${s}`,
    comprador: `jorge.ramos.${s}`,
    revisor: `sofia.herrera.${s}`,
  });
  await asAdmin(browser, async (admin) => {
    const account = (id_cliente: number, usuario: string, nombre: string, rol: 1 | 2 | 3, extra = {}) =>
      createAccount(
        admin,
        { id_cliente, usuario, correo: `${usuario}@grupo-valle.mx`, nombre, rol, ...extra },
        PASSWORD,
      );
    const products = async (
      id_cliente: number,
      id_categoria: number,
      clave: string,
      list: [string, number][],
    ) => {
      for (const [i, [nombre, precio]] of list.entries()) {
        await createProduct(admin, {
          id_cliente,
          id_categoria,
          clave_interna: `${clave}-${String(i + 1).padStart(3, '0')}`,
          nombre,
          precio,
          unidad_de_medida: 'Pieza',
          imagen: 'gradient-120.png',
        });
      }
    };

    // Two levels, regular budget.
    const industrial = await createClient(admin, {
      nombre: `Industrias del Valle ${s}`,
      presupuesto_default: 5000,
      limite_de_compras: 4,
      cantidad_autorizadores: 2,
      logo: 'logo-200x80.png',
      color: '#0b7285',
      color2: '#f08c00',
    });
    const papeleria = await createCategory(admin, industrial, 'Papelería', 'IconPencil');
    const herramientas = await createCategory(admin, industrial, 'Herramientas', 'IconTool');
    await products(industrial, papeleria, 'IV', [
      ['Hojas blancas tamaño carta', 119.9],
      ['Bolígrafo tinta azul punto mediano', 64.5],
      ['Cuaderno profesional de raya', 48.9],
    ]);
    await products(industrial, herramientas, 'IH', [
      ['Cinta de aislar negra 19 mm', 23.5],
      ['Flexómetro de 5 m', 134.5],
    ]);
    // The accounts of each client choose their passwords side by side (each signs in once).
    const [buyer] = await Promise.all([
      account(industrial, who.usuario, COMPRADOR_NOMBRE, 1),
      account(industrial, who.autorizador, 'Héctor Salinas Ortiz', 2),
      account(industrial, who.superautorizador, 'Patricia Méndez Rocha', 3),
    ]);
    await assignAll(admin, buyer, 5);

    // One level, category budgets (Papelería and Cafetería have one, Limpieza none).
    const categorias = await createClient(admin, {
      nombre: `Comercial del Valle ${s}`,
      presupuesto_default: 0,
      limite_de_compras: -1,
      modo_presupuesto: 'categoria',
      logo: 'logo-violet-orange-200x80.png',
      color: '#5f3dc4',
      color2: '#e8590c',
    });
    const cPapeleria = await createCategory(admin, categorias, 'Papelería', 'IconPencil');
    const cafeteria = await createCategory(admin, categorias, 'Cafetería', 'IconCoffee');
    const limpieza = await createCategory(admin, categorias, 'Limpieza', 'IconSpray');
    await products(categorias, cPapeleria, 'CP', [
      ['Marcatextos amarillo fluorescente', 98.9],
      ['Lápiz de grafito HB', 12.5],
    ]);
    await products(categorias, cafeteria, 'CC', [
      ['Café molido tostado medio', 289.9],
      ['Azúcar estándar 1 kg', 64.9],
    ]);
    await products(categorias, limpieza, 'CL', [['Escoba de cerdas suaves', 119]]);
    const [comprador] = await Promise.all([
      account(categorias, who.comprador, 'Jorge Ramos Cantú', 1, {
        categorias: [
          { id: cPapeleria, presupuesto: 1500 },
          { id: cafeteria, presupuesto: 800 },
        ],
      }),
      account(categorias, who.revisor, 'Sofía Herrera Garza', 2),
    ]);
    await assignAll(admin, comprador, 5);
  });
}

/** A buyer signed in through the login page, in a browser context of its own. */
async function buyerSession(
  browser: Browser,
  usuario: string,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: e2eBaseUrl(), locale: 'es-MX', timezoneId: TZ });
  const page = await context.newPage();
  await signIn(page, usuario, PASSWORD);
  await expectHome(page, 1);
  return { context, page };
}

/** The headers lib/api sends on a state-changing call: the XSRF cookie's value. */
async function xsrfHeaders(context: BrowserContext): Promise<Record<string, string>> {
  await context.request.get('/sanctum/csrf-cookie');
  const cookie = (await context.cookies()).find((c) => c.name === 'XSRF-TOKEN');
  if (!cookie) throw new Error('Sin cookie XSRF-TOKEN');
  return { 'X-XSRF-TOKEN': decodeURIComponent(cookie.value), Accept: 'application/json' };
}

async function catalogue(context: BrowserContext): Promise<CatalogueProduct[]> {
  const res = await context.request.get('/api/catalogo?per_page=100');
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { productos: CatalogueProduct[] }).productos;
}

/** Fills the server's cart through the API and sends it as an order (POST /api/compra). */
async function placeOrder(context: BrowserContext, lines: PlacedLine[]): Promise<PlacedOrder> {
  let headers = await xsrfHeaders(context);
  expect((await context.request.post('/api/carrito/vaciar_carrito', { headers })).ok()).toBe(true);
  for (const { product, cantidad } of lines) {
    headers = await xsrfHeaders(context);
    const res = await context.request.post('/api/carrito/nuevo_item', {
      headers,
      data: { item: { id: product.id, cantidad } },
    });
    expect(res.ok(), await res.text()).toBe(true);
  }
  headers = await xsrfHeaders(context);
  const res = await context.request.post('/api/compra', {
    headers,
    data: { orden: lines.map((l) => ({ id: l.product.id, cantidad: l.cantidad })), fecha: today() },
  });
  expect(res.status(), await res.text()).toBe(201);
  const { pedido } = (await res.json()) as { pedido: { id: number; status: string } };
  expect(pedido.status).toBe('pendiente');
  return { id: pedido.id, numero: orderNumber(pedido.id), lines };
}

/** A dialog's screenshot: the viewport grows to the whole page so the overlay covers all of it. */
async function dialogScreenshot(page: Page, name: string): Promise<void> {
  const size = page.viewportSize() ?? { width: 1366, height: 860 };
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width: size.width, height: Math.max(size.height, height) });
  await screenshot(page, name);
  await page.setViewportSize(size);
}

const cheapestFirst = (a: CatalogueProduct, b: CatalogueProduct) => a.precio - b.precio;

let industrial: PlacedOrder;
let aCancelar: PlacedOrder;
let aAprobar: PlacedOrder;

test.beforeAll(async ({ browser }) => {
  // Two clients, ten products and five accounts through the API before the first order.
  test.setTimeout(240_000);
  await createClients(browser);
  // The first buyer: ONE order, a line whose quantity can be lowered (limit ≥ 3) and a taxable second line.
  const buyer = await buyerSession(browser, who.usuario);
  const products = (await catalogue(buyer.context)).sort(cheapestFirst);
  const multi = products.find((p) => p.cantidad_limite >= 3 && p.impuesto);
  const other = products.find((p) => p !== multi && p.precio > 0);
  if (!multi || !other) throw new Error('El catálogo no tiene los productos esperados');
  industrial = await placeOrder(buyer.context, [
    { product: multi, cantidad: 3 },
    { product: other, cantidad: 1 },
  ]);
  await buyer.context.close();

  // The second buyer (category budgets, unlimited purchases): two orders of cheap products of budgeted categories.
  const comprador = await buyerSession(browser, who.comprador);
  const cart = (await (await comprador.context.request.get('/api/carrito')).json()) as {
    categorias: { id: number; presupuesto: number | null }[];
  };
  const budgeted = new Set(cart.categorias.filter((c) => (c.presupuesto ?? 0) > 0).map((c) => c.id));
  const items = (await catalogue(comprador.context))
    .filter((p) => budgeted.has(p.id_categoria))
    .sort(cheapestFirst);
  if (items.length < 3) throw new Error('El catálogo del comprador no tiene productos con presupuesto');
  aCancelar = await placeOrder(comprador.context, [
    { product: items[0]!, cantidad: 1 },
    { product: items[1]!, cantidad: 1 },
  ]);
  aAprobar = await placeOrder(comprador.context, [
    { product: items[2]!, cantidad: 1 },
    { product: items[0]!, cantidad: 1 },
  ]);
  await comprador.context.close();
});

test('el autorizador revisa el pedido del comprador, baja una cantidad y lo autoriza (→ Espera)', async ({
  page,
}) => {
  const [multi, other] = industrial.lines as [PlacedLine, PlacedLine];
  await signIn(page, who.autorizador, PASSWORD);
  await expectHome(page, 2);

  // The list: 'Por atender' by default, the order with its user, total, status and date.
  await expect(page.getByRole('heading', { name: 'Pedidos', level: 1 })).toBeVisible();
  await expect(page.getByRole('radio', { name: 'Por atender' })).toBeChecked();
  const row = page.getByRole('row', { name: new RegExp(industrial.numero) });
  await expect(row).toBeVisible();
  await expect(row).toContainText(COMPRADOR_NOMBRE);
  await expect(row).toContainText(who.usuario);
  await expect(row).toContainText('Pendiente');
  await expect(row).toContainText(
    mxn(totalOf(industrial.lines.map((l) => ({ ...l.product, cantidad: l.cantidad })))),
  );
  const [y, m, d] = today().split('-');
  await expect(row).toContainText(`${d}/${m}/${y}`);
  // The first cell is the row's checkbox (bulk approve).
  await expect(row.getByRole('cell').nth(3)).toHaveText('2');
  await screenshot(page, 'autorizador-principal');

  // Search by number (server-side, debounced) and by user.
  const search = page.getByRole('searchbox', { name: 'Buscar pedido' });
  await search.fill(String(industrial.id));
  await expect(page.getByRole('row', { name: new RegExp(industrial.numero) })).toBeVisible();
  await expect(page.getByText(/Mostrando 1–1 de 1 pedido$/)).toBeVisible();
  await search.fill('nadie-se-llama-asi');
  await expect(page.getByText('No encontramos pedidos')).toBeVisible();
  await page.getByRole('button', { name: 'Limpiar búsqueda' }).first().click();
  await expect(row).toBeVisible();

  await row.getByRole('link', { name: `Ver pedido ${industrial.numero}` }).click();
  await expect(page).toHaveURL(new RegExp(`/autorizador/orden/${industrial.id}$`));
  await expect(page.getByRole('heading', { name: `Pedido ${industrial.numero}`, level: 1 })).toBeVisible();
  await expect(page.getByTestId('estatus-pedido')).toHaveText('Pendiente');
  for (const label of ['Presupuesto disponible', 'Utilizado', 'Restante', 'Productos']) {
    await expect(page.getByText(label, { exact: true }).first()).toBeVisible();
  }
  await expect(page.getByRole('link', { name: 'Volver al historial de pedidos' })).toHaveAttribute(
    'href',
    '/autorizador/principal',
  );
  await expect(page.getByTestId('comprador-nombre')).toHaveText(COMPRADOR_NOMBRE);
  await expect(page.getByTestId('comprador-usuario')).toHaveText(who.usuario);
  await expect(page.getByText('Pedidos del mes:')).toBeVisible();
  await expect(page.getByText('Enviado a revisión')).toBeVisible();
  const totales = page.getByTestId('totales');
  const originalTotal = totalOf(industrial.lines.map((l) => ({ ...l.product, cantidad: l.cantidad })));
  await expect(totales).toContainText(mxn(originalTotal));
  await expect(page.getByRole('button', { name: 'Aprobar pedido' })).toBeEnabled();
  await expect(page.getByRole('button', { name: 'Cancelar pedido' })).toBeEnabled();
  await screenshot(page, 'autorizador-orden');

  // Edit a quantity: the spec's messages, then a valid lower quantity recomputes the totals live.
  await page.getByRole('button', { name: `Editar cantidad de ${multi.product.nombre}` }).click();
  const qty = page.getByRole('textbox', { name: `Cantidad de ${multi.product.nombre}` });
  const apply = page.getByRole('button', { name: `Aplicar cantidad de ${multi.product.nombre}` });
  await qty.fill('0');
  await apply.click();
  await expect(page.getByText('Por favor, ingresa un número válido mayor que 0')).toBeVisible();
  await qty.fill(String(multi.product.cantidad_limite + 1));
  await apply.click();
  await expect(
    page.getByText(`No puedes exceder la cantidad de ${multi.product.cantidad_limite} articulos!`),
  ).toBeVisible();
  await qty.fill('2');
  await qty.press('Enter');
  await expect(qty).toBeHidden();
  const editedTotal = totalOf([
    { ...multi.product, cantidad: 2 },
    { ...other.product, cantidad: 1 },
  ]);
  await expect(totales).toContainText(mxn(editedTotal));
  await expect(totales).toContainText(`Total original: ${mxn(originalTotal)}`);
  await expect(page.getByText('antes 3')).toBeVisible();

  // Removing and restoring a line; the last line left cannot be removed.
  await page.getByRole('button', { name: `Quitar ${other.product.nombre}` }).click();
  await expect(page.getByText('Se quitará al aprobar')).toBeVisible();
  const lastOne = page.getByRole('button', { name: `Quitar ${multi.product.nombre}` });
  await expect(lastOne).toHaveAttribute('aria-disabled', 'true');
  await lastOne.hover();
  await expect(
    page.getByText('Un pedido no puede quedarse sin productos. Si ya no se necesita, cancélalo.'),
  ).toBeVisible();
  await page.getByRole('button', { name: `Restaurar ${other.product.nombre}` }).click();
  await expect(page.getByText('Se quitará al aprobar')).toBeHidden();
  await expect(page.getByText('Cambios sin guardar.')).toBeVisible();
  await page.mouse.move(0, 0);
  // The quantity editor open on the other line, with the buyer's limit.
  await page.getByRole('button', { name: `Editar cantidad de ${other.product.nombre}` }).click();
  const otherQty = page.getByRole('textbox', { name: `Cantidad de ${other.product.nombre}` });
  await expect(otherQty).toBeFocused();
  await expect(page.getByText(`Máximo ${other.product.cantidad_limite}`)).toBeVisible();
  await screenshot(page, 'autorizador-orden-editando');
  await otherQty.press('Escape');
  await expect(otherQty).toBeHidden();

  // Approve: the edits travel with the approval; two levels → Espera.
  await page.getByRole('button', { name: 'Guardar cambios y aprobar' }).click();
  const confirm = page.getByRole('dialog', { name: `¿Aprobar el pedido ${industrial.numero}?` });
  await expect(confirm).toContainText('Espera');
  await expect(confirm).toContainText(`${multi.product.nombre}: 3 → 2`);
  await confirm.getByRole('button', { name: 'Aprobar' }).click();
  await expect(page.getByText('Pedido autorizado; queda en espera de la aprobación final.')).toBeVisible();
  await expect(page.getByTestId('estatus-pedido')).toHaveText('Espera');
  await expect(page.getByRole('button', { name: /Aprobar/ })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Cancelar pedido' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Editar cantidad/ })).toHaveCount(0);
  await expect(page.getByTestId('sin-acciones')).toContainText('espera la aprobación final');
  await expect(page.getByText('Pedido modificado')).toBeVisible();
  await expect(page.getByText(`${multi.product.nombre}: 3 → 2`)).toBeVisible();
  await expect(page.getByText('Autorizado, en espera de aprobación final')).toBeVisible();
  await expect(totales).toContainText(mxn(editedTotal));

  // Back to the list: no longer 'Por atender'; under 'Todos' with its new status.
  await page.getByRole('link', { name: 'Volver al historial de pedidos' }).click();
  await expect(page).toHaveURL(/\/autorizador\/principal$/);
  await expect(page.getByRole('row', { name: new RegExp(industrial.numero) })).toHaveCount(0);
  await page.getByRole('radiogroup', { name: 'Estatus' }).getByText('Todos', { exact: true }).click();
  await expect(page.getByRole('row', { name: new RegExp(industrial.numero) })).toContainText('Espera');
});

test('el superautorizador da la aprobación final (→ Aprobado)', async ({ page }) => {
  await signIn(page, who.superautorizador, PASSWORD);
  await expectHome(page, 3);
  const row = page.getByRole('row', { name: new RegExp(industrial.numero) });
  await expect(row).toContainText('Espera');
  await row.getByRole('link', { name: `Ver pedido ${industrial.numero}` }).click();
  await expect(page.getByTestId('estatus-pedido')).toHaveText('Espera');
  // Rol 3 approves or cancels, never edits lines.
  await expect(page.getByRole('button', { name: /Editar cantidad/ })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Quitar / })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Cancelar pedido' })).toBeVisible();
  await screenshot(page, 'superautorizador-orden');
  await page.getByRole('button', { name: 'Aprobar pedido' }).click();
  const confirm = page.getByRole('dialog', { name: `¿Aprobar el pedido ${industrial.numero}?` });
  await expect(confirm).toContainText('Aprobado');
  await confirm.getByRole('button', { name: 'Aprobar' }).click();
  await expect(page.getByText('Pedido aprobado', { exact: true }).first()).toBeVisible();
  await expect(page.getByTestId('estatus-pedido')).toHaveText('Aprobado');
  await expect(page.getByTestId('sin-acciones')).toContainText('ya está aprobado');
  await expect(page.getByRole('button', { name: /Aprobar/ })).toHaveCount(0);
});

test('el comprador ve su pedido Aprobado en el Historial y su historia en el detalle', async ({ page }) => {
  await signIn(page, who.usuario, PASSWORD);
  await expectHome(page, 1);
  await page.goto('/usuario/historial');
  const row = page.getByRole('row', { name: new RegExp(industrial.numero) });
  await expect(row).toContainText('Aprobado');
  await page.goto(`/usuario/historial/${industrial.id}`);
  await expect(page.getByRole('heading', { name: `Pedido ${industrial.numero}`, level: 1 })).toBeVisible();
  for (const step of [
    'Enviado a revisión',
    'Pedido modificado',
    'Autorizado, en espera de aprobación final',
    'Pedido aprobado',
  ]) {
    await expect(page.getByText(step, { exact: true }).first()).toBeVisible();
  }
});

const MOTIVO = 'Ya se surtió con el pedido de la semana pasada.';

test('el revisor cancela un pedido del comprador por categorías con un motivo', async ({ page }) => {
  await signIn(page, who.revisor, PASSWORD);
  await expectHome(page, 2);
  await page
    .getByRole('row', { name: new RegExp(aCancelar.numero) })
    .getByRole('link', { name: `Ver pedido ${aCancelar.numero}` })
    .click();
  await expect(page.getByTestId('estatus-pedido')).toHaveText('Pendiente');
  await expect(page.getByText('Presupuesto por categoría')).toBeVisible();
  // The buyer's other order of the month is one click away.
  await expect(page.getByRole('link', { name: new RegExp(aAprobar.numero) })).toHaveAttribute(
    'href',
    `/autorizador/orden/${aAprobar.id}`,
  );

  await page.getByRole('button', { name: 'Cancelar pedido' }).click();
  const dialog = page.getByRole('dialog', { name: `Cancelar el pedido ${aCancelar.numero}` });
  // A free reason is 'Otro…' with its text (the presets are in comments.spec.ts).
  await dialog.getByRole('radio', { name: 'Otro…' }).check();
  await dialog.getByLabel('Escribe el motivo').fill(MOTIVO);
  await expect(dialog.getByText(`${MOTIVO.length}/255`)).toBeVisible();
  await dialogScreenshot(page, 'autorizador-cancelar');
  await dialog.getByRole('button', { name: 'Cancelar pedido' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Pedido cancelado', { exact: true }).first()).toBeVisible();
  await expect(page.getByTestId('estatus-pedido')).toHaveText('Cancelado');
  await expect(page.getByRole('alert', { name: 'Pedido cancelado' })).toContainText(MOTIVO);
  await expect(
    page.getByRole('region', { name: 'Historial del pedido' }).getByText(`Motivo: ${MOTIVO}`),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: /Aprobar|Cancelar pedido/ })).toHaveCount(0);
});

test('el comprador por categorías ve el motivo de la cancelación en el detalle de su pedido', async ({
  page,
}) => {
  await signIn(page, who.comprador, PASSWORD);
  await expectHome(page, 1);
  await page.goto(`/usuario/historial/${aCancelar.id}`);
  await expect(page.getByRole('heading', { name: `Pedido ${aCancelar.numero}`, level: 1 })).toBeVisible();
  await expect(page.getByText(MOTIVO).first()).toBeVisible();
});

test('el revisor (un nivel) aprueba el otro pedido desde un teléfono (→ Aprobado)', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, who.revisor, PASSWORD);
  await expectHome(page, 2);
  await page.goto(`/autorizador/orden/${aAprobar.id}`);
  await expect(page.getByTestId('estatus-pedido')).toHaveText('Pendiente');
  // A cancelled order is not one of the month's orders.
  await expect(page.getByRole('link', { name: new RegExp(aCancelar.numero) })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Editar cantidad/ }).first()).toBeVisible();
  await screenshot(page, 'autorizador-orden-390');
  // The sidebar folds away as the viewport narrows: wait for the layout to settle.
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  // One level, so the approval is final.
  await page.getByRole('button', { name: 'Aprobar pedido' }).click();
  const confirm = page.getByRole('dialog', { name: `¿Aprobar el pedido ${aAprobar.numero}?` });
  await expect(confirm).toContainText('Aprobado');
  await confirm.getByRole('button', { name: 'Aprobar' }).click();
  await expect(page.getByTestId('estatus-pedido')).toHaveText('Aprobado');

  // Another client's order answers like a missing one: back to the list.
  await page.goto(`/autorizador/orden/${industrial.id}`);
  await expect(page).toHaveURL(/\/autorizador\/principal$/);
  await page.goto('/autorizador/orden/99999999');
  await expect(page).toHaveURL(/\/autorizador\/principal$/);
});

test('el diálogo de reporte valida sus campos y descarga reporte.csv', async ({ page }) => {
  await signIn(page, who.autorizador, PASSWORD);
  await expectHome(page, 2);
  await page.goto('/autorizador/reportes');
  await page.getByRole('button', { name: 'Generar reporte' }).click();
  const dialog = page.getByRole('dialog', { name: 'Generar reporte' });
  const download = dialog.getByRole('button', { name: 'Descargar reporte' });

  await download.click();
  await expect(dialog.getByText('Por favor ingresa ambas fechas.')).toBeVisible();
  await expect(dialog.getByText('Por favor selecciona un tipo de reporte.')).toBeVisible();

  await dialog.getByRole('radio', { name: /General/ }).click();
  await expect(dialog.getByText('Por favor selecciona un tipo de reporte.')).toBeHidden();
  await download.click();
  await expect(dialog.getByText('Por favor ingresa ambas fechas.')).toBeVisible();

  await dialog.getByRole('button', { name: 'Periodo' }).click();
  await page.getByRole('button', { name: 'Este mes' }).click();
  await expect(dialog.getByText('Por favor ingresa ambas fechas.')).toBeHidden();
  await dialogScreenshot(page, 'autorizador-reporte');

  // A failure says so and keeps the dialog open to try again.
  await page.route('**/api/reporte/autorizador', (route) =>
    route.fulfill({ status: 400, contentType: 'application/json', body: '{}' }),
  );
  await download.click();
  // In the dialog, above its buttons (decision 0070).
  await expect(
    dialog.getByRole('alert').filter({ hasText: 'Hubo un problema al generar el reporte.' }),
  ).toBeVisible();
  await page.unroute('**/api/reporte/autorizador');

  const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
  expect(file.suggestedFilename()).toBe('reporte.csv');
  const csv = await readFile(await file.path(), 'utf8');
  expect(csv.charCodeAt(0)).toBe(0xfeff);
  const rows = csv.slice(1).split('\r\n');
  expect(rows[0]).toBe(
    'Pedido,Fecha,Estatus,Usuario,Nombre,Productos,Subtotal,IVA,Total,Dirección de entrega,Calle,Colonia,Ciudad,CP,Estado,Área,Región,Semana de entrega,Clave de área,Cuenta contable',
  );
  const mine = rows.find((r) => r.startsWith(`${industrial.numero.slice(1)},`));
  expect(mine, csv).toBeTruthy();
  expect(mine).toContain(`,Aprobado,${who.usuario},${COMPRADOR_NOMBRE},2,`);
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Reporte generado')).toBeVisible();
  await signOut(page);

  // The detail report of the other client: one row per line of its buyer's orders.
  await signIn(page, who.revisor, PASSWORD);
  await expectHome(page, 2);
  await page.getByRole('button', { name: 'Generar reporte' }).click();
  await dialog.getByRole('button', { name: 'Periodo' }).click();
  await page.getByRole('button', { name: 'Hoy' }).click();
  await dialog.getByRole('radio', { name: /Detalle/ }).click();
  const [detail] = await Promise.all([page.waitForEvent('download'), download.click()]);
  const text = await readFile(await detail.path(), 'utf8');
  expect(text.charCodeAt(0)).toBe(0xfeff);
  const lines = text.slice(1).split('\r\n');
  expect(lines[0]).toMatch(/^Pedido,Fecha,Estatus,Usuario,Nombre,Clave interna,/);
  const cancelled = lines.filter((l) => l.startsWith(`${aCancelar.numero.slice(1)},`));
  expect(cancelled).toHaveLength(aCancelar.lines.length);
  for (const l of cancelled) expect(l).toContain(`,Cancelado,${who.comprador},`);
  expect(text).not.toContain(`${industrial.numero.slice(1)},`);
});

test('en un teléfono (390 px) la lista de pedidos se lee sin desplazarse de lado', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, who.revisor, PASSWORD);
  await expectHome(page, 2);
  // The filters fold behind one button, so the list starts on the first screen (issue 37).
  await expect(page.getByRole('combobox', { name: 'Estatus' })).toBeHidden();
  const filtros = page.getByRole('button', { name: 'Filtros', exact: true });
  await expect(filtros).toHaveAttribute('aria-expanded', 'false');
  await filtros.click();
  await page.getByRole('combobox', { name: 'Estatus' }).click();
  await page.getByRole('option', { name: 'Todos' }).click();
  await expect(page).toHaveURL(/estatus=todos/);
  await page.getByRole('button', { name: 'Ocultar filtros' }).click();
  await expect(page.getByRole('button', { name: 'Filtros (1)' })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Estatus' })).toBeHidden();
  const firstCard = page.getByRole('listitem').first();
  await expect(firstCard).toBeVisible();
  const box = await firstCard.boundingBox();
  expect(box!.y, 'the first order starts on the first screen').toBeLessThan(844);
  const card = page.getByRole('listitem').filter({ hasText: aAprobar.numero });
  await expect(card).toContainText('Aprobado');
  await expect(page.getByRole('listitem').filter({ hasText: aCancelar.numero })).toContainText('Cancelado');
  // The sidebar folds away as the viewport narrows: wait for the layout to settle.
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await card.getByRole('link', { name: `Ver pedido ${aAprobar.numero}` }).click();
  // The list's filter travels with the order (decision 0048).
  await expect(page).toHaveURL(new RegExp(`/autorizador/orden/${aAprobar.id}\\?estatus=todos$`));
});
