import type { Browser, Page } from '@playwright/test';
import { checkA11y, expect, expectHome, PHONE_WIDTH, screenshot, signIn, test } from './fixtures';
import {
  asAdmin,
  assignAll,
  assignProduct,
  createAccount,
  createCategory,
  createClient,
  createProduct,
  openAccessWeek,
  runSuffix,
} from './helpers';

/**
 * Limits in sight (issue 37, item 1; decision 0096): the client's default limit (3) reaches the buyer's
 * assignments made without one; the catalogue's cards and list, the cart and the quick order show each
 * product's maximum ('máx. 3'); the cart's "+" at the maximum is disabled and says why; a quick-order line
 * above the maximum is added with the maximum and says 'Se ajustó de 5 a 3 por tu límite.'. The client, its
 * products and the buyer are this attempt's own. Serial: the quick order adds to the cart the first test left.
 */
test.describe.configure({ mode: 'serial' });

const PASSWORD = 'Limites#2026';
const USUARIO = () => `rocio.bautista.${runSuffix()}`;

interface Data {
  idUser: number;
}
const data = new Map<string, Data>();

/** A client whose default limit is 3, with three products (LMT-01..03) and a buyer: LMT-03 limited to 2. */
async function ensureData(browser: Browser): Promise<Data> {
  const known = data.get(USUARIO());
  if (known) return known;
  const created = await asAdmin(browser, async (admin) => {
    const idCliente = await createClient(admin, {
      nombre: `Ferretería Bautista ${runSuffix()}`,
      presupuesto_default: 8000,
      limite_de_compras: -1,
      limite_por_defecto: 3,
    });
    await openAccessWeek(admin, idCliente);
    const ferreteria = await createCategory(admin, idCliente, 'Ferretería', 'IconTool');
    const product = (clave_interna: string, nombre: string, precio: number) =>
      createProduct(admin, {
        id_cliente: idCliente,
        id_categoria: ferreteria,
        clave_interna,
        nombre,
        precio,
        unidad_de_medida: 'Pieza',
      });
    await product('LMT-01', 'Guantes de carnaza', 85);
    await product('LMT-02', 'Cinta de aislar', 25);
    const taladro = await product('LMT-03', 'Taladro inalámbrico', 1450);
    const idUser = await createAccount(
      admin,
      {
        id_cliente: idCliente,
        usuario: USUARIO(),
        correo: `${USUARIO()}@ferreteria-bautista.mx`,
        nombre: 'Rocío Bautista Nava',
        rol: 1,
        presupuesto_default: 8000,
      },
      PASSWORD,
    );
    // No limit given: every assignment takes the client's default, 3; then the drill gets its own 2.
    await assignAll(admin, idUser);
    await assignProduct(admin, idUser, taladro, 2);
    return { idUser };
  });
  data.set(USUARIO(), created);
  return created;
}

async function signInBuyer(page: Page, browser: Browser) {
  await ensureData(browser);
  await signIn(page, USUARIO(), PASSWORD);
  await expectHome(page, 1);
}

const card = (page: Page, nombre: string) => page.getByRole('article', { name: nombre });

