import type { Page } from '@playwright/test';
import { expect, screenshot, test } from './fixtures';
import {
  checkPhone,
  choose,
  clearNotifications,
  confirm,
  createAccount,
  createClient,
  createUser,
  expectNotice,
  openAccessWeek,
  runSuffix,
  signInAdminApi,
  toggleSwitch,
} from './helpers';

/**
 * The users list as a list (issue 17, item 6; decision 0067) against the real server: the role and status
 * filters in the URL, the server's sort by last sign-in from the column header, the bulk deactivation with
 * the server's count of open sessions in its confirmation, and "Sin límite" as a switch in the user form.
 * Everything is this attempt's own: a client and four users created through the API, two of whom sign in
 * (so they have a last sign-in and one open session each).
 */
test.describe.configure({ mode: 'serial' });

const cliente = () => `Papelera del Golfo ${runSuffix()}`;
const usuario = (nombre: string) => `${nombre}.${runSuffix()}`;
const PASSWORD = 'Golfo#2026x';

interface World {
  idCliente: number;
}

let world: World | null = null;

async function setUp(page: Page): Promise<World> {
  if (world) return world;
  const idCliente = await createClient(page, {
    nombre: cliente(),
    presupuesto_default: 4000,
    limite_de_compras: -1,
    cantidad_autorizadores: 2,
  });
  await openAccessWeek(page, idCliente);
  const user = (nombre: string, completo: string, rol: 1 | 2) => ({
    id_cliente: idCliente,
    usuario: usuario(nombre),
    correo: `${usuario(nombre)}@papelera-golfo.mx`,
    nombre: completo,
    rol,
  });
  // Ana signs in first, Bruno after her: Bruno's last sign-in is the newest.
  await createAccount(page, user('ana.solis', 'Ana Solís Vera', 1), PASSWORD);
  await createAccount(page, user('bruno.lara', 'Bruno Lara Gil', 1), PASSWORD);
  // Never signed in: Carla (an authorizer) and Diego.
  await createUser(page, user('carla.rios', 'Carla Ríos Paz', 2));
  await createUser(page, user('diego.mena', 'Diego Mena Cruz', 1));
  world = { idCliente };
  return world;
}

const rowOf = (page: Page, nombre: string) => page.getByTestId(`usuario-${usuario(nombre)}`).first();

/** The usernames of the table's rows, top to bottom. */
async function listed(page: Page): Promise<string[]> {
  const ids = await page
    .locator('table tbody tr')
    .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-testid')));
  return ids.map((id) => (id ?? '').replace(/^usuario-/, ''));
}

test('usuarios: filtro por rol y estado en la dirección, orden por último acceso desde la columna', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signInAdminApi(page);
  const w = await setUp(page);
  await page.goto(`/administrador/usuarios?cliente=${w.idCliente}`);
  await expect(rowOf(page, 'carla.rios')).toBeVisible();
  // The default order: by username.
  expect(await listed(page)).toEqual(['ana.solis', 'bruno.lara', 'carla.rios', 'diego.mena'].map(usuario));

  // Only the buyers (rol 1): the filter is in the URL.
  await choose(page, 'Filtrar por rol', 'Usuario');
  await expect(page).toHaveURL(/[?&]rol=1(&|$)/);
  await expect(rowOf(page, 'carla.rios')).toHaveCount(0);
  await expect(page.getByText('Mostrando 1–3 de 3 usuarios')).toBeVisible();

  // Sorted by last sign-in from its header: newest first, "Nunca" last.
  const header = page.getByRole('columnheader', { name: 'Último acceso' });
  await expect(header).toHaveAttribute('aria-sort', 'none');
  await expect(page.getByRole('columnheader', { name: 'Usuario y rol', exact: true })).toHaveAttribute(
    'aria-sort',
    'ascending',
  );
  await header.getByRole('button').click();
  await expect(page).toHaveURL(/orden=ultimo_acceso_desc/);
  await expect(header).toHaveAttribute('aria-sort', 'descending');
  await expect.poll(() => listed(page)).toEqual(['bruno.lara', 'ana.solis', 'diego.mena'].map(usuario));
  await expect(rowOf(page, 'diego.mena')).toContainText('Nunca');
  await expect(rowOf(page, 'ana.solis')).not.toContainText('Nunca');
  await screenshot(page, 'admin-usuarios-filtro-orden');
  // On a phone the rows are cards: the sort is a select with the same values.
  await checkPhone(page, 'usuarios filtrados y ordenados');

  // The other way: "Nunca" first; a reload keeps the filter and the sort.
  await header.getByRole('button').click();
  await expect(header).toHaveAttribute('aria-sort', 'ascending');
  await expect.poll(() => listed(page)).toEqual(['diego.mena', 'ana.solis', 'bruno.lara'].map(usuario));
  await page.reload();
  await expect(page.getByRole('columnheader', { name: 'Último acceso' })).toHaveAttribute(
    'aria-sort',
    'ascending',
  );
  await expect(page.getByRole('combobox', { name: 'Filtrar por rol', exact: true })).toHaveValue('Usuario');
  await expect.poll(() => listed(page)).toEqual(['diego.mena', 'ana.solis', 'bruno.lara'].map(usuario));
});

