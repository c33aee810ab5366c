import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect, screenshot, test } from './fixtures';
import {
  clearNotifications,
  createCategory,
  createProduct,
  openInventory,
  ownClient,
  runSuffix,
  signInAdmin,
  signInAdminApi,
  testFile,
} from './helpers';

/**
 * The administrator's CSV imports (products, then users) end to end, in a client this run creates through
 * the API with one category and one product already in it.
 */
test.describe.configure({ mode: 'serial', timeout: 120_000 });

const CLIENTE = () => `Papelería Robles ${runSuffix()}`;

/** This spec's own client (created once per attempt, through the API). */
const ensureClient = (page: Page) =>
  ownClient(page, { nombre: CLIENTE(), presupuesto_default: 5000, limite_de_compras: -1 });
const CATEGORIA = () => `Papelería ${runSuffix()}`;

/** The spec's client with its category and a product with an image (the inventory before the import). */
async function openStockedInventory(page: Page): Promise<void> {
  await signInAdmin(page);
  const idCliente = await ensureClient(page);
  const idCategoria = await createCategory(page, idCliente, CATEGORIA(), 'IconPencil');
  await createProduct(page, {
    id_cliente: idCliente,
    id_categoria: idCategoria,
    clave_interna: `PAP-${runSuffix()}-01`,
    clave_cliente: 'ACME-778',
    nombre: 'Engrapadora metálica de escritorio',
    descripcion: 'Engrapadora de escritorio para 20 hojas, incluye 1,000 grapas.',
    unidad_de_medida: 'Pieza',
    precio: 205.5,
    impuesto: false,
    imagen: 'gradient-120.png',
  });
  await openInventory(page, idCliente);
}

// ---------------------------------------------------------------------------------------------------------

test('importación de productos: plantilla, archivo no CSV, CSV con un renglón erróneo y su resultado', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await openStockedInventory(page);
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
  // Spanish column names (the specification's own are accepted too: the file below uses them).
  expect(templateText.toString('utf8').slice(1).split(/\r?\n/)[0]).toBe(
    'Clave interna,Clave cliente,Nombre,Descripción,Unidad de medida,Precio,Impuesto,Activo,Categoría',
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
  // The price preview reads it first, as the upload would: refused, so there is nothing to import.
  const refusal = dialog.getByRole('alert').filter({ hasText: 'No se pudo preparar la vista previa' });
  await expect(refusal).toBeVisible();
  await expect(refusal).toContainText('El archivo no es un CSV');
  await expect(dialog.getByRole('button', { name: 'Importar' })).toBeDisabled();

  // A CSV with three good rows and one bad one (price).
  await dialog.getByRole('button', { name: 'Quitar el archivo foto.csv' }).click();
  const csv = [
    'clave_interna,clave_cliente,nombre,descripcion,unidad_de_medida,precio,impuesto,activo,categoria',
    `IMP-${runSuffix()}-1,C-1,Folder tamaño carta importado,Paquete de 25,Paquete,89.50,1,1,${CATEGORIA()}`,
    `IMP-${runSuffix()}-2,C-2,Marcador permanente importado,Negro,Pieza,18.00,1,1,Oficina ${runSuffix()}`,
    `IMP-${runSuffix()}-3,C-3,Sobre manila importado,Tamaño oficio,Pieza,4.25,0,1,Oficina ${runSuffix()}`,
    `IMP-${runSuffix()}-4,C-4,Cinta adhesiva importada,Transparente,Pieza,doce,1,1,${CATEGORIA()}`,
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
  const rows = page.getByTestId('producto-admin');
  await expect(rows.filter({ hasText: 'Folder tamaño carta importado' })).toBeVisible();
  await expect(rows.filter({ hasText: 'Sobre manila importado' })).toBeVisible();
  await expect(rows.filter({ hasText: 'Cinta adhesiva importada' })).toHaveCount(0);

  // Search (server-side).
  await page.getByRole('searchbox', { name: 'Buscar productos' }).fill('manila');
  await expect(page.getByText('1 producto', { exact: true })).toBeVisible();
  await expect(page.getByTestId('producto-admin')).toHaveCount(1);
  await page.getByRole('button', { name: 'Limpiar búsqueda' }).first().click();
  await expect(page.getByTestId('producto-admin')).toHaveCount(4);
  await clearNotifications(page);
  await screenshot(page, 'admin-inventario');

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId('producto-admin').first()).toBeVisible();
  await screenshot(page, 'admin-inventario-390');
});