test('El comprador ve el máximo de cada producto y el carrito dice por qué no deja agregar más', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  await signInBuyer(page, browser);

  // Cards: each product's maximum before any add; the client's default reached the assignments.
  await expect(card(page, 'Guantes de carnaza')).toContainText('máx. 3');
  await expect(card(page, 'Cinta de aislar')).toContainText('máx. 3');
  await expect(card(page, 'Taladro inalámbrico')).toContainText('máx. 2');

  // The add dialog offers 1 to 3; 3 pairs of gloves go in.
  await card(page, 'Guantes de carnaza').getByRole('button', { name: 'Agregar al carrito' }).click();
  const dialog = page.getByRole('dialog', { name: 'Agregar al carrito' });
  await expect(dialog).toContainText('Puedes pedir de 1 a 3.');
  await dialog.getByLabel('Cantidad').fill('3');
  await dialog.getByRole('button', { name: 'Agregar al carrito' }).click();
  await expect(dialog).toBeHidden();
  await expect(card(page, 'Guantes de carnaza')).toContainText('En tu carrito: 3');
  await screenshot(page, 'usuario-catalogo-maximo');

  // The compact list: the maximum under each quantity field; the field does not keep more than it.
  await page.getByText('Lista', { exact: true }).click();
  const list = page.getByRole('table', { name: 'Lista de productos' });
  const cinta = list.getByRole('row').filter({ hasText: 'Cinta de aislar' });
  await expect(cinta.getByTestId('limite-producto')).toHaveText('máx. 3');
  await expect(list.getByRole('row').filter({ hasText: 'Guantes de carnaza' })).toContainText(
    'Tienes el máximo (3)',
  );
  const field = cinta.getByRole('textbox', { name: 'Cantidad de Cinta de aislar' });
  await field.fill('7');
  await expect(cinta).toContainText('No puedes exceder la cantidad de 3 articulos!');
  await field.blur();
  await expect(field).toHaveValue('3');
  await page.getByText('Tarjetas', { exact: true }).click();

  // The cart: at the maximum the "+" is disabled and says why, in sight and to a screen reader.
  await page
    .getByRole('navigation', { name: 'Secciones' })
    .getByRole('link', { name: /Carrito/ })
    .click();
  await expect(page).toHaveURL(/\/usuario\/carrito$/);
  const row = page.getByTestId(/^carrito-\d+$/).filter({ hasText: 'Guantes de carnaza' });
  const plus = row.getByRole('button', { name: 'Agregar una unidad de Guantes de carnaza' });
  await expect(plus).toBeDisabled();
  await expect(plus).toHaveAccessibleDescription('Tienes el máximo (3)');
  await expect(row).toContainText('Tienes el máximo (3)');
  await screenshot(page, 'usuario-carrito-maximo');

  // At 390 px the cart's cards say the same.
  await page.setViewportSize({ width: PHONE_WIDTH, height: 844 });
  const phoneCard = page.getByRole('article', { name: 'Guantes de carnaza' });
  await expect(phoneCard).toContainText('Tienes el máximo (3)');
  await expect(
    phoneCard.getByRole('button', { name: 'Agregar una unidad de Guantes de carnaza' }),
  ).toBeDisabled();
  await checkA11y(page, 'carrito con el máximo a 390 px');
  await screenshot(page, 'usuario-carrito-maximo-390');
});

test('Pedido rápido: una línea por encima del máximo se agrega con el máximo y lo dice', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  await signInBuyer(page, browser);
  await page.goto('/usuario/pedido-rapido');
  await expect(page.getByRole('heading', { name: 'Pedido rápido', level: 1 })).toBeVisible();
  await page.getByLabel('Claves y cantidades').fill(['LMT-02\t5', 'LMT-03 1'].join('\n'));
  await page.getByRole('button', { name: 'Agregar al carrito' }).click();

  const dialog = page.getByRole('dialog', { name: 'Pedido rápido' });
  await expect(dialog.getByTestId('resultado-resumen')).toHaveText('Se agregaron 2 productos al carrito.');
  const added = dialog.getByTestId('resultado-agregados');
  await expect(added).toContainText('Cinta de aislar × 3 · máx. 3');
  await expect(added).toContainText('Se ajustó de 5 a 3 por tu límite.');
  await expect(added).toContainText('Taladro inalámbrico × 1 · máx. 2');
  await expect(dialog.getByTestId('ajuste')).toHaveCount(1);
  await screenshot(page, 'usuario-pedido-rapido-ajustado');
  await dialog.getByRole('button', { name: 'Cerrar' }).first().click();
  await expect(dialog).toBeHidden();

  // The cut stays in sight under the form after the dialog closes.
  const cut = page.getByTestId('pedido-rapido-ajustados');
  await expect(cut).toContainText('1 línea se ajustó a tu límite');
  await expect(cut.getByRole('listitem')).toHaveText([
    'Cinta de aislar: Se ajustó de 5 a 3 por tu límite. (máx. 3)',
  ]);
  await page.setViewportSize({ width: PHONE_WIDTH, height: 844 });
  await checkA11y(page, 'pedido rápido ajustado a 390 px');
});
