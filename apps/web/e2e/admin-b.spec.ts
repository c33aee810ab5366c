import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { clearNotifications, signInAdmin, testFile, xsrfHeaders } from './admin-support';
import { checkA11y, expect, screenshot, signIn, test } from './fixtures';
import { E2E_BASE_URL } from './ports';

/**
 * The administrator's inventory, CSV imports, system log and overview, end to end against the real
 * server. Every change happens in a client this spec creates through the API (the demo clients, their
 * products and their users' assignments are left as they are for the other specs).
 */
test.describe.configure({ mode: 'serial', timeout: 120_000 });

const RUN = Date.now().toString(36).slice(-5).toUpperCase();
const CLIENTE = `Cliente Inventario E2E ${RUN}`;
const CATEGORIA = `Papelería E2E ${RUN}`;
const PRODUCTO = 'Engrapadora de escritorio';
const PRODUCTO_EDITADO = 'Engrapadora metálica de escritorio';
const CLAVE = `E2E-${RUN}-1`;

let idCliente = 0;

// ---------------------------------------------------------------------------------------------------------
// Helpers

/** This spec's own client (created once, through the API, signed in as the administrator). */
async function ensureClient(page: Page): Promise<number> {
  if (idCliente) return idCliente;
  const res = await page.request.post('/api/clientes', {
    headers: await xsrfHeaders(page),
    multipart: {
      nombre: CLIENTE,
      presupuesto_default: '5000',
      limite_de_compras: '-1',
      modo_presupuesto: 'regular',
      cantidad_autorizadores: '1',
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  idCliente = ((await res.json()) as { cliente: { id: number } }).cliente.id;
  return idCliente;
}

async function openInventory(page: Page): Promise<void> {
  await signInAdmin(page);
  await ensureClient(page);
  await page.goto(`/administrador/inventario?cliente=${idCliente}`);
  await expect(page.getByRole('heading', { name: 'Inventario', level: 1 })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Cargar productos' })).toBeVisible();
}

// ---------------------------------------------------------------------------------------------------------

test('principal: el resumen muestra clientes, usuarios, pedidos del mes e importaciones', async ({
  page,
}) => {
  await signInAdmin(page);
  const clientes = page.getByTestId('resumen-Clientes activos');
  await expect(clientes).toHaveText(/^\d[\d,]*$/);
  expect(Number((await clientes.textContent())!.replace(/,/g, ''))).toBeGreaterThanOrEqual(2);
  const usuarios = page.getByTestId('resumen-Usuarios activos');
  expect(Number((await usuarios.textContent())!.replace(/,/g, ''))).toBeGreaterThanOrEqual(4);
  await expect(page.getByRole('heading', { name: /^Pedidos de / })).toBeVisible();
  for (const status of ['Pendiente', 'Espera', 'Aprobado', 'Cancelado']) {
    await expect(page.getByText(status, { exact: true })).toBeVisible();
  }
  await expect(page.getByRole('heading', { name: 'Importaciones' })).toBeVisible();
  await expect(page.getByTestId('importaciones-en-proceso')).toHaveText(/^\d+$/);
  const accesos = page.getByRole('region', { name: 'Accesos rápidos' });
  for (const name of ['Clientes', 'Semanas de acceso', 'Inventario', 'Usuarios', 'Logs de sistema']) {
    await expect(accesos.getByRole('link', { name: new RegExp(`^${name}`) })).toBeVisible();
  }
  await screenshot(page, 'admin-principal');
  await screenshot(page, 'administrador-principal');
});

test('inventario: sin cliente todo está deshabilitado; con cliente aparece «Cargar productos»', async ({
  page,
}) => {
  await signInAdmin(page);
  await ensureClient(page);
  await page.goto('/administrador/inventario');
  await expect(page.getByLabel('Clave interna')).toBeDisabled();
  await expect(page.getByLabel('Nombre')).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Agregar producto' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Cargar productos' })).toHaveCount(0);
  await expect(page.getByText('Selecciona un cliente', { exact: true })).toBeVisible();

  // The client dropdown (searchable).
  await page.getByRole('combobox', { name: 'Cliente', exact: true }).fill(CLIENTE);
  await page.getByRole('option', { name: CLIENTE }).click();
  await expect(page).toHaveURL(new RegExp(`cliente=${idCliente}`));
  await expect(page.getByLabel('Clave interna')).toBeEnabled();
  await expect(page.getByRole('button', { name: 'Cargar productos' })).toBeVisible();
  await expect(page.getByText('Este cliente aún no tiene productos')).toBeVisible();
});

test('inventario: categoría, producto con imagen, edición y activar/desactivar con confirmación', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await openInventory(page);

  // Categorías: the name is required; then a category with an icon of the catalogue.
  await page.getByRole('tab', { name: 'Categorías' }).click();
  await page.getByRole('button', { name: 'Nueva categoria' }).click();
  const dialog = page.getByRole('dialog', { name: 'Nueva categoria' });
  await dialog.getByRole('button', { name: 'Crear categoría' }).click();
  await expect(dialog.getByText('El nombre es obligatorio')).toBeVisible();
  await dialog.getByLabel('Nombre').fill(CATEGORIA);
  await dialog.getByRole('combobox', { name: 'Icono', exact: true }).click();
  await page.getByRole('option', { name: 'Lápiz' }).click();
  await dialog.getByRole('button', { name: 'Crear categoría' }).click();
  await expect(page.getByText('Creado correctamente')).toBeVisible();
  await expect(dialog).toBeHidden();
  const table = page.getByRole('table', { name: 'Categorías del cliente' });
  await expect(table.getByRole('row', { name: new RegExp(CATEGORIA) })).toBeVisible();
  await clearNotifications(page);
  await screenshot(page, 'admin-categorias');

  // Iconos: the catalogue with its names; the one in use is marked.
  await page.getByRole('tab', { name: 'Iconos' }).click();
  await expect(page.getByText('Lápiz', { exact: true })).toBeVisible();
  await expect(page.getByText('Cafetería', { exact: true })).toBeVisible();
  await expect(page.getByRole('listitem').filter({ hasText: 'En uso' })).toHaveText(/Lápiz/);
  await screenshot(page, 'admin-iconos');

  // A product with an image: a GIF is refused on the spot; a PNG shows its preview.
  await page.getByRole('tab', { name: 'Artículos' }).click();
  await page.getByLabel('Clave interna').fill(CLAVE);
  await page.getByLabel('Clave cliente').fill('ACME-778');
  await page.getByLabel('Nombre').fill(PRODUCTO);
  await page.getByLabel('Descripción').fill('Engrapadora de escritorio para 20 hojas, incluye 1,000 grapas.');
  await page.getByLabel('Unidad de medida').fill('Pieza');
  await page.getByLabel('Precio (MXN)').fill('189.9');
  await page.getByRole('combobox', { name: 'Categoría', exact: true }).click();
  await page.getByRole('option', { name: CATEGORIA }).click();
  await page.getByLabel('Imagen del producto').setInputFiles({
    name: 'engrapadora.gif',
    mimeType: 'image/gif',
    buffer: testFile('one-pixel.gif'),
  });
  await expect(page.getByText('Only JPG and PNG files are allowed.')).toBeVisible();
  await page.getByLabel('Imagen del producto').setInputFiles({
    name: 'engrapadora.png',
    mimeType: 'image/png',
    buffer: testFile('gradient-120.png'),
  });
  await expect(page.getByText('Only JPG and PNG files are allowed.')).toBeHidden();
  await expect(page.getByRole('img', { name: 'Vista previa de la imagen del producto' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Cambiar' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Eliminar' })).toBeVisible();
  await expect(page.getByRole('switch', { name: 'Aplica IVA' })).toBeChecked();
  await checkA11y(page, 'admin-producto-form');
  await page.getByRole('region', { name: 'Nuevo producto' }).screenshot({
    path: 'docs/screenshots/admin-producto-form.png',
    animations: 'disabled',
  });
  await page.getByRole('button', { name: 'Agregar producto' }).click();
  await expect(page.getByText('Creado correctamente')).toBeVisible();

  const card = page.getByRole('article', { name: PRODUCTO });
  await expect(card).toBeVisible();
  await expect(card.getByText('Activo', { exact: true }).first()).toBeVisible();
  await expect(card.getByText('$189.90 MXN')).toBeVisible();
  await expect(card.getByText(CLAVE)).toBeVisible();
  await expect(card.getByText(CATEGORIA)).toBeVisible();
  const thumb = card.locator('img');
  await expect(thumb).toBeVisible();
  await expect.poll(() => thumb.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
  // The form went back to add mode, empty.
  await expect(page.getByLabel('Nombre')).toHaveValue('');

  // Edit: the form loads the product, saves it and shows it changed.
  await card.getByRole('button', { name: `Editar ${PRODUCTO}` }).click();
  await expect(page.getByRole('heading', { name: 'Editar producto' })).toBeVisible();
  await expect(page.getByLabel('Nombre')).toHaveValue(PRODUCTO);
  await expect(page.getByRole('img', { name: 'Vista previa de la imagen del producto' })).toBeVisible();
  await page.getByLabel('Nombre').fill(PRODUCTO_EDITADO);
  await page.getByLabel('Precio (MXN)').fill('205.5');
  await page.getByRole('switch', { name: 'Aplica IVA' }).dispatchEvent('click');
  await expect(page.getByRole('switch', { name: 'Aplica IVA' })).not.toBeChecked();
  await page.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(page.getByText('Modificado correctamente')).toBeVisible();
  const edited = page.getByRole('article', { name: PRODUCTO_EDITADO });
  await expect(edited.getByText('$205.50 MXN')).toBeVisible();
  await expect(edited.getByText('Sin IVA')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Nuevo producto' })).toBeVisible();

  // 'Cancelar' resets edit mode.
  await edited.getByRole('button', { name: `Editar ${PRODUCTO_EDITADO}` }).click();
  await expect(page.getByLabel('Nombre')).toHaveValue(PRODUCTO_EDITADO);
  await page.getByRole('button', { name: 'Cancelar' }).click();
  await expect(page.getByRole('heading', { name: 'Nuevo producto' })).toBeVisible();
  await expect(page.getByLabel('Nombre')).toHaveValue('');

  // Deactivate and activate again, each behind '¿Estás seguro?'.
  await edited.getByRole('switch', { name: `Desactivar ${PRODUCTO_EDITADO}` }).dispatchEvent('click');
  const confirm = page.getByRole('dialog', { name: '¿Estás seguro?' });
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: 'Cancelar' }).click();
  await expect(edited.getByText('Activo', { exact: true }).first()).toBeVisible();
  await edited.getByRole('switch', { name: `Desactivar ${PRODUCTO_EDITADO}` }).dispatchEvent('click');
  await confirm.getByRole('button', { name: 'Sí, desactivar' }).click();
  await expect(page.getByText('Modificado correctamente').first()).toBeVisible();
  await expect(edited.getByText('Inactivo', { exact: true })).toBeVisible();
  await edited.getByRole('switch', { name: `Activar ${PRODUCTO_EDITADO}` }).dispatchEvent('click');
  await confirm.getByRole('button', { name: 'Sí, activar' }).click();
  await expect(edited.getByText('Activo', { exact: true }).first()).toBeVisible();

  // The category counts its product.
  await page.getByRole('tab', { name: 'Categorías' }).click();
  await expect(page.getByRole('button', { name: `Ver productos de ${CATEGORIA} (1)` })).toBeVisible();
  await page.getByRole('tab', { name: 'Artículos' }).click();
  await expect(edited).toBeVisible();
});

