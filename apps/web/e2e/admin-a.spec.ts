import { MSG } from '@portal/shared/messages';
import {
  apiPost,
  checkPhone,
  choose,
  clearNotifications,
  clientId,
  confirm,
  dmy,
  expectNotice,
  pickDay,
  scrollDialogTop,
  signInAdmin,
  testFile,
  toggleSwitch,
} from './admin-support';
import { expect, screenshot, test } from './fixtures';

/**
 * The administrator's clients, users, product assignments and access weeks, end to end against the real
 * server. Everything is created here (two clients of our own, their categories, products and users), so
 * the demo accounts other specs use are never touched.
 */
test.describe.configure({ mode: 'serial' });

/**
 * '' on the first attempt. When a test fails on CI the whole serial file runs again against the same
 * server; what it creates then carries the attempt (' r1', '.r1') instead of meeting its earlier data.
 */
const tag = (sep: string) => (test.info().retry ? `${sep}r${test.info().retry}` : '');
const clienteA = () => `Ferretera Prueba E2E${tag(' ')}`;
const clienteB = () => `Categorías Prueba E2E${tag(' ')}`;
const comprador = () => `e2e.compras${tag('.')}`;
const compradoraCat = () => `e2e.categorias${tag('.')}`;
const autorizadorE2e = () => `e2e.autoriza${tag('.')}`;

function isoInNextMonth(day: number): string {
  const now = new Date();
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, day));
  return d.toISOString().slice(0, 10);
}

// ---------------------------------------------------------------------------------------------------------

