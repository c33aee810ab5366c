import { readFileSync } from 'node:fs';
import { expect, screenshot, signIn, test } from './fixtures';
import {
  apiPost,
  asAdmin,
  assignAll,
  businessToday,
  clearNotifications,
  createAccount,
  createCategory,
  createClient,
  createProduct,
  openAccessWeek,
  runSuffix,
  signInAdminApi,
} from './helpers';
import { e2eBaseUrl } from './ports';

/**
 * The readable system log and the administrator's chores around it (issue 17, items 1, 2 and 5): the log
 * filtered by a user's name typed without accents, its metadata opened as a table and copied, the filtered
 * log exported; the chosen client following the administrator from Usuarios to Inventario to Semanas; the
 * overview's "Pedidos por autorizar" opening the pending list and an order. Each test's client, people and
 * orders are this attempt's own.
 */

const PASSWORD = 'Registro#2026';

/** A client with an open week, a product, and a buyer who has signed in (its password changed). */
async function buyerWorld(browser: Parameters<typeof asAdmin>[0], tag: string) {
  const suffix = runSuffix();
  const usuario = `rocio.ibanez.${tag}${suffix}`;
  const nombre = `Rocío Ibáñez ${tag}${suffix}`;
  const cliente = `Papelería Ibáñez ${tag}${suffix}`;
  const made = await asAdmin(browser, async (admin) => {
    const idCliente = await createClient(admin, {
      nombre: cliente,
      presupuesto_default: 5000,
      limite_de_compras: -1,
    });
    await openAccessWeek(admin, idCliente);
    const categoria = await createCategory(admin, idCliente, 'Papelería', 'IconPencil');
    const producto = await createProduct(admin, {
      id_cliente: idCliente,
      id_categoria: categoria,
      clave_interna: `PA-${suffix}`,
      nombre: 'Resma carta',
      precio: 120,
      unidad_de_medida: 'Paquete',
    });
    const idUser = await createAccount(
      admin,
      {
        id_cliente: idCliente,
        usuario,
        correo: `${usuario}@ibanez.mx`,
        nombre,
        rol: 1,
        presupuesto_default: 5000,
      },
      PASSWORD,
    );
    await assignAll(admin, idUser, 10);
    return { idCliente, idUser, producto };
  });
  return { ...made, usuario, nombre, cliente };
}

test('logs: filtrar por el nombre sin acentos, ver y copiar los metadatos, exportar CSV', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const w = await buyerWorld(browser, 'l');
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: e2eBaseUrl() });
  await signInAdminApi(page);
  await page.goto('/administrador/logs');
  await expect(page.getByRole('heading', { name: 'Registros del sistema', level: 1 })).toBeVisible();
  const table = page.getByRole('table', { name: 'Registros del sistema' });
  for (const column of ['Fecha', 'Usuario', 'Evento', 'Descripción', 'Metadatos']) {
    await expect(table.getByRole('columnheader', { name: column, exact: true })).toBeVisible();
  }

  // The buyer's name, without accents nor capitals.
  await page.getByLabel('Usuario', { exact: true }).fill(`rocio ibanez l${runSuffix()}`);
  await expect(page).toHaveURL(/usuario=rocio/);
  const rows = page.getByTestId('log-row');
  await expect(rows.filter({ hasText: 'Contraseña cambiada' })).toHaveCount(1);
  await expect(rows.filter({ hasText: 'Inicio de sesión' }).first()).toBeVisible();
  // Only hers, once the filtered page has replaced the previous one.
  await expect(rows.filter({ hasNotText: w.nombre })).toHaveCount(0);
  // dd/MM/yyyy HH:mm
  await expect(rows.first().locator('td').first()).toContainText(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/);

  // The metadata is collapsed; opened, a key/value table; copied as JSON.
  const login = rows.filter({ hasText: 'Inicio de sesión' }).first();
  await expect(login.getByRole('table')).toHaveCount(0);
  await login.getByRole('button', { name: /Ver metadatos/ }).click();
  const metadata = login.getByRole('table', { name: /Metadatos del registro/ });
  await expect(metadata.getByRole('rowheader', { name: 'ip', exact: true })).toBeVisible();
  await login.getByRole('button', { name: 'Copy Metadata' }).click();
  await expect(page.getByText('Metadata copiada al portapapeles!')).toBeVisible();
  const copied = JSON.parse(await page.evaluate(() => navigator.clipboard.readText())) as Record<
    string,
    unknown
  >;
  expect(copied).toHaveProperty('ip');
  await clearNotifications(page);
  await screenshot(page, 'admin-logs');

  // Exported with the same filters: the buyer's entries only, labels in Spanish.
  const downloading = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Exportar CSV' }).click();
  const file = await downloading;
  expect(file.suggestedFilename()).toBe('registros.csv');
  const csv = readFileSync((await file.path())!, 'utf8');
  expect(csv.startsWith('\uFEFF#,Fecha,ID de usuario,Usuario,Nombre,Cliente,Pedido,Tipo de evento')).toBe(
    true,
  );
  const lines = csv.trim().split('\r\n').slice(1);
  expect(lines.length).toBeGreaterThanOrEqual(2);
  for (const line of lines) expect(line).toContain(`,${w.idUser},${w.usuario},${w.nombre},${w.cliente},`);
  expect(csv).toContain(',Contraseña cambiada,password_cambiada,');

  // The older links by user id still filter; by client, the administrator's changes appear too.
  await page.goto(`/administrador/logs?usuario=${w.idUser}`);
  await expect(page.getByLabel('Usuario', { exact: true })).toHaveValue(String(w.idUser));
  await expect(rows.filter({ hasText: 'Contraseña cambiada' })).toHaveCount(1);
  await page.goto(`/administrador/logs?cliente=${w.idCliente}&tipo=usuario_creado`);
  await expect(rows.filter({ hasText: 'Usuario creado' })).toHaveCount(1);
  await expect(page.getByRole('combobox', { name: 'Cliente', exact: true })).toHaveValue(w.cliente);
  // A value the server refuses is said next to its field, not sent.
  await page.getByRole('textbox', { name: 'Pedido', exact: true }).fill('doce');
  await expect(page.getByText('Busca por número de pedido, por ejemplo #00042.')).toBeVisible();
  // On a phone the event type and the user stay in sight; the client filter counts among the folded ones.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole('textbox', { name: 'Usuario', exact: true })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Pedido', exact: true })).toBeHidden();
  await page.getByRole('button', { name: 'Filtros (1)', exact: true }).click();
  await expect(page.getByRole('textbox', { name: 'Pedido', exact: true })).toBeVisible();
  await screenshot(page, 'admin-logs-390');
  await page.setViewportSize({ width: 1366, height: 860 });
});

