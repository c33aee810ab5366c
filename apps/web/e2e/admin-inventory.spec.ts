import type { Page } from '@playwright/test';
import {
  clearNotifications,
  openInventory,
  ownClient,
  runSuffix,
  signInAdmin,
  testFile,
} from './admin-support';
import { checkA11y, expect, screenshot, test } from './fixtures';

/**
 * The administrator's inventory (categories, icons, products) end to end, in a client this run creates
 * through the API; the demo clients' products are left as they are for the other specs.
 */
test.describe.configure({ mode: 'serial', timeout: 120_000 });

const CLIENTE = () => `Oficinas Robles ${runSuffix()}`;

/** This spec's own client (created once per attempt, through the API). */
const ensureClient = (page: Page) =>
  ownClient(page, { nombre: CLIENTE(), presupuesto_default: 5000, limite_de_compras: -1 });
const CATEGORIA = () => `Papelería ${runSuffix()}`;
const PRODUCTO = 'Engrapadora de escritorio';
const PRODUCTO_EDITADO = 'Engrapadora metálica de escritorio';
const CLAVE = () => `PAP-${runSuffix()}-01`;

// ---------------------------------------------------------------------------------------------------------

test('inventario: sin cliente todo está deshabilitado; con cliente aparece «Cargar productos»', async ({
  page,
}) => {
  await signInAdmin(page);
  const idCliente = await ensureClient(page);
  await page.goto('/administrador/inventario');
  await expect(page.getByLabel('Clave interna')).toBeDisabled();
  await expect(page.getByLabel('Nombre')).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Agregar producto' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Cargar productos' })).toHaveCount(0);
  await expect(page.getByText('Selecciona un cliente', { exact: true })).toBeVisible();

  // The client dropdown (searchable).
  await page.getByRole('combobox', { name: 'Cliente', exact: true }).fill(CLIENTE());
  await page.getByRole('option', { name: CLIENTE() }).click();
  await expect(page).toHaveURL(new RegExp(`cliente=${idCliente}`));
  await expect(page.getByLabel('Clave interna')).toBeEnabled();
  await expect(page.getByRole('button', { name: 'Cargar productos' })).toBeVisible();
  await expect(page.getByText('Este cliente aún no tiene productos')).toBeVisible();
});

test('inventario: categoría, producto con imagen, edición y activar/desactivar con confirmación', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signInAdmin(page);
  await openInventory(page, await ensureClient(page));

  // Categorías: the name is required; then a category with an icon of the catalogue.
  await page.getByRole('tab', { name: 'Categorías' }).click();
  await page.getByRole('button', { name: 'Nueva categoria' }).click();
  const dialog = page.getByRole('dialog', { name: 'Nueva categoria' });
  await dialog.getByRole('button', { name: 'Crear categoría' }).click();
  await expect(dialog.getByText('El nombre es obligatorio')).toBeVisible();
  await dialog.getByLabel('Nombre').fill(CATEGORIA());
  await dialog.getByRole('combobox', { name: 'Icono', exact: true }).click();
  await page.getByRole('option', { name: 'Lápiz' }).click();
  await dialog.getByRole('button', { name: 'Crear categoría' }).click();
  await expect(page.getByText('Creado correctamente')).toBeVisible();
  await expect(dialog).toBeHidden();
  const table = page.getByRole('table', { name: 'Categorías del cliente' });
  await expect(table.getByRole('row', { name: new RegExp(CATEGORIA()) })).toBeVisible();
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
  await page.getByLabel('Clave interna').fill(CLAVE());
  await page.getByLabel('Clave cliente').fill('ACME-778');
  await page.getByLabel('Nombre').fill(PRODUCTO);
  await page.getByLabel('Descripción').fill('Engrapadora de escritorio para 20 hojas, incluye 1,000 grapas.');
  await page.getByLabel('Unidad de medida').fill('Pieza');
  await page.getByLabel('Precio (MXN)').fill('189.9');
  await page.getByRole('combobox', { name: 'Categoría', exact: true }).click();
  await page.getByRole('option', { name: CATEGORIA() }).click();
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
  await expect(card.getByText(CLAVE())).toBeVisible();
  await expect(card.getByText(CATEGORIA())).toBeVisible();
  const thumb = card.locator('img');
  await expect(thumb).toBeVisible();
  await expect.poll(() => thumb.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
  // The form went back to add mode, empty.
  await expect(page.getByLabel('Nombre')).toHaveValue('');

  // Edit: the form loads the product, saves it and shows it changed.
  await card.getByRole('button', { name: `Editar ${PRODUCTO}` }).click();
  await expect(page.getByRole('heading', { name: 'Editar producto' })).toBeVisible();
  // The form scrolls into view and then focuses its first field: typing starts after that.
  await expect(page.getByLabel('Clave interna')).toBeFocused();
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
  await expect(page.getByRole('button', { name: `Ver productos de ${CATEGORIA()} (1)` })).toBeVisible();
  await page.getByRole('tab', { name: 'Artículos' }).click();
  await expect(edited).toBeVisible();
});