test('clientes: alta con logo, colores y calendario; validación; edición; desactivar y reactivar', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signInAdmin(page);
  await page.getByRole('link', { name: 'Clientes' }).first().click();
  await expect(page).toHaveURL(/\/administrador\/clientes$/);
  await expect(page.getByRole('heading', { name: 'Clientes', level: 1 })).toBeVisible();
  const demo = page
    .getByTestId(/^cliente-/)
    .filter({ visible: true })
    .filter({ hasText: 'Demo Industrial' });
  await expect(demo).toBeVisible();
  await expect(demo).toContainText('Activo');
  await expect(demo).toContainText(/\d\d-\d\d-\d\d \d\d:\d\d/);
  await screenshot(page, 'admin-clientes');

  // Required fields, then a refused image type.
  await page.getByRole('button', { name: 'Agregar cliente' }).click();
  const modal = page.getByRole('dialog', { name: 'Agregar cliente' });
  await expect(modal).toBeVisible();
  await modal.getByRole('button', { name: 'Crear cliente' }).click();
  await expect(modal.getByRole('alert')).toContainText(MSG.clienteCamposRequeridos);
  await modal
    .getByLabel('Archivo de logotipo')
    .setInputFiles({ name: 'logo.gif', mimeType: 'image/gif', buffer: testFile('one-pixel.gif') });
  await expect(modal.getByText('Only JPG and PNG files are allowed.')).toBeVisible();

  await modal.getByLabel('Nombre').fill(clienteA());
  await modal.getByLabel('Presupuesto mensual').fill('5000');
  await modal.getByLabel('Límite de compras').fill('3');
  await choose(page, 'Autorizadores', /2 niveles/);
  await modal
    .getByLabel('Archivo de logotipo')
    .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: testFile('logo-200x80.png') });
  await expect(modal.getByText('Only JPG and PNG files are allowed.')).toBeHidden();
  await expect(modal.getByRole('img', { name: 'Vista previa de logo.png' })).toBeVisible();
  await modal.getByRole('textbox', { name: 'Color principal' }).fill('#0b7285');
  await modal.getByRole('textbox', { name: 'Color secundario' }).fill('#f08c00');
  await modal.getByLabel('Nombre').click();
  await expect(modal.getByTestId('vista-previa-marca')).toHaveAttribute(
    'style',
    /linear-gradient\(165deg, rgb\(11, 114, 133\) 0%, rgb\(240, 140, 0\) 100%\)/,
  );
  await modal.getByLabel('Archivo de calendario').setInputFiles({
    name: 'calendario-2026.pdf',
    mimeType: 'application/pdf',
    buffer: testFile('calendario.pdf'),
  });
  await expect(modal.getByText('calendario-2026.pdf')).toBeVisible();
  // Correcting the form clears its message.
  await expect(modal.getByText(MSG.clienteCamposRequeridos)).toBeHidden();
  await scrollDialogTop(page);
  await screenshot(page, 'admin-cliente-form');
  await checkPhone(page, 'cliente-form');
  await modal.getByRole('button', { name: 'Crear cliente' }).click();
  await expectNotice(page, MSG.creadoCorrectamente);
  await expect(modal).toBeHidden();

  // Server-side search finds it, with its figures and logo.
  await page.getByRole('searchbox', { name: 'Buscar cliente' }).fill(clienteA().toLowerCase());
  await expect(page.getByText('Mostrando 1–1 de 1 cliente')).toBeVisible();
  const row = page
    .getByTestId(/^cliente-/)
    .filter({ visible: true })
    .filter({ hasText: clienteA() });
  await expect(row).toContainText('$5,000.00 MXN');
  await expect(row).toContainText('3 al mes');
  await expect(row).toContainText('Modo regular');
  await expect(row).toContainText('Calendario');
  const logo = row.getByRole('img', { name: `Logotipo de ${clienteA()}` });
  await expect(logo).toBeVisible();
  expect(await logo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(200);

  // Edit: no purchase limit; the calendar stays, a manual is added.
  await row.getByRole('button', { name: `Editar ${clienteA()}` }).click();
  const edit = page.getByRole('dialog', { name: 'Editar cliente' });
  await expect(edit.getByLabel('Nombre')).toHaveValue(clienteA());
  await expect(edit.getByText('Calendario actual')).toBeVisible();
  await edit.getByLabel('Límite de compras').fill('-1');
  await edit.getByLabel('Archivo de manual').setInputFiles({
    name: 'manual.pdf',
    mimeType: 'application/pdf',
    buffer: testFile('manual.pdf'),
  });
  await edit.getByRole('button', { name: 'Guardar cambios' }).click();
  await expectNotice(page, MSG.modificadoCorrectamente);
  await expect(row).toContainText('Sin límite');
  await expect(row).toContainText('Calendario · Manual');

  // Documents can be replaced and removed.
  await row.getByRole('button', { name: `Editar ${clienteA()}` }).click();
  await expect(edit.getByText('Manual actual')).toBeVisible();
  await edit.getByRole('button', { name: 'Quitar manual' }).click();
  await expect(edit.getByText('Se quitará al guardar')).toBeVisible();
  await edit.getByLabel('Archivo de calendario').setInputFiles({
    name: 'calendario-2027.pdf',
    mimeType: 'application/pdf',
    buffer: testFile('calendario.pdf'),
  });
  await edit.getByRole('button', { name: 'Guardar cambios' }).click();
  await expectNotice(page, MSG.modificadoCorrectamente);
  await expect(row).toContainText('Calendario');
  await expect(row).not.toContainText('Manual');

  // Deactivate and reactivate through '¿Estás seguro?'.
  await row.getByRole('button', { name: `Desactivar ${clienteA()}` }).click();
  await confirm(page, 'Desactivar');
  await expect(row).toContainText('Inactivo');
  await row.getByRole('button', { name: `Activar ${clienteA()}` }).click();
  await confirm(page, 'Activar');
  await expect(row).toContainText('Activo');
  await expect(row).not.toContainText('Inactivo');

  // A second client in category mode (one authorizer), with the required-field message first.
  await page.getByRole('button', { name: 'Agregar cliente' }).click();
  await modal.getByLabel('Nombre').fill(clienteB());
  await modal.getByRole('button', { name: 'Crear cliente' }).click();
  await expect(modal.getByRole('alert')).toContainText(MSG.clienteCamposRequeridos);
  await modal.getByLabel('Presupuesto mensual').fill('0');
  await modal.getByLabel('Límite de compras').fill('-1');
  await choose(page, 'Modo de presupuesto', /Por categoría/);
  await modal.getByRole('button', { name: 'Crear cliente' }).click();
  await expectNotice(page, MSG.creadoCorrectamente);
  await page.getByRole('searchbox', { name: 'Buscar cliente' }).fill(`prueba e2e${tag(' ')}`);
  await expect(page.getByText('Mostrando 1–2 de 2 clientes')).toBeVisible();
  await expect(
    page
      .getByTestId(/^cliente-/)
      .filter({ visible: true })
      .filter({ hasText: clienteB() }),
  ).toContainText('Modo por categoría');

  // Phones: one card per client.
  await page.getByRole('searchbox', { name: 'Buscar cliente' }).fill('');
  await clearNotifications(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole('button', { name: 'Acciones de Demo Industrial' })).toBeVisible();
  await screenshot(page, 'admin-clientes-390');
});