test('importación de productos: plantilla, archivo no CSV, CSV con un renglón erróneo y su resultado', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await openInventory(page);
  await page.getByRole('button', { name: 'Cargar productos' }).click();
  const dialog = page.getByRole('dialog', { name: /Cargar productos/ });
  await expect(dialog.getByRole('button', { name: 'Importar' })).toBeDisabled();

  // The template.
  const download = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Descargar plantilla' }).click();
  const template = await download;
  expect(template.suggestedFilename()).toBe('plantilla.csv');
  const templateText = await readFile((await template.path())!);
  expect(templateText.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
  expect(templateText.toString('utf8').slice(1).split(/\r?\n/)[0]).toBe(
    'clave_interna,clave_cliente,nombre,descripcion,unidad_de_medida,precio,impuesto,activo,categoria',
  );

  // Not a CSV: refused by name on the spot; a PNG renamed .csv is refused by the server, clearly.
  const fileInput = dialog.getByLabel('Archivo CSV', { exact: true });
  await fileInput.setInputFiles({
    name: 'productos.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer: Buffer.from('PK\u0003\u0004 hoja de cálculo'),
  });
  await expect(dialog.getByText(/^Solo se permiten archivos CSV \(\.csv\)/)).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Importar' })).toBeDisabled();
  await fileInput.setInputFiles({
    name: 'foto.csv',
    mimeType: 'text/csv',
    buffer: testFile('gradient-8.png'),
  });
  await expect(dialog.getByText('foto.csv')).toBeVisible();
  await dialog.getByRole('button', { name: 'Importar' }).click();
  const refusal = dialog.getByRole('alert').filter({ hasText: 'Hubo un problema al subir el archivo.' });
  await expect(refusal).toBeVisible();
  await expect(refusal).toContainText('El archivo no es un CSV');

  // A CSV with three good rows and one bad one (price).
  await dialog.getByRole('button', { name: 'Quitar el archivo foto.csv' }).click();
  const csv = [
    'clave_interna,clave_cliente,nombre,descripcion,unidad_de_medida,precio,impuesto,activo,categoria',
    `IMP-${RUN}-1,C-1,Folder tamaño carta importado,Paquete de 25,Paquete,89.50,1,1,${CATEGORIA}`,
    `IMP-${RUN}-2,C-2,Marcador permanente importado,Negro,Pieza,18.00,1,1,Oficina E2E ${RUN}`,
    `IMP-${RUN}-3,C-3,Sobre manila importado,Tamaño oficio,Pieza,4.25,0,1,Oficina E2E ${RUN}`,
    `IMP-${RUN}-4,C-4,Cinta adhesiva importada,Transparente,Pieza,doce,1,1,${CATEGORIA}`,
  ].join('\r\n');
  await fileInput.setInputFiles({
    name: 'productos_e2e.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(csv),
  });
  await expect(dialog.getByTestId('archivo-seleccionado')).toContainText('productos_e2e.csv');
  await expect(dialog.getByRole('button', { name: 'Importar' })).toBeEnabled();
  await screenshot(page, 'admin-importar');
  await dialog.getByRole('button', { name: 'Importar' }).click();
  await expect(page.getByText('Procesando archivo', { exact: true })).toBeVisible();
  await expect(
    page.getByText('En breve se te informará cuando los registros hayan sido procesados'),
  ).toBeVisible();

  const result = dialog.getByTestId('resultado-importacion');
  await expect(result.getByText('Terminada con errores')).toBeVisible({ timeout: 30_000 });
  await expect(result.getByText('3 registros procesados de 4, 1 registro con errores.')).toBeVisible();
  const errors = result.getByRole('table', { name: 'Errores por registro' });
  const errorRow = errors.getByRole('row').nth(1);
  await expect(errorRow).toContainText('5');
  await expect(errorRow).toContainText('precio');
  await expect(errorRow).toContainText('Debe ser un número mayor o igual a 0 con hasta 2 decimales.');
  await expect(errorRow).toContainText('doce');
  await expect(page.getByText('Importación terminada con errores')).toBeVisible();

  // The history keeps it, with its per-row error report.
  const history = dialog.getByRole('table', { name: 'Importaciones del cliente' });
  const row = history.getByRole('row', { name: /productos_e2e\.csv/ });
  await expect(row).toContainText('Terminada con errores');
  const report = row.getByRole('link', { name: /Errores CSV de productos_e2e\.csv/ });
  const href = await report.getAttribute('href');
  expect(href).toMatch(/^\/api\/importaciones\/\d+\/errores\.csv$/);
  const reportText = await (await page.request.get(href!)).text();
  expect(reportText).toContain('precio');
  expect(reportText).toContain('doce');
  await clearNotifications(page);
  await page.setViewportSize({ width: 1366, height: 1500 });
  await screenshot(page, 'admin-importacion-resultado');
  await page.setViewportSize({ width: 1366, height: 860 });

  // The product list was refreshed behind the dialog.
  // The footer's button (the header's × has the same name).
  await dialog.getByRole('button', { name: 'Cerrar' }).last().click();
  await expect(page.getByRole('article', { name: 'Folder tamaño carta importado' })).toBeVisible();
  await expect(page.getByRole('article', { name: 'Sobre manila importado' })).toBeVisible();
  await expect(page.getByRole('article', { name: 'Cinta adhesiva importada' })).toHaveCount(0);

  // Search (server-side).
  await page.getByRole('searchbox', { name: 'Buscar productos' }).fill('manila');
  await expect(page.getByText('1 producto', { exact: true })).toBeVisible();
  await expect(page.getByRole('article')).toHaveCount(1);
  await page.getByRole('button', { name: 'Limpiar búsqueda' }).first().click();
  await expect(page.getByRole('article')).toHaveCount(4);
  await clearNotifications(page);
  await screenshot(page, 'admin-inventario');

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole('article').first()).toBeVisible();
  await screenshot(page, 'admin-inventario-390');
});

