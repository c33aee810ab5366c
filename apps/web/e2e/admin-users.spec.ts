import { MSG } from '../../server/src/messages';
import { expect, screenshot, test } from './fixtures';
import {
  checkPhone,
  choose,
  clearNotifications,
  clientId,
  confirm,
  createCategory,
  createClient,
  createProduct,
  expectNotice,
  runSuffix,
  scrollDialogTop,
  signInAdmin,
  signInAdminApi,
  toggleSwitch,
} from './helpers';

/**
 * The administrator's users and their products end to end against the real server. Everything is this
 * run's own: two clients created through the API (regular budget, category budgets), their categories
 * and products, and the users created through the screen. Serial: the products are assigned to the buyer
 * the first test creates.
 */
test.describe.configure({ mode: 'serial' });

const clienteA = () => `Ferretería Monterrey ${runSuffix()}`;
const clienteB = () => `Suministros León ${runSuffix()}`;
const comprador = () => `ana.ruiz.${runSuffix()}`;
const correoComprador = () => `${comprador()}@ferreteria-mty.mx`;
const compradoraCat = () => `lucia.campos.${runSuffix()}`;
const autorizadorE2e = () => `roberto.garza.${runSuffix()}`;

// ---------------------------------------------------------------------------------------------------------

test('usuarios: alta regular y por categorías, validación, edición, activar, restablecer contraseña', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signInAdmin(page);
  // This run's two clients: regular budget with two authorization levels, and category budgets with one.
  const idA = await createClient(page, {
    nombre: clienteA(),
    presupuesto_default: 5000,
    limite_de_compras: -1,
    cantidad_autorizadores: 2,
  });
  const idB = await createClient(page, {
    nombre: clienteB(),
    presupuesto_default: 0,
    limite_de_compras: -1,
    modo_presupuesto: 'categoria',
  });
  for (const [nombre, icono] of [
    ['Papelería', 'IconPencil'],
    ['Cafetería', 'IconCoffee'],
    ['Limpieza', 'IconSpray'],
  ] as const) {
    await createCategory(page, idB, nombre, icono);
  }

  await page.goto('/administrador/usuarios');
  await expect(page.getByRole('heading', { name: 'Usuarios', level: 1 })).toBeVisible();
  await expect(page.getByText('Elige un cliente para empezar')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Agregar nuevo usuario' })).toHaveCount(0);
  await choose(page, 'Cliente', clienteA(), clienteA());
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
  // The client's "no limit" (-1 on the wire) is the "Sin límite" switch, on.
  await expect(drawer.getByRole('switch', { name: 'Sin límite' })).toBeChecked();
  await expect(drawer.getByLabel('Límite de compras')).toBeDisabled();
  await drawer.getByRole('combobox', { name: 'Rol' }).click();
  await expect(page.getByRole('option', { name: 'Super Autorizador' })).toBeVisible();
  await page.getByRole('option', { name: 'Usuario', exact: true }).click();

  await drawer.getByRole('textbox', { name: 'Usuario', exact: true }).fill('e2e compras');
  await drawer.getByLabel('Email').fill(correoComprador());
  await drawer.getByRole('textbox', { name: 'Nombre', exact: true }).fill('Ana Sofía Ruiz Treviño');
  await drawer.getByLabel('Dirección de entrega').fill('Almacén central, andén 3');
  await choose(page, 'Semana de referencia', 'Semana 2');
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
  await expect(row).toContainText('Referencia 2');
  await expect(row).toContainText('Entrega 3');
  // A new account has never signed in: "Último acceso" says so, and the creation date is dd/MM/yyyy.
  await expect(row).toContainText('Nunca');
  await expect(row).toContainText(/Creado \d\d\/\d\d\/\d{4}/);

  // An authorizer too (no products link for it).
  await page.getByRole('button', { name: 'Agregar nuevo usuario' }).click();
  await drawer.getByRole('textbox', { name: 'Usuario', exact: true }).fill(autorizadorE2e());
  await drawer.getByLabel('Email').fill(`roberto.garza.${runSuffix()}@ferreteria-mty.mx`);
  await drawer.getByRole('textbox', { name: 'Nombre', exact: true }).fill('Roberto Garza Salinas');
  await drawer.getByLabel('Dirección de entrega').fill('Oficinas, piso 2');
  await choose(page, 'Rol', 'Autorizador', undefined);
  await choose(page, 'Semana de referencia', 'Semana 1');
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
  await expect(editDrawer.getByLabel('Email')).toHaveValue(correoComprador());
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
  await expect(page.getByRole('dialog', { name: '¿Estás seguro?' })).toContainText(correoComprador());
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
  await choose(page, 'Cliente', clienteB(), clienteB());
  await expect(page).toHaveURL(new RegExp(`cliente=${idB}`));
  await page.getByRole('button', { name: 'Agregar nuevo usuario' }).click();
  await expect(drawer.getByLabel('Papelería')).toBeVisible();
  await expect(drawer.getByRole('textbox', { name: 'Presupuesto', exact: true })).toHaveCount(0);
  await drawer.getByRole('combobox', { name: 'Rol' }).click();
  await expect(page.getByRole('option', { name: 'Super Autorizador' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await drawer.getByRole('textbox', { name: 'Usuario', exact: true }).fill(compradoraCat());
  await drawer.getByLabel('Email').fill(`lucia.campos.${runSuffix()}@suministros-leon.mx`);
  await drawer.getByRole('textbox', { name: 'Nombre', exact: true }).fill('Lucía Campos Vera');
  await drawer.getByLabel('Dirección de entrega').fill('Recepción planta 1');
  await choose(page, 'Semana de referencia', 'Semana 4');
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
  await signInAdminApi(page);
  const idA = await clientId(page, clienteA());
  // A category and three products of client A through the API.
  const idCategoria = await createCategory(page, idA, 'Herramientas', 'IconTool');
  const productos = [
    ['FE-001', 'Martillo de uña 16 oz', 189.9],
    ['FE-002', 'Juego de desarmadores 6 piezas', 249.5],
    ['FE-003', 'Cinta métrica 8 m', 129],
  ] as const;
  for (const [clave_interna, nombre, precio] of productos) {
    await createProduct(page, { id_cliente: idA, id_categoria: idCategoria, clave_interna, nombre, precio });
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
