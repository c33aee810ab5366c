import { expect, expectHome, screenshot, signIn, test } from './fixtures';
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
  openAccessWeek,
  runSuffix,
} from './helpers';

/**
 * The buyer's cart and history (issue 13, item 5): the delivery address the administrator registered is
 * shown in the cart before 'Enviar pedido'; the history filters by status, month and order number, kept in
 * the URL, with an empty state and 'Quitar filtros'; a pendiente order says whom it waits for and since when.
 * The client (an access week), its products and the buyer are this attempt's own.
 */
const PASSWORD = 'Historial#2026';

test('dirección de entrega en el carrito, filtros del historial y a quién espera un pedido', async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  const suffix = runSuffix();
  const comprador = `rosa.ibarra.${suffix}`;
  const { cafe, azucar } = await asAdmin(browser, async (admin) => {
    const idCliente = await createClient(admin, {
      nombre: `Cafetería Ibarra ${suffix}`,
      presupuesto_default: 8000,
      limite_de_compras: -1,
    });
    await openAccessWeek(admin, idCliente);
    const despensa = await createCategory(admin, idCliente, 'Despensa', 'IconCoffee');
    const producto = (clave_interna: string, nombre: string, precio: number) =>
      createProduct(admin, {
        id_cliente: idCliente,
        id_categoria: despensa,
        clave_interna,
        nombre,
        precio,
        unidad_de_medida: 'Bolsa',
      });
    const cafe = await producto('DES-20', 'Café molido 1 kg', 210);
    const azucar = await producto('DES-21', 'Azúcar estándar 2 kg', 64);
    // The address through the administrator's user API, as the user form saves it.
    const idComprador = await createAccount(
      admin,
      {
        id_cliente: idCliente,
        usuario: comprador,
        correo: `${comprador}@ibarra.mx`,
        nombre: 'Rosa Ibarra Campos',
        rol: 1,
        presupuesto_default: 8000,
        direccion_entrega: 'Almacén central, andén 3',
        calle: 'Av. Chapultepec 480',
        colonia: 'Roma Norte',
        ciudad: 'Ciudad de México',
        cp: '06700',
      },
      PASSWORD,
    );
    await assignAll(admin, idComprador, 10);
    return { cafe, azucar };
  });

  await signIn(page, comprador, PASSWORD);
  // Signing in hashes the password: on a busy machine it takes its time.
  await expect(page).toHaveURL(/\/usuario\/principal$/, { timeout: 60_000 });
  await expectHome(page, 1);

  // Two orders through the API; the first is withdrawn (cancelado), the second stays pendiente.
  const buy = async (id: number, cantidad: number) => {
    await apiPost(page, '/api/carrito/nuevo_item', { item: { id, cantidad } });
    const res = await apiPost<{ pedido: { id: number } }>(page, '/api/compra', {
      orden: [{ id, cantidad }],
      fecha: businessToday(),
    });
    return res.pedido.id;
  };
  const retirado = await buy(cafe, 1);
  await apiPost(page, `/api/historial/${retirado}/retirar`, {});
  const pendiente = await buy(azucar, 2);
  const numero = (id: number) => `#${String(id).padStart(5, '0')}`;

  // The cart shows where the order goes, before the purchase ('Confirmar compra', then 'Enviar pedido').
  await apiPost(page, '/api/carrito/nuevo_item', { item: { id: cafe, cantidad: 2 } });
  await page.goto('/usuario/carrito');
  const direccion = page.getByTestId('direccion-entrega');
  await expect(direccion.getByText('Dirección de entrega')).toBeVisible();
  await expect(direccion.locator('p').filter({ hasNotText: 'Dirección de entrega' })).toHaveText([
    'Almacén central, andén 3',
    'Av. Chapultepec 480',
    'Roma Norte, Ciudad de México, C.P. 06700',
  ]);
  await expect(page.getByRole('button', { name: 'Confirmar compra' })).toBeVisible();
  await screenshot(page, 'usuario-carrito-direccion');

  // History: both orders, then by status (kept in the URL across a reload).
  await page.goto('/usuario/historial');
  const filas = page.getByRole('table', { name: 'Pedidos' }).locator('tbody tr');
  await expect(filas).toHaveCount(2);
  await choose(page, 'Estatus', 'Cancelado');
  await expect(page).toHaveURL(/[?&]status=cancelado/);
  await expect(filas).toHaveCount(1);
  await expect(filas.first()).toContainText(numero(retirado));
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Estatus', exact: true })).toHaveValue('Cancelado');
  await expect(filas).toHaveCount(1);

  // This month and the order number.
  await choose(page, 'Estatus', 'Todos');
  const mes = page.getByRole('combobox', { name: 'Mes', exact: true });
  await mes.click();
  await page.getByRole('option').first().click();
  await expect(page).toHaveURL(/[?&]mes=\d{4}-\d{2}/);
  await expect(filas).toHaveCount(2);
  await page.getByLabel('Número de pedido').fill(numero(pendiente));
  await expect(page).toHaveURL(new RegExp(`[?&]q=%23${String(pendiente).padStart(5, '0')}`));
  await expect(filas).toHaveCount(1);
  await expect(filas.first()).toContainText(numero(pendiente));
  await screenshot(page, 'usuario-historial-filtros');

  // A search that is not an order number is explained on the field, not sent.
  await page.getByLabel('Número de pedido').fill('azúcar');
  await expect(page.getByText('Busca por número de pedido, por ejemplo #00042.')).toBeVisible();
  await expect(page.getByLabel('Número de pedido')).toHaveAttribute('aria-invalid', 'true');

  // No order matches: the empty state and 'Quitar filtros'.
  await page.getByLabel('Número de pedido').fill(numero(pendiente));
  await choose(page, 'Estatus', 'Aprobado');
  await expect(page.getByText('No hay pedidos con estos filtros')).toBeVisible();
  await page.getByRole('button', { name: 'Quitar filtros' }).click();
  await expect(page).toHaveURL(/\/usuario\/historial$/);
  await expect(filas).toHaveCount(2);
  await expect(page.getByLabel('Número de pedido')).toHaveValue('');

  // The pendiente order waits for the Autorizador (level 1) since it was sent.
  await page.goto(`/usuario/historial/${pendiente}`);
  await expect(page.getByTestId('en-espera')).toHaveText(
    /^En espera del Autorizador \(nivel 1\) desde el \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/,
  );
  await page.goto(`/usuario/historial/${retirado}`);
  await expect(page.getByTestId('estatus-pedido')).toHaveText('Cancelado');
  await expect(page.getByTestId('en-espera')).toHaveCount(0);
});