test('usuarios: «Importación por archivo» con plantilla, un renglón erróneo y la lista actualizada', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signInAdmin(page);
  await ensureClient(page);
  await page.goto(`/administrador/usuarios?cliente=${idCliente}`);
  await page.getByRole('button', { name: 'Importación por archivo' }).click();
  const dialog = page.getByRole('dialog', { name: /Importación por archivo/ });
  await expect(dialog.getByRole('button', { name: 'Importar' })).toBeDisabled();
  const download = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Descargar plantilla' }).click();
  const template = await download;
  expect(template.suggestedFilename()).toBe('plantilla_carga_de_usuarios.csv');
  const [header, example] = (await readFile((await template.path())!, 'utf8'))
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/);
  const columns = header!.split(',');
  const cells = example!.split(',');
  expect(cells).toHaveLength(columns.length);
  const row = (usuario: string, rol: string) =>
    columns
      .map((c, i) => {
        if (c === 'usuario') return usuario;
        if (c === 'user_id') return `${usuario}@empresa-e2e.mx`;
        if (c === 'nombre') return `Usuario importado ${usuario}`;
        if (c === 'rol') return rol;
        return cells[i];
      })
      .join(',');
  const good = `imp-${RUN.toLowerCase()}`;
  const csv = [header, row(good, '1'), row(`${good}-b`, '9')].join('\r\n');
  await dialog
    .getByLabel('Archivo CSV', { exact: true })
    .setInputFiles({ name: 'usuarios_e2e.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await dialog.getByRole('button', { name: 'Importar' }).click();
  await expect(page.getByText('Procesando archivo', { exact: true })).toBeVisible();
  const result = dialog.getByTestId('resultado-importacion');
  await expect(result.getByText('Terminada con errores')).toBeVisible({ timeout: 30_000 });
  await expect(result.getByText('1 registro procesado de 2, 1 registro con errores.')).toBeVisible();
  await expect(result.getByRole('table', { name: 'Errores por registro' })).toContainText('rol');
  // The footer's button (the header's × has the same name).
  await dialog.getByRole('button', { name: 'Cerrar' }).last().click();
  // The users list (another module) refreshed when the job ended.
  await expect(
    page.getByText(`Usuario importado ${good}`, { exact: true }).filter({ visible: true }),
  ).toHaveCount(1);
});

