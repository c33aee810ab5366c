import type { Page } from '@playwright/test';
import { MSG } from '@portal/shared/messages';
import { checkA11y, expect, screenshot, test } from './fixtures';
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
  toggleSwitch,
} from './helpers';

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

test('inventario: sin cliente no hay formulario; con cliente aparecen «Nuevo producto» y «Cargar productos»', async ({
  page,
}) => {
  await signInAdminApi(page);
  const idCliente = await ensureClient(page);
  await page.goto('/administrador/inventario');
  await expect(page.getByRole('button', { name: 'Nuevo producto' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Cargar productos' })).toHaveCount(0);
  await expect(page.getByLabel('Clave interna')).toHaveCount(0);
  await expect(page.getByText('Selecciona un cliente', { exact: true })).toBeVisible();

  // The client dropdown (searchable).
  await page.getByRole('combobox', { name: 'Cliente', exact: true }).fill(CLIENTE());
  await page.getByRole('option', { name: CLIENTE() }).click();
  await expect(page).toHaveURL(new RegExp(`cliente=${idCliente}`));
  await expect(page.getByRole('button', { name: 'Nuevo producto' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Cargar productos' })).toBeVisible();
  await expect(page.getByText('Este cliente aún no tiene productos')).toBeVisible();
});

test('inventario: categoría, producto con imagen en el panel «Nuevo producto», edición y el interruptor Activo en la fila', async ({
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

  // 'Nuevo producto' opens the form in a drawer. A product with an image: a GIF is refused on the spot; a
  // PNG shows its preview.
  await page.getByRole('tab', { name: 'Artículos' }).click();
  await page.getByRole('button', { name: 'Nuevo producto' }).click();
  const drawer = page.getByRole('dialog', { name: 'Nuevo producto' });
  await expect(drawer).toBeVisible();
  await drawer.getByLabel('Clave interna').fill(CLAVE());
  await drawer.getByLabel('Clave cliente').fill('ACME-778');
  await drawer.getByLabel('Nombre').fill(PRODUCTO);
  await drawer
    .getByLabel('Descripción')
    .fill('Engrapadora de escritorio para 20 hojas, incluye 1,000 grapas.');
  await drawer.getByLabel('Unidad de medida').fill('Pieza');
  await drawer.getByLabel('Precio (MXN)').fill('189.9');
  await drawer.getByRole('combobox', { name: 'Categoría', exact: true }).click();
  await page.getByRole('option', { name: CATEGORIA() }).click();
  await drawer.getByLabel('Imagen del producto').setInputFiles({
    name: 'engrapadora.gif',
    mimeType: 'image/gif',
    buffer: testFile('one-pixel.gif'),
  });
  await expect(drawer.getByText('Only JPG and PNG files are allowed.')).toBeVisible();
  await drawer.getByLabel('Imagen del producto').setInputFiles({
    name: 'engrapadora.png',
    mimeType: 'image/png',
    buffer: testFile('gradient-120.png'),
  });
  await expect(drawer.getByText('Only JPG and PNG files are allowed.')).toBeHidden();
  await expect(drawer.getByRole('img', { name: 'Vista previa de la imagen del producto' })).toBeVisible();
  await expect(drawer.getByRole('button', { name: 'Cambiar' })).toBeVisible();
  await expect(drawer.getByRole('button', { name: 'Eliminar' })).toBeVisible();
  await expect(drawer.getByRole('switch', { name: 'Aplica IVA' })).toBeChecked();
  await checkA11y(page, 'admin-producto-form');
  await screenshot(page, 'admin-producto-form');
  await drawer.getByRole('button', { name: 'Agregar producto' }).click();
  await expect(page.getByText('Creado correctamente')).toBeVisible();
  await expect(drawer).toBeHidden();

  const row = page.getByTestId('producto-admin').filter({ hasText: PRODUCTO });
  await expect(row).toBeVisible();
  await expect(row.getByRole('switch', { name: `Activo: ${PRODUCTO}` })).toBeChecked();
  await expect(row.getByRole('textbox', { name: `Precio de ${PRODUCTO}` })).toHaveValue('$189.90');
  await expect(row.getByText(CLAVE())).toBeVisible();
  await expect(row.getByText(CATEGORIA())).toBeVisible();
  const thumb = row.locator('img');
  await expect(thumb).toBeVisible();
  await expect.poll(() => thumb.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);

  // Edit: 'Editar' opens the drawer with the product, saves it and shows it changed.
  await row.getByRole('button', { name: `Editar ${PRODUCTO}` }).click();
  const editDrawer = page.getByRole('dialog', { name: `Editar producto · ${CLAVE()}` });
  await expect(editDrawer).toBeVisible();
  await expect(editDrawer.getByLabel('Nombre')).toHaveValue(PRODUCTO);
  await expect(editDrawer.getByRole('img', { name: 'Vista previa de la imagen del producto' })).toBeVisible();
  await editDrawer.getByLabel('Nombre').fill(PRODUCTO_EDITADO);
  await editDrawer.getByLabel('Precio (MXN)').fill('205.5');
  await editDrawer.getByRole('switch', { name: 'Aplica IVA' }).dispatchEvent('click');
  await expect(editDrawer.getByRole('switch', { name: 'Aplica IVA' })).not.toBeChecked();
  await editDrawer.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(page.getByText('Modificado correctamente')).toBeVisible();
  await expect(editDrawer).toBeHidden();
  const edited = page.getByTestId('producto-admin').filter({ hasText: PRODUCTO_EDITADO });
  await expect(edited.getByRole('textbox', { name: `Precio de ${PRODUCTO_EDITADO}` })).toHaveValue('$205.50');
  await expect(edited.getByText('Exento de IVA')).toBeVisible();

  // 'Cancelar' closes the drawer without saving.
  await edited.getByRole('button', { name: `Editar ${PRODUCTO_EDITADO}` }).click();
  await expect(page.getByRole('dialog', { name: /Editar producto/ }).getByLabel('Nombre')).toHaveValue(
    PRODUCTO_EDITADO,
  );
  await page
    .getByRole('dialog', { name: /Editar producto/ })
    .getByRole('button', { name: 'Cancelar' })
    .click();
  await expect(page.getByRole('dialog', { name: /Editar producto/ })).toBeHidden();

  // The activo switch in the row: off, then on again.
  const active = edited.getByRole('switch', { name: `Activo: ${PRODUCTO_EDITADO}` });
  await toggleSwitch(active);
  await expect(page.getByText(`«${PRODUCTO_EDITADO}» quedó inactivo.`)).toBeVisible();
  await expect(active).not.toBeChecked();
  await toggleSwitch(active);
  await expect(page.getByText(`«${PRODUCTO_EDITADO}» quedó activo.`)).toBeVisible();
  await expect(active).toBeChecked();

  // The category counts its product.
  await page.getByRole('tab', { name: 'Categorías' }).click();
  await expect(page.getByRole('button', { name: `Ver productos de ${CATEGORIA()} (1)` })).toBeVisible();
  await page.getByRole('tab', { name: 'Artículos' }).click();
  await expect(edited).toBeVisible();
});

test('inventario como lista: ordenar en el servidor, precio en la fila con su rechazo, activar y desactivar en lote', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signInAdmin(page);
  // A client of its own with four products whose columns sort differently.
  const idCliente = await ownClient(page, {
    nombre: `Ferretería Lista ${runSuffix()}`,
    presupuesto_default: 5000,
    limite_de_compras: -1,
  });
  const herramientas = await createCategory(page, idCliente, `Herramientas ${runSuffix()}`, 'IconTool');
  const limpieza = await createCategory(page, idCliente, `Aseo ${runSuffix()}`, 'IconSpray');
  const items = [
    ['Martillo de uña', 'H-300', 245, herramientas],
    ['Cubeta 10 L', 'A-100', 89.5, limpieza],
    ['Desarmador plano', 'H-200', 65, herramientas],
    ['Franela gris', 'A-400', 32, limpieza],
  ] as const;
  for (const [nombre, clave, precio, categoria] of items) {
    await createProduct(page, {
      id_cliente: idCliente,
      id_categoria: categoria,
      clave_interna: `${clave}-${runSuffix()}`,
      nombre,
      precio,
    });
  }
  await openInventory(page, idCliente);
  const table = page.getByRole('table', { name: 'Productos del cliente' });
  const names = () =>
    table.getByTestId('producto-admin').locator('td:nth-child(2) p:first-child').allTextContents();
  await expect.poll(names).toEqual(['Cubeta 10 L', 'Desarmador plano', 'Franela gris', 'Martillo de uña']);
  const header = (name: string) => table.getByRole('columnheader', { name, exact: true });
  await expect(header('Nombre')).toHaveAttribute('aria-sort', 'ascending');

  // Price: the first click sorts from the highest; the URL keeps it and the page goes back to 1.
  await header('Precio').getByRole('button').click();
  await expect(page).toHaveURL(/orden=precio_desc/);
  await expect(header('Precio')).toHaveAttribute('aria-sort', 'descending');
  await expect(header('Nombre')).toHaveAttribute('aria-sort', 'none');
  await expect.poll(names).toEqual(['Martillo de uña', 'Cubeta 10 L', 'Desarmador plano', 'Franela gris']);
  await header('Precio').getByRole('button').click();
  await expect(page).toHaveURL(/orden=precio_asc/);
  await expect.poll(names).toEqual(['Franela gris', 'Desarmador plano', 'Cubeta 10 L', 'Martillo de uña']);
  await header('Clave interna').getByRole('button').click();
  await expect.poll(names).toEqual(['Cubeta 10 L', 'Franela gris', 'Desarmador plano', 'Martillo de uña']);
  await header('Categoría').getByRole('button').click();
  await expect(page).toHaveURL(/orden=categoria_asc/);
  await expect.poll(names).toEqual(['Cubeta 10 L', 'Franela gris', 'Desarmador plano', 'Martillo de uña']);
  await header('Nombre').getByRole('button').click();
  await expect(page).not.toHaveURL(/orden=/);

  // The price edited in the row: a negative one is refused under the field, nothing is sent; Enter saves.
  const price = table.getByRole('textbox', { name: 'Precio de Franela gris' });
  await price.fill('-5');
  await price.press('Enter');
  await expect(table.getByText(MSG.invPrecioInvalido)).toBeVisible();
  await screenshot(page, 'admin-inventario-precio-rechazado');
  await price.press('Escape');
  await expect(table.getByText(MSG.invPrecioInvalido)).toBeHidden();
  await price.fill('35.75');
  await price.press('Enter');
  await expect(page.getByText('Precio de «Franela gris»: $35.75 MXN')).toBeVisible();
  await page.reload();
  await expect(table.getByRole('textbox', { name: 'Precio de Franela gris' })).toHaveValue('$35.75');

  // Bulk: three selected, 'Desactivar' asks saying how many, then they show inactive.
  for (const nombre of ['Cubeta 10 L', 'Desarmador plano', 'Martillo de uña']) {
    await table.getByRole('checkbox', { name: `Seleccionar ${nombre}` }).check();
  }
  const bar = page.getByRole('region', { name: 'Productos seleccionados' });
  await expect(bar).toContainText('3 productos seleccionados');
  await bar.getByRole('button', { name: 'Desactivar' }).click();
  const ask = page.getByRole('dialog', { name: '¿Desactivar 3 productos?' });
  await expect(ask).toContainText('Los 3 productos seleccionados quedarán inactivos');
  await checkA11y(page, 'admin-inventario-lote');
  await screenshot(page, 'admin-inventario-lote');
  await ask.getByRole('button', { name: 'Desactivar 3 productos' }).click();
  await expect(page.getByText('3 productos quedaron inactivos.')).toBeVisible();
  await expect(bar).toBeHidden();
  for (const nombre of ['Cubeta 10 L', 'Desarmador plano', 'Martillo de uña']) {
    await expect(table.getByRole('switch', { name: `Activo: ${nombre}` })).not.toBeChecked();
  }
  await expect(table.getByRole('switch', { name: 'Activo: Franela gris' })).toBeChecked();

  // The state filter and the search live in the URL: a reload keeps them; a hand-edited link with values
  // the list does not take shows everything from the first page instead of failing.
  const estado = page.getByRole('radiogroup', { name: 'Filtrar por estado' });
  await estado.getByText('Inactivos', { exact: true }).click();
  await expect(page).toHaveURL(/estado=inactivos/);
  await expect.poll(names).toEqual(['Cubeta 10 L', 'Desarmador plano', 'Martillo de uña']);
  await page.getByRole('searchbox', { name: 'Buscar productos' }).fill('Desarmador');
  await expect(page).toHaveURL(/q=Desarmador/);
  await expect.poll(names).toEqual(['Desarmador plano']);
  await page.reload();
  await expect(estado.getByRole('radio', { name: 'Inactivos' })).toBeChecked();
  await expect(page.getByRole('searchbox', { name: 'Buscar productos' })).toHaveValue('Desarmador');
  await expect.poll(names).toEqual(['Desarmador plano']);
  await page.goto(
    `/administrador/inventario?cliente=${idCliente}&estado=nada&page=x&categoria=-3&orden=al_reves`,
  );
  await expect(estado.getByRole('radio', { name: 'Todos' })).toBeChecked();
  await expect.poll(names).toEqual(['Cubeta 10 L', 'Desarmador plano', 'Franela gris', 'Martillo de uña']);

  // Sorted by Activo (active first), then the page's checkbox selects all four and activates them.
  await header('Activo').getByRole('button').click();
  await expect.poll(names).toEqual(['Franela gris', 'Cubeta 10 L', 'Desarmador plano', 'Martillo de uña']);
  await clearNotifications(page);
  await checkA11y(page, 'admin-inventario-lista');
  await screenshot(page, 'admin-inventario-lista');
  await table.getByRole('checkbox', { name: 'Seleccionar los productos de esta página' }).check();
  await expect(bar).toContainText('4 productos seleccionados');
  await bar.getByRole('button', { name: 'Activar', exact: true }).click();
  await page
    .getByRole('dialog', { name: '¿Activar 4 productos?' })
    .getByRole('button', { name: 'Activar 4 productos' })
    .click();
  await expect(page.getByText('4 productos quedaron activos.')).toBeVisible();
  for (const [nombre] of items) {
    await expect(table.getByRole('switch', { name: `Activo: ${nombre}` })).toBeChecked();
  }
});
