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

test('el administrador programa un precio viendo lo que toca y el comprador ve el precio nuevo', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const usuario = `rocio.mendez.${runSuffix()}`;
  const ids = await asAdmin(browser, async (admin) => {
    const idCliente = await createClient(admin, {
      nombre: `Papelera Méndez ${runSuffix()}`,
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
        correo: `${usuario}@papelera-mendez.mx`,
        nombre: 'Rocío Méndez Luna',
        rol: 1,
      },
      PASSWORD,
    );
    await assignAll(admin, idUser, 10);
    return { idCliente, papel };
  });

  // The buyer already holds two reams in the cart.
  await signIn(page, usuario, PASSWORD);
  await expectHome(page, 1);
  await apiPost(page, '/api/carrito/nuevo_item', { item: { id: ids.papel, cantidad: 2 } });

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
