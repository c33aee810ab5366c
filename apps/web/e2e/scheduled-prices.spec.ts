import type { Browser, Page } from '@playwright/test';
import { addDays, businessDate, formatIsoDate } from '@portal/shared/domain/time';
import { expect, expectHome, screenshot, signIn, test } from './fixtures';
import {
  apiPost,
  asAdmin,
  assignAll,
  createAccount,
  createCategory,
  createClient,
  createProduct,
  openAccessWeek,
  openInventory,
  runSuffix,
} from './helpers';

/**
 * Scheduled price changes (issue 42 item 5; decision 0132): the administrator schedules a product's new
 * price from the inventory list, sees first what it touches (the buyer's cart, with its total before and
 * after), and the buyer sees «Precio nuevo desde el …» in the catalogue and the cart while today's price
 * still holds. The client, its products and its buyer are this attempt's own.
 */
const PASSWORD = 'Precios#2026';

/**
 * This attempt's client («Papelera <apellido> …») with 'Papel bond carta' (PAP-100, $100.00) and 'Folder
 * manila' (PAP-200, $50.00), and its buyer, signed in on `page`, holding two reams in the cart.
 */
async function buyerWithTwoReams(
  browser: Browser,
  page: Page,
  buyer: { usuario: string; nombre: string; empresa: string },
): Promise<{ idCliente: number }> {
  const usuario = `${buyer.usuario}.${runSuffix()}`;
  const ids = await asAdmin(browser, async (admin) => {
    const idCliente = await createClient(admin, {
      nombre: `Papelera ${buyer.empresa} ${runSuffix()}`,
      presupuesto_default: 10_000,
      limite_de_compras: -1,
    });
    await openAccessWeek(admin, idCliente);
    const categoria = await createCategory(admin, idCliente, 'Papelería', 'IconPencil');
    const papel = await createProduct(admin, {
      id_cliente: idCliente,
      id_categoria: categoria,
      clave_interna: 'PAP-100',
      nombre: 'Papel bond carta',
      precio: 100,
    });
    await createProduct(admin, {
      id_cliente: idCliente,
      id_categoria: categoria,
      clave_interna: 'PAP-200',
      nombre: 'Folder manila',
      precio: 50,
    });
    const idUser = await createAccount(
      admin,
      {
        id_cliente: idCliente,
        usuario,
        correo: `${usuario}@papelera.mx`,
        nombre: buyer.nombre,
        rol: 1,
      },
      PASSWORD,
    );
    await assignAll(admin, idUser, 10);
    return { idCliente, papel };
  });
  await signIn(page, usuario, PASSWORD);
  await expectHome(page, 1);
  await apiPost(page, '/api/carrito/nuevo_item', { item: { id: ids.papel, cantidad: 2 } });
  return { idCliente: ids.idCliente };
}

test('el administrador programa un precio viendo lo que toca y el comprador ve el precio nuevo', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  // The buyer already holds two reams in the cart.
  const ids = await buyerWithTwoReams(browser, page, {
    usuario: 'rocio.mendez',
    nombre: 'Rocío Méndez Luna',
    empresa: 'Méndez',
  });

  const tomorrow = addDays(businessDate(new Date()), 1);
  const fecha = formatIsoDate(tomorrow);
  await asAdmin(browser, async (admin) => {
    await admin.setViewportSize({ width: 1366, height: 860 });
    await openInventory(admin, ids.idCliente);
    const row = admin.getByTestId('producto-admin').filter({ hasText: 'Papel bond carta' });
    await row.getByRole('button', { name: 'Programar precio de Papel bond carta' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Programar precio: Papel bond carta' });
    await dialog.getByLabel('Precio nuevo').fill('120');
    // The date starts at tomorrow, the first one the server accepts.
    await expect(dialog.getByRole('button', { name: 'Vigente desde' })).toHaveText(fecha);
    await dialog.getByRole('button', { name: 'Ver lo que toca' }).click();
    const preview = dialog.getByTestId('vista-previa-precio');
    await expect(preview).toContainText('1 carrito');
    await expect(preview).toContainText('0 listas guardadas');
    await expect(preview).toContainText('0 pedidos por autorizar');
    // Two reams: $200.00 today, $240.00 from the date (+ IVA 16 %).
    const buyerRow = preview.getByRole('row', { name: /Rocío Méndez Luna/ });
    await expect(buyerRow).toContainText('$232.00 MXN');
    await expect(buyerRow).toContainText('$278.40 MXN');
    await screenshot(admin, 'precios-programados-vista-previa');
    await admin.setViewportSize({ width: 390, height: 844 });
    await screenshot(admin, 'precios-programados-vista-previa-390');
    await admin.setViewportSize({ width: 1366, height: 860 });

    await dialog.getByRole('button', { name: 'Programar' }).click();
    await expect(dialog).toBeHidden();
    await expect(row.getByTestId('precio-programado')).toHaveText(`Desde el ${fecha}: $120.00 MXN`);
    // Today's price stays in the field.
    await expect(row.getByLabel('Precio de Papel bond carta')).toHaveValue('$100.00');
    await screenshot(admin, 'precios-programados-inventario');
  });

  // The buyer: the catalogue and the cart say the new price and its date; the cart is still at today's.
  const note = `Precio nuevo desde el ${fecha}: $120.00 MXN`;
  await page.goto('/usuario');
  const card = page.getByRole('article', { name: 'Papel bond carta' });
  await expect(card.getByTestId('precio-nuevo')).toHaveText(note);
  await expect(page.getByRole('article', { name: 'Folder manila' }).getByTestId('precio-nuevo')).toHaveCount(
    0,
  );
  await screenshot(page, 'precios-programados-catalogo');

  await page.goto('/usuario/carrito');
  await expect(page.getByTestId('precio-nuevo').first()).toHaveText(note);
  await expect(page.getByText('$232.00 MXN').first()).toBeVisible();
  await screenshot(page, 'precios-programados-carrito');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId('precio-nuevo').first()).toHaveText(note);
  await screenshot(page, 'precios-programados-carrito-390');
});

