import { addDays, businessDate, formatIsoDate } from '@portal/shared/domain/time';
import { checkA11y, expect, expectHome, screenshot, signIn, test } from './fixtures';
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
 * Stock and availability (issue 41, item 1; decision 0124): the catalogue says "En existencia",
 * "Quedan N" or "Sobre pedido · entrega estimada …", and the cart names the line that ships later. The
 * client, its products and its buyer are this attempt's own.
 */
const PASSWORD = 'Existencias#2026';

test('el catálogo muestra la existencia y el carrito dice qué se enviará después', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  const usuario = `julia.paredes.${runSuffix()}`;
  const ids = await asAdmin(browser, async (admin) => {
    const idCliente = await createClient(admin, {
      nombre: `Ferretera Paredes ${runSuffix()}`,
      presupuesto_default: 10_000,
      limite_de_compras: -1,
    });
    await openAccessWeek(admin, idCliente);
    const categoria = await createCategory(admin, idCliente, 'Ferretería', 'IconTool');
    const product = (
      clave_interna: string,
      nombre: string,
      extra: { existencia?: number; dias_entrega?: number },
    ) =>
      createProduct(admin, {
        id_cliente: idCliente,
        id_categoria: categoria,
        clave_interna,
        nombre,
        precio: 100,
        ...extra,
      });
    const martillo = await product('FER-01', 'Martillo de uña', { existencia: 40 });
    const pinzas = await product('FER-02', 'Pinzas de corte', { existencia: 3, dias_entrega: 5 });
    const taladro = await product('FER-03', 'Taladro inalámbrico', { existencia: 0, dias_entrega: 12 });
    await product('FER-04', 'Cinta métrica', {});
    const idUser = await createAccount(
      admin,
      {
        id_cliente: idCliente,
        usuario,
        correo: `${usuario}@ferretera-paredes.mx`,
        nombre: 'Julia Paredes Soto',
        rol: 1,
      },
      PASSWORD,
    );
    await assignAll(admin, idUser, 10);
    return { idCliente, martillo, pinzas, taladro };
  });

  await signIn(page, usuario, PASSWORD);
  await expectHome(page, 1);
  const entrega = formatIsoDate(addDays(businessDate(new Date()), 12));
  const card = (nombre: string) => page.getByRole('article', { name: nombre });
  await expect(card('Martillo de uña').getByTestId('disponibilidad')).toHaveText('En existencia');
  await expect(card('Pinzas de corte').getByTestId('disponibilidad')).toHaveText('Quedan 3');
  await expect(card('Taladro inalámbrico').getByTestId('disponibilidad')).toHaveText(
    `Sobre pedido · entrega estimada ${entrega}`,
  );
  // Unknown stock says nothing.
  await expect(card('Cinta métrica').getByTestId('disponibilidad')).toHaveCount(0);
  await checkA11y(page, 'catálogo con existencias');
  await screenshot(page, 'existencias-catalogo');

  // The cart: the backordered line and the part of a line beyond what is left.
  await apiPost(page, '/api/carrito/nuevo_item', { item: { id: ids.taladro, cantidad: 1 } });
  await apiPost(page, '/api/carrito/nuevo_item', { item: { id: ids.pinzas, cantidad: 5 } });
  await apiPost(page, '/api/carrito/nuevo_item', { item: { id: ids.martillo, cantidad: 2 } });
  await page.goto('/usuario/carrito');
  const later = page.getByTestId('envio-posterior');
  await expect(later.filter({ hasText: 'Sobre pedido: se enviará después' }).first()).toHaveText(
    `Sobre pedido: se enviará después · entrega estimada ${entrega}`,
  );
  await expect(later.filter({ hasText: '2 de 5 se enviarán después' }).first()).toBeVisible();
  await checkA11y(page, 'carrito con productos sobre pedido');
  await screenshot(page, 'existencias-carrito');

  // The operator sets the stock in the inventory's product form; the list shows it.
  await asAdmin(browser, async (admin) => {
    await openInventory(admin, ids.idCliente);
    const row = admin.getByTestId('producto-admin').filter({ hasText: 'Cinta métrica' });
    await expect(row.getByLabel('Existencia desconocida')).toBeVisible();
    await row.getByRole('button', { name: 'Editar Cinta métrica' }).click();
    const drawer = admin.getByRole('dialog', { name: 'Editar producto · FER-04' });
    await drawer.getByLabel('Existencia').fill('7');
    await drawer.getByLabel('Días de entrega').fill('3');
    await drawer.getByRole('button', { name: 'Guardar cambios' }).click();
    await expect(admin.getByText('Modificado correctamente')).toBeVisible();
    await expect(row.getByText('7', { exact: true })).toBeVisible();
    // Pinzas de corte: 5 in the cart reserve nothing (only an approval does).
    const pinzas = admin.getByTestId('producto-admin').filter({ hasText: 'Pinzas de corte' });
    await expect(pinzas.getByText('3', { exact: true })).toBeVisible();
    await expect(pinzas.getByText(/apartadas/)).toHaveCount(0);
  });
});