test('usuarios: alta regular y por categorías, validación, edición, activar, restablecer contraseña', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signInAdmin(page);
  const idA = await clientId(page, clienteA());
  const idB = await clientId(page, clienteB());
  // Categories of client B (category budgets) through the API.
  for (const [nombre, icono] of [
    ['Papelería', 'IconPencil'],
    ['Cafetería', 'IconCoffee'],
    ['Limpieza', 'IconSpray'],
  ] as const) {
    await apiPost(page, '/api/categorias', { nombre, icono, id_cliente: idB });
  }

  await page.goto('/administrador/usuarios');
  await expect(page.getByRole('heading', { name: 'Usuarios', level: 1 })).toBeVisible();
  await expect(page.getByText('Elige un cliente para empezar')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Agregar nuevo usuario' })).toHaveCount(0);
  await choose(page, 'Cliente', clienteA(), 'ferretera');
  await expect(page).toHaveURL(new RegExp(`cliente=${idA}`));
  await expect(page.getByRole('button', { name: 'Importación por archivo' })).toBeVisible();
  await expect(page.getByText('Este cliente aún no tiene usuarios')).toBeVisible();

  // Regular mode: required fields, the Super Autorizador option (2 authorizers) and the client's defaults.
  await page.getByRole('button', { name: 'Agregar nuevo usuario' }).click();
  const drawer = page.getByRole('dialog', { name: /Agregar nuevo usuario/ });
  await expect(drawer).toBeVisible();
  await drawer.getByRole('button', { name: 'Crear usuario' }).click();
  await expect(drawer.getByRole('alert')).toContainText(MSG.camposObligatoriosUsuario);
  await expect(drawer.getByText('Este campo es obligatorio.').first()).toBeVisible();
  await expect(drawer.getByRole('textbox', { name: 'Presupuesto', exact: true })).toHaveValue('$5,000.00');
  await expect(drawer.getByLabel('Límite de compras')).toHaveValue('-1');
  await drawer.getByRole('combobox', { name: 'Rol' }).click();
  await expect(page.getByRole('option', { name: 'Super Autorizador' })).toBeVisible();
  await page.getByRole('option', { name: 'Usuario', exact: true }).click();

  await drawer.getByRole('textbox', { name: 'Usuario', exact: true }).fill('e2e compras');
  await drawer.getByLabel('Email').fill(`compras${tag('.')}@ferretera-e2e.mx`);
  await drawer.getByRole('textbox', { name: 'Nombre', exact: true }).fill('Ana Sofía Ruiz Treviño');
  await drawer.getByLabel('Dirección de entrega').fill('Almacén central, andén 3');
  await choose(page, 'Semana de acceso', 'Semana 2');
  await choose(page, 'Semana de entrega', 'Semana 3');
  await drawer.getByRole('textbox', { name: 'Presupuesto', exact: true }).fill('2500');
  await drawer.getByLabel('Calle').fill('Av. Constitución 120');
  await drawer.getByLabel('Colonia').fill('Centro');
  await drawer.getByLabel('Ciudad').fill('Monterrey');
  await drawer.getByLabel('Código postal').fill('64000');
  await drawer.getByLabel('Estado').fill('Nuevo León');
  await drawer.getByLabel('Área').fill('Mantenimiento');
  await drawer.getByRole('button', { name: 'Crear usuario' }).click();
  await expect(drawer.getByRole('alert')).toContainText(MSG.usuarioConEspacios);
  await expect(drawer.getByRole('textbox', { name: 'Usuario', exact: true })).toHaveAccessibleDescription(
    /El usuario no puede contener espacios/,
  );
  await drawer.getByRole('textbox', { name: 'Usuario', exact: true }).fill(comprador());
  await scrollDialogTop(page);
  await screenshot(page, 'admin-usuario-form');
  await checkPhone(page, 'usuario-form');
  await drawer.getByRole('button', { name: 'Crear usuario' }).click();
  await expectNotice(page, MSG.creadoCorrectamente);
  await expect(drawer).toBeHidden();
  const row = page.getByTestId(`usuario-${comprador()}`).filter({ visible: true });
  await expect(row).toContainText('Ana Sofía Ruiz Treviño');
  await expect(row).toContainText('$2,500.00 MXN');
  await expect(row).toContainText('Acceso 2');
  await expect(row).toContainText('Entrega 3');
  await expect(row).toContainText(/\d\d-\d\d-\d\d \d\d:\d\d/);

  // An authorizer too (no products link for it).
  await page.getByRole('button', { name: 'Agregar nuevo usuario' }).click();
  await drawer.getByRole('textbox', { name: 'Usuario', exact: true }).fill(autorizadorE2e());
  await drawer.getByLabel('Email').fill(`autoriza${tag('.')}@ferretera-e2e.mx`);
  await drawer.getByRole('textbox', { name: 'Nombre', exact: true }).fill('Roberto Garza Salinas');
  await drawer.getByLabel('Dirección de entrega').fill('Oficinas, piso 2');
  await choose(page, 'Rol', 'Autorizador', undefined);
  await choose(page, 'Semana de acceso', 'Semana 1');
  await choose(page, 'Semana de entrega', 'Semana 1');
  await drawer.getByRole('button', { name: 'Crear usuario' }).click();
  await expectNotice(page, MSG.creadoCorrectamente);
  const autoriza = page.getByTestId(`usuario-${autorizadorE2e()}`).filter({ visible: true });
  await expect(autoriza).toContainText('Autorizador');
  await expect(autoriza.getByRole('link', { name: /Productos de/ })).toHaveCount(0);
  await expect(row.getByRole('link', { name: `Productos de ${comprador()}` })).toBeVisible();
  await clearNotifications(page);
  await screenshot(page, 'admin-usuarios');
  await checkPhone(page, 'usuarios');

  // Edit keeps every field; the name changes.
  await row.getByRole('button', { name: `Editar ${comprador()}` }).click();
  const editDrawer = page.getByRole('dialog', { name: /Editar usuario/ });
  await expect(editDrawer.getByLabel('Email')).toHaveValue(`compras${tag('.')}@ferretera-e2e.mx`);
  await expect(editDrawer.getByLabel('Ciudad')).toHaveValue('Monterrey');
  await expect(editDrawer.getByRole('combobox', { name: 'Semana de entrega' })).toHaveValue('Semana 3');
  await editDrawer.getByRole('textbox', { name: 'Nombre', exact: true }).fill('Ana Sofía Ruiz');
  await editDrawer.getByRole('button', { name: 'Guardar cambios' }).click();
  await expectNotice(page, MSG.modificadoCorrectamente);
  await expect(row).toContainText('Ana Sofía Ruiz');
  await expect(row).not.toContainText('Treviño');

  // An unknown id.
  await page.goto(`/administrador/usuarios?cliente=${idA}&editar=987654`);
  await expect(page.getByRole('dialog').getByText(MSG.usuarioNoEncontrado)).toBeVisible();
  await page.getByRole('button', { name: 'Volver a la lista' }).click();
  await expect(page).toHaveURL(new RegExp(`/administrador/usuarios\\?cliente=${idA}$`));

  // Deactivate / reactivate, then the administrator's password reset.
  await row.getByRole('button', { name: `Desactivar ${comprador()}` }).click();
  await confirm(page, 'Desactivar');
  await expect(row).toContainText('Inactivo');
  await row.getByRole('button', { name: `Activar ${comprador()}` }).click();
  await confirm(page, 'Activar');
  await expect(row).not.toContainText('Inactivo');
  await row.getByRole('button', { name: `Restablecer contraseña de ${comprador()}` }).click();
  await expect(page.getByRole('dialog', { name: '¿Estás seguro?' })).toContainText(
    `compras${tag('.')}@ferretera-e2e.mx`,
  );
  await confirm(page, 'Restablecer contraseña');
  await expectNotice(page, MSG.correoPasswordTemporal);

  // Search (server-side).
  await page.getByRole('searchbox', { name: 'Buscar usuario' }).fill('garza');
  await expect(page.getByText('Mostrando 1–1 de 1 usuario')).toBeVisible();
  await expect(page.getByTestId(`usuario-${autorizadorE2e()}`).filter({ visible: true })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Buscar usuario' }).fill('nadie-se-llama-asi');
  await expect(page.getByText('No encontramos usuarios')).toBeVisible();
  await page.getByRole('searchbox', { name: 'Buscar usuario' }).fill('');

  // Category mode: one field per category, the total, no Super Autorizador (one authorizer).
  await choose(page, 'Cliente', clienteB(), 'categorías prueba');
  await expect(page).toHaveURL(new RegExp(`cliente=${idB}`));
  await page.getByRole('button', { name: 'Agregar nuevo usuario' }).click();
  await expect(drawer.getByLabel('Papelería')).toBeVisible();
  await expect(drawer.getByRole('textbox', { name: 'Presupuesto', exact: true })).toHaveCount(0);
  await drawer.getByRole('combobox', { name: 'Rol' }).click();
  await expect(page.getByRole('option', { name: 'Super Autorizador' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await drawer.getByRole('textbox', { name: 'Usuario', exact: true }).fill(compradoraCat());
  await drawer.getByLabel('Email').fill(`lucia${tag('.')}@categorias-e2e.mx`);
  await drawer.getByRole('textbox', { name: 'Nombre', exact: true }).fill('Lucía Campos Vera');
  await drawer.getByLabel('Dirección de entrega').fill('Recepción planta 1');
  await choose(page, 'Semana de acceso', 'Semana 4');
  await choose(page, 'Semana de entrega', 'Semana 1');
  await drawer.getByLabel('Papelería').fill('1500');
  await drawer.getByLabel('Cafetería').fill('750.50');
  await drawer.getByLabel('Limpieza').fill('0');
  await expect(drawer.getByTestId('presupuesto-total')).toHaveText('$2,250.50 MXN');
  await scrollDialogTop(page);
  await screenshot(page, 'admin-usuario-form-categorias');
  await drawer.getByRole('button', { name: 'Crear usuario' }).click();
  await expectNotice(page, MSG.creadoCorrectamente);
  const catRow = page.getByTestId(`usuario-${compradoraCat()}`).filter({ visible: true });
  await expect(catRow).toContainText('$2,250.50 MXN');

  // Only the categories above 0 were sent (and stored).
  const list = (await (
    await page.request.get(`/api/usuarios?id_cliente=${idB}&q=${compradoraCat()}`)
  ).json()) as {
    usuarios: { categorias: string }[];
  };
  const stored = JSON.parse(list.usuarios[0]!.categorias) as { id: number; presupuesto: number }[];
  expect(stored.map((c) => c.presupuesto).sort((a, b) => a - b)).toEqual([750.5, 1500]);

  // Editing shows the stored budgets.
  await catRow.getByRole('button', { name: `Editar ${compradoraCat()}` }).click();
  await expect(page.getByRole('dialog', { name: /Editar usuario/ }).getByLabel('Cafetería')).toHaveValue(
    '$750.50',
  );
  await expect(
    page.getByRole('dialog', { name: /Editar usuario/ }).getByTestId('presupuesto-total'),
  ).toHaveText('$2,250.50 MXN');
});

test('productos del usuario: asignar todos, quitar todos, habilitar dos con su límite', async ({ page }) => {
  test.setTimeout(180_000);
  await signInAdmin(page);
  const idA = await clientId(page, clienteA());
  // A category and three products of client A through the API.
  const { categoria } = await apiPost<{ categoria: { id: number } }>(page, '/api/categorias', {
    nombre: 'Herramientas',
    icono: 'IconTool',
    id_cliente: idA,
  });
  const productos = [
    ['FE-001', 'Martillo de uña 16 oz', 189.9],
    ['FE-002', 'Juego de desarmadores 6 piezas', 249.5],
    ['FE-003', 'Cinta métrica 8 m', 129],
  ] as const;
  for (const [clave, nombre, precio] of productos) {
    await apiPost(page, '/api/productos', {
      id_cliente: idA,
      id_categoria: categoria.id,
      clave_interna: clave,
      nombre,
      precio,
      activo: 1,
      impuesto: 1,
    });
  }

  await page.goto(`/administrador/usuarios?cliente=${idA}`);
  await page
    .getByTestId(`usuario-${comprador()}`)
    .getByRole('link', { name: `Productos de ${comprador()}` })
    .click();
  await expect(page).toHaveURL(
    new RegExp(`/administrador/usuarios/usuario/\\d+/productos\\?cliente=${idA}$`),
  );
  await expect(page.getByRole('heading', { name: 'Productos del usuario', level: 1 })).toBeVisible();
  await expect(page.getByTestId('tarjeta-usuario')).toHaveText(comprador());
  await expect(page.getByTestId('tarjeta-cliente')).toHaveText(clienteA());
  await expect(page.getByTestId('productos-habilitados')).toHaveText('0');
  await expect(page.getByText('Mostrando 1–3 de 3 productos')).toBeVisible();

  await page.getByRole('button', { name: 'Asignar todos' }).click();
  await confirm(page, 'Asignar todos');
  await expect(page.getByTestId('productos-habilitados')).toHaveText('3');
  await expect(page.getByRole('switch', { name: 'Habilitar Cinta métrica 8 m' })).toBeChecked();
  await page.getByRole('button', { name: 'Quitar todos' }).click();
  await confirm(page, 'Quitar todos');
  await expect(page.getByTestId('productos-habilitados')).toHaveText('0');
  await expect(page.getByRole('switch', { name: 'Habilitar Cinta métrica 8 m' })).not.toBeChecked();

  // Two products, each with its limit (Enter saves one, leaving the field the other).
  const martillo = page.getByRole('switch', { name: 'Habilitar Martillo de uña 16 oz' });
  await toggleSwitch(martillo);
  await expect(martillo).toBeChecked();
  await expect(page.getByText('habilitado', { exact: true }).filter({ visible: true })).toHaveCount(1);
  const limMartillo = page.getByRole('textbox', { name: 'Cantidad límite de Martillo de uña 16 oz' });
  await limMartillo.fill('5');
  await limMartillo.press('Enter');
  await expect(page.getByLabel('Guardado')).toBeVisible();
  const juego = page.getByRole('switch', { name: 'Habilitar Juego de desarmadores 6 piezas' });
  await toggleSwitch(juego);
  await expect(juego).toBeChecked();
  const limJuego = page.getByRole('textbox', { name: 'Cantidad límite de Juego de desarmadores 6 piezas' });
  await limJuego.fill('3');
  await limJuego.blur();
  await expect(page.getByTestId('productos-habilitados')).toHaveText('2');

  // Search, then a reload shows what the server kept.
  await page.getByRole('searchbox', { name: 'Buscar producto' }).fill('FE-002');
  await expect(page.getByText('Mostrando 1–1 de 1 producto')).toBeVisible();
  await page.getByRole('searchbox', { name: 'Buscar producto' }).fill('');
  await page.reload();
  await expect(page.getByRole('switch', { name: 'Habilitar Martillo de uña 16 oz' })).toBeChecked();
  await expect(page.getByRole('textbox', { name: 'Cantidad límite de Martillo de uña 16 oz' })).toHaveValue(
    '5',
  );
  await expect(
    page.getByRole('textbox', { name: 'Cantidad límite de Juego de desarmadores 6 piezas' }),
  ).toHaveValue('3');
  await expect(page.getByRole('switch', { name: 'Habilitar Cinta métrica 8 m' })).not.toBeChecked();
  await screenshot(page, 'admin-usuario-productos');
  await checkPhone(page, 'usuario-productos');

  await page.getByRole('link', { name: 'Volver a usuarios' }).click();
  await expect(page).toHaveURL(new RegExp(`/administrador/usuarios\\?cliente=${idA}$`));
  await expect(page.getByTestId(`usuario-${comprador()}`).filter({ visible: true })).toBeVisible();

  // An id that is not a buyer.
  await page.goto('/administrador/usuarios/usuario/987654/productos');
  await expect(page.getByText(MSG.usuarioNoEncontrado)).toBeVisible();
});

test('semanas: agregar, duplicada, empalmada, activar/desactivar y eliminar', async ({ page }) => {
  test.setTimeout(180_000);
  await signInAdmin(page);
  await page.getByRole('link', { name: 'Semanas de acceso' }).first().click();
  await expect(page).toHaveURL(/\/administrador\/semanas$/);
  await expect(page.getByText(MSG.debesSeleccionarCliente)).toBeVisible();
  const agregar = page.getByRole('button', { name: 'Agregar', exact: true });
  await expect(agregar).toBeDisabled();

  const inicio = isoInNextMonth(10);
  const fin = isoInNextMonth(14);
  await pickDay(page, 'Fecha de inicio', inicio);
  await expect(page.getByRole('button', { name: 'Fecha de fin', exact: true })).toHaveText(dmy(fin));
  await expect(agregar).toBeDisabled();
  await choose(page, 'Cliente', clienteA(), 'ferretera');
  await expect(page.getByText('Este cliente aún no tiene semanas')).toBeVisible();
  await expect(agregar).toBeEnabled();
  await agregar.click();
  await expectNotice(page, MSG.creadoCorrectamente);
  const week = page.getByTestId(`semana-${inicio}`);
  await expect(week).toContainText(dmy(inicio));
  await expect(week).toContainText(dmy(fin));
  await expect(week.getByRole('switch')).toBeChecked();

  // The same week again, then one that overlaps it.
  await pickDay(page, 'Fecha de inicio', inicio);
  await agregar.click();
  const alert = page.getByRole('dialog', { name: 'Error' });
  await expect(alert).toContainText(MSG.semanaDuplicada);
  await alert.getByRole('button', { name: 'Aceptar' }).click();
  await pickDay(page, 'Fecha de inicio', isoInNextMonth(12));
  await agregar.click();
  await expect(alert).toContainText(MSG.semanaEmpalmada);
  await alert.getByRole('button', { name: 'Aceptar' }).click();

  // A second week, then the screenshot with both.
  const inicio2 = isoInNextMonth(20);
  await pickDay(page, 'Fecha de inicio', inicio2);
  await agregar.click();
  await expectNotice(page, MSG.creadoCorrectamente);
  const week2 = page.getByTestId(`semana-${inicio2}`);
  await expect(week2).toBeVisible();
  await expect(page.getByText('Mostrando 1–2 de 2 semanas')).toBeVisible();
  await clearNotifications(page);
  // The next week picked (not added yet): the end follows the start.
  await pickDay(page, 'Fecha de inicio', isoInNextMonth(27));
  await screenshot(page, 'admin-semanas');
  await checkPhone(page, 'semanas');

  // Toggle (with confirmation) and delete for good.
  await toggleSwitch(week.getByRole('switch'));
  await confirm(page, 'Desactivar');
  await expectNotice(page, MSG.actualizadoCorrectamente);
  await expect(week.getByRole('switch')).not.toBeChecked();
  await toggleSwitch(week.getByRole('switch'));
  await confirm(page, 'Activar');
  await expect(week.getByRole('switch')).toBeChecked();
  await week2.getByRole('button', { name: /Eliminar semana/ }).click();
  await confirm(page, 'Eliminar');
  await expectNotice(page, MSG.eliminadoCorrectamente);
  await expect(week2).toHaveCount(0);
  await expect(page.getByText('Mostrando 1–1 de 1 semana')).toBeVisible();
});
