import { expect, expectTableFits, PHONE_WIDTH, screenshot, signIn, test } from './fixtures';
import {
  apiPost,
  asAdmin,
  assignAll,
  businessToday,
  createAccount,
  createCategory,
  createClient,
  createProduct,
  openAccessWeek,
  runSuffix,
  signInAdmin,
} from './helpers';
import { e2eBaseUrl } from './ports';

/**
 * Support in one search (issue 17, item 1): a buyer calls; the administrator types part of the buyer's
 * name without accents in the header's search, opens the user (the drawer of Usuarios, client chosen),
 * then finds the order by its number and reads it on the read-only order page. The client, its product,
 * the buyer and the order are this attempt's own.
 */

const PASSWORD = 'Soporte#2026';

test('the administrator finds a user by an accentless partial name and an order by its number', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const suffix = runSuffix();
  const usuario = `jose.nunez.${suffix}`;
  const cliente = `Ferretería Núñez ${suffix}`;
  const made = await asAdmin(browser, async (admin) => {
    const idCliente = await createClient(admin, {
      nombre: cliente,
      presupuesto_default: 5000,
      limite_de_compras: -1,
    });
    await openAccessWeek(admin, idCliente);
    const categoria = await createCategory(admin, idCliente, 'Herramienta', 'IconTool');
    const producto = await createProduct(admin, {
      id_cliente: idCliente,
      id_categoria: categoria,
      clave_interna: 'HE-10',
      nombre: 'Martillo de uña',
      precio: 450,
      unidad_de_medida: 'Pieza',
    });
    const idUser = await createAccount(
      admin,
      {
        id_cliente: idCliente,
        usuario,
        correo: `${usuario}@nunez.mx`,
        nombre: `José Núñez Peña ${suffix}`,
        rol: 1,
        presupuesto_default: 5000,
        limite_de_compras: -1,
      },
      PASSWORD,
    );
    await assignAll(admin, idUser, 10);
    return { idCliente, idUser, producto };
  });

  // The buyer places one order: 2 × $450 + IVA = $1,044.
  const context = await browser.newContext({
    baseURL: e2eBaseUrl(),
    locale: 'es-MX',
    timezoneId: 'America/Mexico_City',
  });
  let idPedido: number;
  try {
    const buyer = await context.newPage();
    await signIn(buyer, usuario, PASSWORD);
    await expect(buyer).toHaveURL(/\/usuario\/principal$/, { timeout: 60_000 });
    await apiPost(buyer, '/api/carrito/nuevo_item', { item: { id: made.producto, cantidad: 2 } });
    const compra = await apiPost<{ pedido: { id: number } }>(buyer, '/api/compra', {
      orden: [{ id: made.producto, cantidad: 2 }],
      fecha: businessToday(),
    });
    idPedido = compra.pedido.id;
  } finally {
    await context.close();
  }
  const numero = `#${String(idPedido).padStart(5, '0')}`;

  await signInAdmin(page);
  const search = page.getByRole('searchbox', { name: 'Buscar en el portal: usuarios y pedidos' });

  // A user: part of the name, without accents nor capitals.
  await search.fill(`nunez pena ${suffix}`);
  const results = page.getByTestId('buscar-resultados');
  await expect(results.getByText('Usuarios', { exact: true })).toBeVisible();
  await expect(results.getByText('Pedidos', { exact: true })).toBeVisible();
  const userOption = results.getByRole('option', { name: new RegExp(`^José Núñez Peña ${suffix}`) });
  await expect(userOption).toBeVisible();
  await expect(results.getByRole('option', { name: new RegExp(`Pedido ${numero}`) })).toBeVisible();
  await screenshot(page, 'admin-soporte-busqueda');
  // The first result is selected: Enter opens it.
  await search.press('Enter');
  await expect(page).toHaveURL(
    new RegExp(`/administrador/usuarios\\?cliente=${made.idCliente}&editar=${made.idUser}$`),
  );
  const drawer = page.getByRole('dialog', { name: /Editar usuario/ });
  await expect(drawer.getByLabel('Email')).toHaveValue(`${usuario}@nunez.mx`);
  await page.keyboard.press('Escape');
  await expect(drawer).toHaveCount(0);

  // An order: by its number; arrows move through the results. Arrows and Enter before the new results have
  // come open nothing: the user above, a result of the previous words, is not opened again. The number's
  // answer is held until the keys are pressed, so that they come first however fast the server answers.
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const searchUrl = /\/api\/buscar\?/;
  await page.route(searchUrl, async (route) => {
    if (decodeURIComponent(route.request().url()).includes(numero)) await held;
    await route.continue();
  });
  await search.fill(numero);
  await search.press('ArrowDown');
  await search.press('Enter');
  release();
  const orderOption = results.getByRole('option', { name: new RegExp(`Pedido ${numero}`) });
  await expect(orderOption).toBeVisible();
  await page.unroute(searchUrl);
  await expect(drawer).toHaveCount(0);
  await expect(page).not.toHaveURL(/editar=/);
  await search.press('ArrowDown');
  await search.press('ArrowUp');
  await search.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/administrador/pedidos/${idPedido}$`));
  await expect(page.getByRole('heading', { name: `Pedido ${numero}` })).toBeVisible();
  await expect(page.getByTestId('estatus-pedido')).toHaveText('Pendiente');
  await expect(page.getByRole('table', { name: 'Productos del pedido' })).toContainText('Martillo de uña');
  await expect(page.getByTestId('soporte-total')).toContainText('$1,044.00');
  await expect(page.getByText(`${cliente} · Fecha de compra:`)).toBeVisible();
  // Read-only: no action and no comment form.
  await expect(page.getByRole('button', { name: /Aprobar|Cancelar|Comentar|Retirar/ })).toHaveCount(0);
  await screenshot(page, 'admin-pedido-lectura');
  // On a phone each line is a card: no column cut off (issue 37).
  await page.setViewportSize({ width: PHONE_WIDTH, height: 844 });
  await expectTableFits(page.getByRole('table', { name: 'Productos del pedido' }));
  await expect(page.getByTestId('soporte-total')).toBeVisible();
  await screenshot(page, 'admin-pedido-lectura-390');
  await page.setViewportSize({ width: 1366, height: 860 });

  // Too short a search asks for nothing; a search without matches says so.
  await search.fill(`zzz${suffix}qq`);
  await expect(results.getByText('Sin resultados')).toBeVisible();
});
