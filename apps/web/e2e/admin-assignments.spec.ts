import { expect, screenshot, test } from './fixtures';
import {
  assignProduct,
  choose,
  clearNotifications,
  confirm,
  createCategory,
  createClient,
  createProduct,
  createUser,
  expectNotice,
  runSuffix,
  signInAdminApi,
  toggleSwitch,
} from './helpers';

/**
 * Product assignment in bulk (decision 0061) against the real server: copy another buyer's products,
 * enable a whole category on a user's products page, and assign a category to users checked on the users
 * list. Everything is this attempt's own: a client with two categories, four products and three buyers,
 * created through the API.
 */
test.describe.configure({ mode: 'serial' });

const cliente = () => `Abarrotes del Bajío ${runSuffix()}`;
const usuario = (nombre: string) => `${nombre}.${runSuffix()}`;

interface World {
  idCliente: number;
  products: Record<'lapiz' | 'cuaderno' | 'jabon' | 'cloro', number>;
  ana: number;
  bruno: number;
  carla: number;
}

let world: World | null = null;

async function setUp(page: import('@playwright/test').Page): Promise<World> {
  if (world) return world;
  const idCliente = await createClient(page, {
    nombre: cliente(),
    presupuesto_default: 5000,
    limite_de_compras: -1,
  });
  const papeleria = await createCategory(page, idCliente, 'Papelería', 'IconPencil');
  const limpieza = await createCategory(page, idCliente, 'Limpieza', 'IconSpray');
  const product = (clave: string, nombre: string, idCategoria: number, precio: number) =>
    createProduct(page, {
      id_cliente: idCliente,
      id_categoria: idCategoria,
      clave_interna: `${clave}-${runSuffix()}`,
      nombre,
      precio,
    });
  const products = {
    lapiz: await product('PAP-01', 'Lápiz amarillo', papeleria, 4.5),
    cuaderno: await product('PAP-02', 'Cuaderno profesional', papeleria, 38),
    jabon: await product('LIM-01', 'Jabón líquido', limpieza, 52.9),
    cloro: await product('LIM-02', 'Cloro 1 L', limpieza, 21),
  };
  const buyer = (nombre: string, completo: string) =>
    createUser(page, {
      id_cliente: idCliente,
      usuario: usuario(nombre),
      correo: `${usuario(nombre)}@abarrotes-bajio.mx`,
      nombre: completo,
      rol: 1,
      presupuesto_default: 3000,
    });
  const ana = await buyer('ana.ruiz', 'Ana Ruiz Téllez');
  const bruno = await buyer('bruno.perez', 'Bruno Pérez Lara');
  const carla = await buyer('carla.mora', 'Carla Mora Díaz');
  // Ana, the model: the pencil (5 a order) and the soap (2); Bruno has the bleach, which Ana has not.
  await assignProduct(page, ana, products.lapiz, 5);
  await assignProduct(page, ana, products.jabon, 2);
  await assignProduct(page, bruno, products.cloro, 3);
  world = { idCliente, products, ana, bruno, carla };
  return world;
}

/** product id → [habilitado, cantidad límite] as the administrator's API lists them. */
async function assignments(page: import('@playwright/test').Page, idUser: number) {
  const res = await page.request.get(`/api/usuarios/${idUser}/productos?per_page=100`);
  const body = (await res.json()) as {
    productos: { id: number; asignado: boolean; cantidad_limite: number }[];
  };
  return Object.fromEntries(body.productos.map((p) => [p.id, [p.asignado, p.cantidad_limite]]));
}

test('copiar asignaciones de otro usuario: reemplazar deja los productos iguales', async ({ page }) => {
  test.setTimeout(120_000);
  await signInAdminApi(page);
  const w = await setUp(page);
  await page.goto(`/administrador/usuarios/usuario/${w.bruno}/productos?cliente=${w.idCliente}`);
  await expect(page.getByTestId('tarjeta-usuario')).toHaveText(usuario('bruno.perez'));
  await expect(page.getByRole('switch', { name: 'Habilitar Cloro 1 L' })).toBeChecked();

  await page.getByRole('button', { name: 'Copiar de otro usuario…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Copiar productos de otro usuario' });
  await expect(dialog).toBeVisible();
  // Only the client's other buyers are offered: Bruno himself is not.
  await choose(page, 'Copiar los productos de', new RegExp(`^${usuario('ana.ruiz')}`), 'ana.ruiz');
  await expect(dialog.getByTestId('copia-consecuencia')).toContainText('No se deshabilita nada');
  await dialog.getByRole('radio', { name: /Reemplazar/ }).check();
  await expect(dialog.getByTestId('copia-consecuencia')).toContainText(
    `Los productos de ${usuario('bruno.perez')} quedarán exactamente como los de ${usuario('ana.ruiz')}`,
  );
  await screenshot(page, 'admin-usuarios-asignaciones-copiar');
  await dialog.getByRole('button', { name: 'Reemplazar productos' }).click();
  await expect(dialog).toBeHidden();
  await expectNotice(
    page,
    `${usuario('bruno.perez')} tiene ahora los mismos productos que ${usuario('ana.ruiz')}`,
  );

  await expect(page.getByRole('switch', { name: 'Habilitar Lápiz amarillo' })).toBeChecked();
  await expect(page.getByRole('switch', { name: 'Habilitar Jabón líquido' })).toBeChecked();
  await expect(page.getByRole('switch', { name: 'Habilitar Cloro 1 L' })).not.toBeChecked();
  await expect(page.getByRole('textbox', { name: 'Cantidad límite de Lápiz amarillo' })).toHaveValue('5');
  await expect(page.getByTestId('productos-habilitados')).toHaveText('2');
  expect(await assignments(page, w.bruno)).toEqual(await assignments(page, w.ana));
});