test('logs: filtros, N/A sin usuario y «Copy Metadata»', async ({ page, browser }) => {
  test.setTimeout(180_000);
  // A failed sign-in of an unknown user leaves an entry without a user id.
  const stranger = await browser.newContext({ baseURL: E2E_BASE_URL, locale: 'es-MX' });
  const strangerPage = await stranger.newPage();
  await signIn(strangerPage, `nadie-${RUN.toLowerCase()}`, 'NoExiste#2026');
  await expect(strangerPage.getByRole('dialog')).toBeVisible();
  await stranger.close();

  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: E2E_BASE_URL });
  await signInAdmin(page);
  await page.goto('/administrador/logs');
  await expect(page.getByRole('heading', { name: 'Registros del sistema', level: 1 })).toBeVisible();
  const table = page.getByRole('table', { name: 'Registros del sistema' });
  for (const column of ['#', 'ID de usuario', 'Tipo de evento', 'Descripción', 'Metadatos']) {
    await expect(table.getByRole('columnheader', { name: column, exact: true })).toBeVisible();
  }
  await expect(page.getByTestId('log-row')).toHaveCount(15);
  // Newest first.
  const ids = await page.getByTestId('log-row').locator('td:first-child').allTextContents();
  const numbers = ids.map(Number);
  expect([...numbers].sort((a, b) => b - a)).toEqual(numbers);

  // By event type.
  await page.getByRole('combobox', { name: 'Tipo de evento', exact: true }).click();
  await page.getByRole('option', { name: 'login_fallido', exact: true }).click();
  await expect(page).toHaveURL(/tipo=login_fallido/);
  // A name that is no user is logged as a fingerprint (what was typed may be a password), never as typed.
  const fingerprint = createHash('sha256').update(`nadie-${RUN.toLowerCase()}`).digest('hex').slice(0, 12);
  const stranded = page.getByTestId('log-row').filter({ hasText: `huella ${fingerprint}` });
  await expect(stranded.first()).toBeVisible();
  await expect(page.getByTestId('log-row').filter({ hasText: `nadie-${RUN.toLowerCase()}` })).toHaveCount(0);
  await expect(stranded.first().locator('td').nth(1)).toHaveText('N/A');

  // By type and user: the products this run created, by the administrator.
  await page.getByRole('combobox', { name: 'Tipo de evento', exact: true }).fill('producto_creado');
  await page.getByRole('option', { name: 'producto_creado', exact: true }).click();
  const created = page.getByTestId('log-row').filter({ hasText: CLAVE });
  await expect(created).toHaveCount(1);
  const adminId = (await created.locator('td').nth(1).locator('p').first().textContent())!.trim();
  expect(adminId).toMatch(/^\d+$/);
  await page.getByLabel('ID de usuario').fill(adminId);
  await expect(page).toHaveURL(new RegExp(`usuario=${adminId}`));
  for (const cell of await page
    .getByTestId('log-row')
    .locator('td:nth-child(2) p:first-child')
    .allTextContents()) {
    expect(cell.trim()).toBe(adminId);
  }

  // By date range (today, in the business zone): the entry is still there; a range in the past empties it.
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Mexico_City' }).format(new Date());
  const url = new URL(page.url());
  url.searchParams.set('desde', today);
  url.searchParams.set('hasta', today);
  await page.goto(url.toString());
  await expect(created).toHaveCount(1);
  const [y, m, d] = today.split('-');
  await expect(page.getByRole('button', { name: 'Periodo' })).toContainText(`${d}/${m}/${y}`);
  url.searchParams.set('desde', '2020-01-01');
  url.searchParams.set('hasta', '2020-01-31');
  await page.goto(url.toString());
  await expect(page.getByText('Ningún registro coincide con los filtros')).toBeVisible();
  url.searchParams.set('desde', today);
  url.searchParams.set('hasta', today);
  await page.goto(url.toString());

  // Copy Metadata.
  await created.getByRole('button', { name: /Copy Metadata/ }).click();
  await expect(page.getByText('Metadata copiada al portapapeles!')).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  const metadata = JSON.parse(copied) as Record<string, unknown>;
  expect(metadata.clave_interna).toBe(CLAVE);
  expect(metadata.id_cliente).toBe(idCliente);

  await page.getByRole('button', { name: 'Limpiar filtros' }).click();
  await expect(page).not.toHaveURL(/tipo=/);
  await expect(page.getByTestId('log-row')).toHaveCount(15);
  await clearNotifications(page);
  await screenshot(page, 'admin-logs');
});