test('usuarios: desactivar en lote con la confirmación que dice cuántas sesiones se cierran', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signInAdminApi(page);
  const w = await setUp(page);
  await page.goto(`/administrador/usuarios?cliente=${w.idCliente}`);
  const deactivate = page.getByRole('button', { name: /^Desactivar( \(\d+\))?$/ });
  await expect(deactivate).toBeDisabled();
  await page.getByRole('checkbox', { name: `Seleccionar a ${usuario('ana.solis')}` }).check();
  await page.getByRole('checkbox', { name: `Seleccionar a ${usuario('bruno.lara')}` }).check();
  await expect(page.getByText('2 usuarios seleccionados')).toBeVisible();
  await expect(deactivate).toHaveText('Desactivar (2)');
  await deactivate.click();

  const dialog = page.getByRole('dialog', { name: '¿Estás seguro?' });
  await expect(dialog).toContainText('Se desactivarán 2 usuarios y se cerrarán 2 sesiones abiertas.');
  await expect(dialog.getByRole('button', { name: 'Desactivar 2 usuarios' })).toBeVisible();
  await screenshot(page, 'admin-usuarios-desactivar-lote');
  await confirm(page, 'Desactivar 2 usuarios');
  await expectNotice(page, '2 usuarios desactivados; se cerraron 2 sesiones.');
  await expect(deactivate).toHaveText('Desactivar');
  await clearNotifications(page);

  // Only the inactive ones: Ana and Bruno.
  await choose(page, 'Filtrar por estado', 'Solo inactivos');
  await expect(page).toHaveURL(/estatus=inactivo/);
  await expect.poll(() => listed(page)).toEqual(['ana.solis', 'bruno.lara'].map(usuario));
  await expect(rowOf(page, 'ana.solis')).toContainText('Inactivo');
});

test('usuarios: «Sin límite» es un interruptor en el formulario, no un -1 escrito', async ({ page }) => {
  test.setTimeout(120_000);
  await signInAdminApi(page);
  const w = await setUp(page);
  await page.goto(`/administrador/usuarios?cliente=${w.idCliente}`);
  await page.getByRole('button', { name: `Editar ${usuario('diego.mena')}` }).click();
  const drawer = page.getByRole('dialog', { name: /Editar usuario/ });
  const unlimited = drawer.getByRole('switch', { name: 'Sin límite' });
  const limit = drawer.getByLabel('Límite de compras');
  // The client's default was "no limit" (-1 on the wire): the switch is on, the number disabled.
  await expect(unlimited).toBeChecked();
  await expect(limit).toBeDisabled();
  await toggleSwitch(unlimited);
  await expect(limit).toBeEnabled();
  await limit.fill('5');
  await drawer.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(drawer).toBeHidden();
  await expect(rowOf(page, 'diego.mena')).toContainText('Límite: 5 al mes');

  await page.getByRole('button', { name: `Editar ${usuario('diego.mena')}` }).click();
  await expect(limit).toHaveValue('5');
  await expect(unlimited).not.toBeChecked();
  await toggleSwitch(unlimited);
  await expect(limit).toBeDisabled();
  await limit.scrollIntoViewIfNeeded();
  await screenshot(page, 'admin-usuario-sin-limite');
  await drawer.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(drawer).toBeHidden();
  await expect(rowOf(page, 'diego.mena')).toContainText('Sin límite de compras');
});