test('usuarios: «Importación por archivo» con plantilla, un renglón erróneo y la lista actualizada', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signInAdminApi(page);
  const idCliente = await ensureClient(page);
  await page.goto(`/administrador/usuarios?cliente=${idCliente}`);
  await page.getByRole('button', { name: 'Importación por archivo' }).click();
  const dialog = page.getByRole('dialog', { name: /Importación por archivo/ });
  await expect(dialog.getByRole('button', { name: 'Importar' })).toBeDisabled();
  const download = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Descargar plantilla' }).click();
  const template = await download;
  expect(template.suggestedFilename()).toBe('plantilla_carga_de_usuarios.csv');
  // Header, the legend of rol (left in the file: the import skips it) and the example.
  const [header, legend, example] = (await readFile((await template.path())!, 'utf8'))
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/);
  expect(legend).toContain('1 = Usuario (comprador), 2 = Autorizador');
  const columns = header!.split(',');
  const cells = example!.split(',');
  expect(cells).toHaveLength(columns.length);
  const row = (usuario: string, rol: string) =>
    columns
      .map((c, i) => {
        if (c === 'Usuario') return usuario;
        if (c === 'Correo') return `${usuario}@empresa-e2e.mx`;
        if (c === 'Nombre') return `Usuario importado ${usuario}`;
        if (c === 'Rol') return rol;
        return cells[i];
      })
      .join(',');
  const good = `imp-${runSuffix()}`;
  const csv = [header, legend, row(good, '1'), row(`${good}-b`, '9')].join('\r\n');
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

test('una importación limpia quita el aviso de la anterior con errores; la lista dice su estado y sus conteos', async ({
  page,
}) => {
  await signInAdmin(page);
  const idCliente = await ensureClient(page);
  await openInventory(page, idCliente);
  await page.getByRole('button', { name: 'Cargar productos' }).click();
  const dialog = page.getByRole('dialog', { name: /Cargar productos/ });
  const fileInput = dialog.getByLabel('Archivo CSV', { exact: true });
  // The template's Spanish column names.
  const header =
    'Clave interna,Clave cliente,Nombre,Descripción,Unidad de medida,Precio,Impuesto,Activo,Categoría';
  const file = (precio: string) =>
    Buffer.from(
      [
        header,
        `REP-${runSuffix()}-1,R-1,Carpeta reimportada,Azul,Pieza,12.00,1,1,Reimportación ${runSuffix()}`,
        `REP-${runSuffix()}-2,R-2,Broche reimportado,Caja,Caja,${precio},1,1,Reimportación ${runSuffix()}`,
      ].join('\r\n'),
    );
  const history = dialog.getByRole('table', { name: 'Importaciones del cliente' });
  const newest = history.getByRole('row').nth(1);

  // First a file with a bad price: its notice stays until something replaces it.
  await fileInput.setInputFiles({ name: 'reintento.csv', mimeType: 'text/csv', buffer: file('nueve') });
  await dialog.getByRole('button', { name: 'Importar' }).click();
  const result = dialog.getByTestId('resultado-importacion');
  await expect(result.getByText('Terminada con errores')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('Importación terminada con errores')).toBeVisible();
  await expect(newest).toContainText('Terminada con errores');
  await expect(newest).toContainText('1 de 2 correctos');

  // The corrected file: its own success, and the earlier failure's notice is gone.
  await fileInput.setInputFiles({ name: 'reintento.csv', mimeType: 'text/csv', buffer: file('35.00') });
  await dialog.getByRole('button', { name: 'Importar' }).click();
  await expect(result.getByText('Terminada', { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('Importación terminada', { exact: true })).toBeVisible();
  await expect(page.getByText('Importación terminada con errores')).toHaveCount(0);
  // "Importaciones recientes" shows the new import as it ended, without a reload.
  await expect(newest).toContainText('Terminada');
  await expect(newest).not.toContainText('con errores');
  await expect(newest).toContainText('2 de 2 correctos');
  await screenshot(page, 'admin-importacion-reintento');
});