test('habilitar una categoría desde los productos del usuario', async ({ page }) => {
  test.setTimeout(90_000);
  await signInAdminApi(page);
  const w = await setUp(page);
  await page.goto(`/administrador/usuarios/usuario/${w.carla}/productos?cliente=${w.idCliente}`);
  await expect(page.getByTestId('productos-habilitados')).toHaveText('0');
  await choose(page, 'Categoría', 'Limpieza');
  await expect(page).toHaveURL(/categoria=\d+/);
  // Only the category's products are listed.
  await expect(page.getByRole('switch', { name: /^Habilitar / })).toHaveCount(2);
  await expect(page.getByRole('switch', { name: 'Habilitar Lápiz amarillo' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Habilitar categoría' }).click();
  const ask = page.getByRole('dialog', { name: '¿Estás seguro?' });
  await expect(ask).toContainText(
    `Se habilitarán los 2 producto(s) de Limpieza para ${usuario('carla.mora')}`,
  );
  await screenshot(page, 'admin-usuarios-asignaciones-categoria');
  await confirm(page, 'Habilitar categoría');
  await expectNotice(page, '2 producto(s) habilitado(s) para 1 usuario(s).');
  await expect(page.getByRole('switch', { name: 'Habilitar Jabón líquido' })).toBeChecked();
  await expect(page.getByRole('switch', { name: 'Habilitar Cloro 1 L' })).toBeChecked();
  await expect(page.getByTestId('productos-habilitados')).toHaveText('2');
});

test('asignar productos a varios usuarios desde la lista de usuarios', async ({ page }) => {
  test.setTimeout(90_000);
  await signInAdminApi(page);
  const w = await setUp(page);
  await page.goto(`/administrador/usuarios?cliente=${w.idCliente}`);
  const assign = page.getByRole('button', { name: /^Asignar productos…/ });
  // The first screen of the admin area loads its chunks: slower on a busy machine.
  await expect(assign).toBeDisabled({ timeout: 30_000 });
  await page.getByRole('checkbox', { name: `Seleccionar a ${usuario('bruno.perez')}` }).check();
  await page.getByRole('checkbox', { name: `Seleccionar a ${usuario('carla.mora')}` }).check();
  await expect(assign).toHaveText('Asignar productos… (2)');
  await assign.click();

  const dialog = page.getByRole('dialog', { name: 'Asignar productos' });
  await expect(dialog).toContainText(`${usuario('bruno.perez')}, ${usuario('carla.mora')}`);
  await choose(page, 'Categorías', /^Papelería/);
  await page.keyboard.press('Escape');
  const keep = dialog.getByRole('switch', { name: 'Conservar la cantidad límite de cada producto' });
  await toggleSwitch(keep);
  await expect(keep).not.toBeChecked();
  await dialog.getByRole('textbox', { name: 'Cantidad límite' }).fill('3');
  const go = dialog.getByRole('button', { name: 'Habilitar los 2 producto(s) de Papelería para 2 usuarios' });
  await expect(go).toBeEnabled();
  await screenshot(page, 'admin-usuarios-asignaciones-lote');
  await go.click();
  await expect(dialog).toBeHidden();
  await expectNotice(page, '2 producto(s) habilitado(s) para 2 usuario(s).');
  // The selection stays after the action: the next assignment needs no re-selecting.
  await expect(assign).toHaveText('Asignar productos… (2)');
  await expect(page.getByText('2 usuarios seleccionados')).toBeVisible();

  for (const id of [w.bruno, w.carla]) {
    const a = await assignments(page, id);
    expect(a[w.products.lapiz]).toEqual([true, 3]);
    expect(a[w.products.cuaderno]).toEqual([true, 3]);
  }
  // Ana was not checked: untouched.
  expect((await assignments(page, w.ana))[w.products.cuaderno]).toEqual([false, 1]);
  await clearNotifications(page);

  // Again, every category at once; the dialog remembers that the limit was not kept last time.
  await assign.click();
  await expect(dialog).toBeVisible();
  await expect(keep).not.toBeChecked();
  await expect(dialog.getByRole('textbox', { name: 'Cantidad límite' })).toHaveValue('1');
  await dialog.getByRole('checkbox', { name: 'Todas las categorías' }).check();
  await dialog.getByRole('textbox', { name: 'Cantidad límite' }).fill('2');
  const all = dialog.getByRole('button', {
    name: 'Habilitar los 4 producto(s) de todas las categorías para 2 usuarios',
  });
  await screenshot(page, 'admin-usuarios-asignaciones-todas');
  await all.click();
  await expect(dialog).toBeHidden();
  await expectNotice(page, '4 producto(s) habilitado(s) para 2 usuario(s).');
  for (const id of [w.bruno, w.carla]) {
    const a = await assignments(page, id);
    expect([a[w.products.lapiz], a[w.products.jabon], a[w.products.cloro]]).toEqual([
      [true, 2],
      [true, 2],
      [true, 2],
    ]);
  }
  await page.getByRole('button', { name: 'Quitar selección' }).click();
  await expect(assign).toHaveText('Asignar productos…');
  await clearNotifications(page);

  // The users' import dialog offers the assignment kind with its template.
  await page.getByRole('button', { name: 'Importación por archivo' }).click();
  const importDialog = page.getByRole('dialog', { name: /Importación por archivo/ });
  await importDialog.getByText('Asignaciones', { exact: true }).click();
  await expect(importDialog.getByText('plantilla_asignaciones.csv')).toBeVisible();
  await expect(importDialog).toContainText('una fila por usuario y clave interna');
});