test('el cliente elegido sigue al administrador; «Pedidos por autorizar» abre la lista y un pedido', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const w = await buyerWorld(browser, 'c');
  // The buyer places one order: 3 × $120 + IVA = $417.60.
  const context = await browser.newContext({
    baseURL: e2eBaseUrl(),
    locale: 'es-MX',
    timezoneId: 'America/Mexico_City',
  });
  let idPedido: number;
  try {
    const buyer = await context.newPage();
    await signIn(buyer, w.usuario, PASSWORD);
    await expect(buyer).toHaveURL(/\/usuario\/principal$/, { timeout: 60_000 });
    await apiPost(buyer, '/api/carrito/nuevo_item', { item: { id: w.producto, cantidad: 3 } });
    const compra = await apiPost<{ pedido: { id: number } }>(buyer, '/api/compra', {
      orden: [{ id: w.producto, cantidad: 3 }],
      fecha: businessToday(),
    });
    idPedido = compra.pedido.id;
  } finally {
    await context.close();
  }
  const numero = `#${String(idPedido).padStart(5, '0')}`;
  await signInAdminApi(page);

  // Clientes: the row's menu leads to the client's screens.
  await page.goto('/administrador/clientes');
  await page.getByRole('searchbox', { name: 'Buscar cliente' }).fill(w.cliente.toLowerCase());
  await page.getByRole('button', { name: `Pantallas de ${w.cliente}` }).click();
  await expect(page.getByRole('menuitem', { name: 'Inventario' })).toBeVisible();
  await page.getByRole('menuitem', { name: 'Usuarios' }).click();
  await expect(page).toHaveURL(new RegExp(`/administrador/usuarios\\?cliente=${w.idCliente}$`));
  await expect(page.getByRole('combobox', { name: 'Cliente', exact: true })).toHaveValue(w.cliente);
  await expect(page.getByText(w.usuario).first()).toBeVisible();
  await screenshot(page, 'admin-cliente-sigue');

  // The sidebar carries it: Inventario, then Semanas de acceso.
  const nav = page.getByRole('navigation', { name: 'Secciones' });
  await nav.getByRole('link', { name: 'Inventario' }).click();
  await expect(page).toHaveURL(new RegExp(`/administrador/inventario\\?cliente=${w.idCliente}$`));
  await expect(page.getByRole('combobox', { name: 'Cliente', exact: true })).toHaveValue(w.cliente);
  await expect(page.getByText('Resma carta')).toBeVisible();
  await nav.getByRole('link', { name: 'Semanas de acceso' }).click();
  await expect(page).toHaveURL(new RegExp(`/administrador/semanas\\?cliente=${w.idCliente}$`));
  await expect(page.getByRole('combobox', { name: 'Cliente', exact: true })).toHaveValue(w.cliente);
  await nav.getByRole('link', { name: 'Usuarios' }).click();
  await expect(page).toHaveURL(new RegExp(`/administrador/usuarios\\?cliente=${w.idCliente}$`));

  // A client that is not one: the picker, as with none.
  await page.goto('/administrador/usuarios?cliente=2147480000');
  await expect(page.getByText('Elige un cliente para empezar')).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Cliente', exact: true })).toHaveValue('');

  // The overview's "Pedidos por autorizar" opens the read-only list of this month's, then the order.
  await page.goto('/administrador/principal');
  await page.getByRole('link', { name: /Ver pedidos por autorizar/ }).click();
  await expect(page).toHaveURL(/\/administrador\/pedidos\?estatus=por_autorizar&mes=\d{4}-\d{2}$/);
  await expect(page.getByRole('heading', { name: 'Pedidos por autorizar', level: 1 })).toBeVisible();
  const row = page.getByTestId('pedido-admin').filter({ hasText: numero });
  await expect(row).toContainText(w.cliente);
  await expect(row).toContainText('Pendiente');
  await expect(row).toContainText('$417.60');
  await screenshot(page, 'admin-pedidos-por-autorizar');
  await row.getByRole('link', { name: numero }).click();
  await expect(page).toHaveURL(new RegExp(`/administrador/pedidos/${idPedido}$`));
  await expect(page.getByRole('heading', { name: `Pedido ${numero}` })).toBeVisible();
  await page.getByRole('link', { name: 'Volver a la lista' }).click();
  await expect(page).toHaveURL(/\/administrador\/pedidos\?estatus=por_autorizar/);

  // The log by that order's number.
  await page.goto(`/administrador/logs?pedido=${encodeURIComponent(numero)}`);
  await expect(page.getByTestId('log-row').filter({ hasText: 'Pedido creado' })).toHaveCount(1);
});