test('la carga de productos muestra antes de importar lo que tocan los precios del archivo', async ({
  browser,
  page,
}) => {
  test.setTimeout(120_000);
  const ids = await buyerWithTwoReams(browser, page, {
    usuario: 'ana.quiroz',
    nombre: 'Ana Quiroz Salas',
    empresa: 'Quiroz',
  });

  const later = formatIsoDate(addDays(businessDate(new Date()), 10));
  const csv = [
    'clave_interna,clave_cliente,nombre,descripcion,unidad_de_medida,precio,impuesto,activo,categoria,vigente_desde',
    'PAP-100,,Papel bond carta,,Pieza,120.00,1,1,Papelería,',
    `PAP-200,,Folder manila,,Pieza,45.00,1,1,Papelería,${later}`,
    'PAP-300,,Clip niquelado,,Caja,12.00,1,1,Papelería,',
    'PAP-400,,Goma blanca,,Pieza,ocho,1,1,Papelería,',
  ].join('\r\n');

  await asAdmin(browser, async (admin) => {
    await admin.setViewportSize({ width: 1366, height: 860 });
    await openInventory(admin, ids.idCliente);
    await admin.getByRole('button', { name: 'Cargar productos' }).click();
    const dialog = admin.getByRole('dialog', { name: /Cargar productos/ });
    await expect(dialog.getByRole('heading', { name: 'Vista previa de precios' })).toBeVisible();
    await dialog
      .getByLabel('Archivo CSV', { exact: true })
      .setInputFiles({ name: 'precios.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    const summary = dialog.getByTestId('vista-previa-importacion');
    await expect(summary).toContainText('4 filas leídas, 1 con errores');
    await expect(summary).toContainText('1 precio cambia al importar');
    await expect(summary).toContainText('1 precio programado para su fecha');
    await expect(summary).toContainText('1 producto nuevo');
    const preview = summary.getByTestId('vista-previa-precio');
    await expect(preview).toContainText('1 carrito');
    await expect(preview).toContainText('0 listas guardadas');
    await expect(preview).toContainText('0 pedidos por autorizar');
    // Two reams: $200.00 today, $240.00 with the file (+ IVA 16 %).
    const buyerRow = preview.getByRole('row', { name: /Ana Quiroz Salas/ });
    await expect(buyerRow).toContainText('$232.00 MXN');
    await expect(buyerRow).toContainText('$278.40 MXN');
    await expect(dialog.getByRole('button', { name: 'Importar' })).toBeEnabled();
    await screenshot(admin, 'importacion-vista-previa-precios');
    await admin.setViewportSize({ width: 390, height: 844 });
    await expect(buyerRow).toBeVisible();
    await screenshot(admin, 'importacion-vista-previa-precios-390');
    await admin.setViewportSize({ width: 1366, height: 860 });

    // Nothing was saved by the preview: the buyer's cart is still at today's price.
    await page.goto('/usuario/carrito');
    await expect(page.getByText('$232.00 MXN').first()).toBeVisible();
    // «Importar» then writes the file.
    await dialog.getByRole('button', { name: 'Importar' }).click();
    const result = dialog.getByTestId('resultado-importacion');
    await expect(result.getByText('Terminada con errores')).toBeVisible({ timeout: 30_000 });
    await expect(dialog.getByTestId('vista-previa-importacion')).toHaveCount(0);
  });

  // The buyer's cart is at the file's price now.
  await page.goto('/usuario/carrito');
  await expect(page.getByText('$278.40 MXN').first()).toBeVisible();
});
