import type { Page } from '@playwright/test';
import { MSG } from '@portal/shared/messages';
import { expect, PHONE_WIDTH, screenshot, test } from './fixtures';
import {
  apiPostForm,
  asAdmin,
  choose,
  clearNotifications,
  createAccount,
  createCategory,
  createClient,
  createProduct,
  createUser,
  dmy,
  expectNotice,
  pickDay,
  runSuffix,
  scrollDialogTop,
  toggleSwitch,
  xsrfHeaders,
} from './helpers';
import { signInClientAdmin } from './totp';

/**
 * The client administrator (rol 5, issue 40 item 1, decision 0122) end to end: the distributor gives a
 * client its permissions (`usuarios`, `presupuestos`) and a budget cap of $5,000, and the client an
 * administrator of its own (through the API); that person signs in, enrols two-factor sign-in (mandatory for
 * the role), lands on «Mi empresa», creates a buyer with a budget under the cap, raises it above the cap and
 * is told it waits for the distributor; the distributor approves it on its home and the buyer has it.
 * Nothing of the client administrator's screens calls a route it is refused (403).
 */
test('el administrador de cliente da de alta a un comprador, le sube el presupuesto sobre el tope y el distribuidor lo aprueba', async ({
  browser,
  page,
}) => {
  test.setTimeout(240_000);
  const suffix = runSuffix();
  const cliente = `Ferretera del Bajío ${suffix}`;
  const administradora = `lucia.garza.${suffix}`;
  const comprador = `pedro.salinas.${suffix}`;
  const password = 'MiEmpresa#2026';

  // The distributor: the client, what its administrators may do, and its administrator with a password.
  await asAdmin(browser, async (admin) => {
    const idCliente = await createClient(admin, {
      nombre: cliente,
      presupuesto_default: 2000,
      limite_de_compras: -1,
      cantidad_autorizadores: 1,
      permisos_cliente: 'usuarios,presupuestos',
      tope_presupuesto: 5000,
    });
    await createAccount(
      admin,
      {
        id_cliente: idCliente,
        usuario: administradora,
        correo: `${administradora}@ferretera-bajio.mx`,
        nombre: 'Lucía Garza Treviño',
        rol: 5,
      },
      password,
    );
  });

  const refused = await signInClientAdmin(page, administradora, password);
  await expect(page.getByRole('heading', { name: 'Mi empresa', level: 1 })).toBeVisible();
  await expect(page.getByText(cliente).first()).toBeVisible();
  const permisos = page.getByTestId('permisos-cliente');
  await expect(permisos).toContainText('Puedes administrar: Usuarios (alta, cambios, baja');
  await expect(permisos).toContainText('Puedes administrar: Presupuestos y límites de compra');
  await expect(permisos).toContainText('No puedes administrar: Productos asignados');
  await expect(page.getByTestId('tope')).toHaveText('$5,000.00 MXN');
  await expect(page.getByTestId('pendientes')).toContainText('0 presupuestos');
  await expect(page.getByTestId('cuentas-rol-5')).toContainText('1 activa');
  await expect(page.getByText('Aún no hay solicitudes de presupuesto')).toBeVisible();
  // Nothing of the distributor's: no support search, no bell (the notices are not the role's).
  await expect(page.getByRole('searchbox')).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Notificaciones|Avisos/ })).toHaveCount(0);
  await screenshot(page, 'cliente-principal');

  // Usuarios: its own client, fixed; a buyer under the cap is created at once.
  await page.getByRole('navigation', { name: 'Secciones' }).getByRole('link', { name: 'Usuarios' }).click();
  await expect(page).toHaveURL(/\/cliente\/usuarios$/);
  await expect(page.getByRole('combobox', { name: 'Cliente' })).toHaveCount(0);
  const own = page.getByTestId(`usuario-${administradora}`).filter({ visible: true });
  await expect(own).toContainText('Administrador de cliente');
  // A client administrator's own row is not its to change.
  await expect(own.getByRole('button')).toHaveCount(0);

  await page.getByRole('button', { name: 'Agregar nuevo usuario' }).click();
  const drawer = page.getByRole('dialog', { name: /Agregar nuevo usuario/ });
  await expect(drawer).toBeVisible();
  await expect(drawer.getByText(/Un presupuesto mensual mayor que \$5,000\.00 MXN/)).toBeVisible();
  await drawer.getByRole('combobox', { name: 'Rol' }).click();
  await expect(page.getByRole('option', { name: 'Administrador de cliente' })).toHaveCount(0);
  await page.getByRole('option', { name: 'Usuario', exact: true }).click();
  await drawer.getByRole('textbox', { name: 'Usuario', exact: true }).fill(comprador);
  await drawer.getByLabel('Email').fill(`${comprador}@ferretera-bajio.mx`);
  await drawer.getByRole('textbox', { name: 'Nombre', exact: true }).fill('Pedro Salinas Ortega');
  await drawer.getByLabel('Dirección de entrega').fill('Almacén Celaya, andén 2');
  await choose(page, 'Semana de referencia', 'Semana 1');
  await choose(page, 'Semana de entrega', 'Semana 2');
  await drawer.getByRole('textbox', { name: 'Presupuesto', exact: true }).fill('3000');
  await drawer.getByRole('button', { name: 'Crear usuario' }).click();
  await expectNotice(page, MSG.creadoCorrectamente);
  const row = page.getByTestId(`usuario-${comprador}`).filter({ visible: true });
  await expect(row).toContainText('$3,000.00');
  await clearNotifications(page);

  // Above the cap: saved as a request, the buyer keeps its budget, and the notice says so (yellow).
  await row.getByRole('button', { name: `Editar ${comprador}` }).click();
  const edit = page.getByRole('dialog', { name: /Editar usuario/ });
  await expect(edit.getByRole('textbox', { name: 'Presupuesto', exact: true })).toHaveValue('$3,000.00');
  await edit.getByRole('textbox', { name: 'Presupuesto', exact: true }).fill('8000');
  await edit.getByRole('button', { name: 'Guardar cambios' }).click();
  const notice = page
    .locator('.mantine-Notification-root')
    .filter({ hasText: 'Presupuesto pendiente de aprobación' });
  await expect(notice).toContainText('quedó pendiente de aprobación del distribuidor');
  await expect(notice).toHaveAttribute('style', /--notification-color: var\(--mantine-color-yellow-filled\)/);
  await expect(row).toContainText('$3,000.00');
  await screenshot(page, 'cliente-presupuesto-pendiente');
  await clearNotifications(page);
  await phone(page, 'cliente-usuarios-390');

  // Its people by file: the distributor's dialog for its own client; a budget above the cap is refused on
  // its row (the form would queue it), the rest applies.
  await page.getByRole('button', { name: 'Importación por archivo' }).click();
  const dialog = page.getByRole('dialog', { name: /Importación por archivo/ });
  await expect(dialog.getByText(cliente)).toBeVisible();
  await expect(dialog.getByRole('radio', { name: 'Asignaciones' })).toHaveCount(0);
  // The template's columns by the specification's names; the address details are left empty.
  const header =
    'usuario,user_id,nombre,rol,direccion_entrega,calle,colonia,ciudad,cp,estado,area,localidad,region,coordinacion,active_week,entrega_week,limite_de_compras,presupuesto_default';
  const person = (usuario: string, nombre: string, presupuesto: string) =>
    [
      usuario,
      `${usuario}@ferretera-bajio.mx`,
      nombre,
      '1',
      'Almacén Celaya',
      ',,,,,,,,',
      '1',
      '2',
      '',
      presupuesto,
    ].join(',');
  const importada = `rosa.mena.${suffix}`;
  const csv = [
    header,
    person(importada, 'Rosa Mena Ibarra', '4000'),
    person(`tomas.ruiz.${suffix}`, 'Tomás Ruiz Cano', '9000'),
  ].join('\r\n');
  await dialog
    .getByLabel('Archivo CSV', { exact: true })
    .setInputFiles({ name: 'personal.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await dialog.getByRole('button', { name: 'Importar' }).click();
  const result = dialog.getByTestId('resultado-importacion');
  await expect(result.getByText('Terminada con errores')).toBeVisible({ timeout: 30_000 });
  await expect(result.getByText('1 registro procesado de 2, 1 registro con errores.')).toBeVisible();
  await expect(result.getByRole('table', { name: 'Errores por registro' })).toContainText(
    'Supera el tope de $5,000.00',
  );
  await screenshot(page, 'cliente-importacion');
  await dialog.getByRole('button', { name: 'Cerrar' }).last().click();
  await clearNotifications(page);
  await expect(page.getByTestId(`usuario-${importada}`).filter({ visible: true })).toContainText('$4,000.00');

  // Its home lists the request, pending.
  await page.goto('/cliente/principal');
  const request = page.getByTestId(`solicitud-${comprador}`);
  await expect(request).toContainText('Pendiente');
  await expect(request).toContainText('$3,000.00');
  await expect(request).toContainText('$8,000.00');
  await expect(page.getByTestId('pendientes')).toContainText('1 presupuesto');
  await phone(page, 'cliente-principal-390');

  // Its client's log: what it did, without a client filter.
  await page
    .getByRole('navigation', { name: 'Secciones' })
    .getByRole('link', { name: 'Registros del sistema' })
    .click();
  await expect(page).toHaveURL(/\/cliente\/registros$/);
  await expect(page.getByText('Los eventos de tu empresa en el portal')).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Cliente' })).toHaveCount(0);
  const entries = page.getByTestId('log-row');
  await expect(entries.filter({ hasText: 'Presupuesto por encima del tope solicitado' })).toHaveCount(1);
  await expect(entries.filter({ hasText: `Usuario creado: ${comprador}` })).toHaveCount(1);
  await screenshot(page, 'cliente-registros');

  // Its client's Tablero, as an authorizer sees it, with no link into the authorizer's orders.
  await page.getByRole('navigation', { name: 'Secciones' }).getByRole('link', { name: 'Tablero' }).click();
  await expect(page).toHaveURL(/\/cliente\/tablero$/);
  await expect(page.getByRole('heading', { name: 'Tablero', level: 1 })).toBeVisible();
  await expect(page.getByText(`Cómo va el gasto de ${cliente}`)).toBeVisible();
  await expect(page.locator('a[href^="/autorizador/"]')).toHaveCount(0);
  await screenshot(page, 'cliente-tablero');
  expect(refused, 'respuestas 403 en las pantallas del administrador de cliente').toEqual([]);

  // The distributor sees what the client allows on the client's form, and approves the budget on its home.
  await asAdmin(browser, async (admin) => {
    await admin.goto(`/administrador/clientes?q=${encodeURIComponent(cliente)}`);
    await admin
      .getByRole('button', { name: `Editar ${cliente}` })
      .first()
      .click();
    const form = admin.getByRole('dialog', { name: 'Editar cliente' });
    await expect(form.getByRole('checkbox', { name: /^Usuarios \(alta/ })).toBeChecked();
    await expect(form.getByRole('checkbox', { name: 'Presupuestos y límites de compra' })).toBeChecked();
    await expect(form.getByRole('checkbox', { name: 'Productos asignados' })).not.toBeChecked();
    await expect(form.getByRole('textbox', { name: 'Tope de presupuesto' })).toHaveValue('$5,000.00');
    await form.getByRole('heading', { name: 'Administradores de cliente' }).scrollIntoViewIfNeeded();
    await screenshot(admin, 'admin-cliente-administradores');
    await form.getByRole('button', { name: 'Cancelar' }).click();

    await admin.goto('/administrador/principal');
    const card = admin.getByRole('region', { name: 'Presupuestos por aprobar' });
    const pending = card.getByTestId(`solicitud-${comprador}`);
    await expect(pending).toContainText(cliente, { timeout: 30_000 });
    await expect(pending).toContainText('Pidió Lucía Garza Treviño');
    await pending.scrollIntoViewIfNeeded();
    await screenshot(admin, 'admin-presupuestos-por-aprobar');
    await pending.getByRole('button', { name: 'Aprobar el presupuesto de Pedro Salinas Ortega' }).click();
    await expectNotice(admin, 'Presupuesto aprobado y aplicado.');
    await expect(card.getByTestId(`solicitud-${comprador}`)).toHaveCount(0);

    // The same request decided again (another administrator's click): 409 with its reason.
    const { solicitudes } = (await (
      await admin.request.get('/api/presupuestos/solicitudes?estado=aprobada')
    ).json()) as { solicitudes: { id: number; usuario: { usuario: string } }[] };
    const id = solicitudes.find((s) => s.usuario.usuario === comprador)?.id;
    const again = await admin.request.post(`/api/presupuestos/solicitudes/${id}/rechazar`, {
      headers: await xsrfHeaders(admin),
    });
    expect(again.status()).toBe(409);
    expect((await again.json()).msg).toBe(
      'Esta solicitud de presupuesto ya fue decidida o reemplazada por otra.',
    );
  });

  // The buyer has the budget; the client administrator's request says who approved it.
  await page.goto('/cliente/usuarios');
  await expect(page.getByTestId(`usuario-${comprador}`).filter({ visible: true })).toContainText('$8,000.00');
  await page.goto('/cliente/principal');
  await expect(page.getByTestId(`solicitud-${comprador}`)).toContainText('Aprobada');
  expect(refused, 'respuestas 403 en las pantallas del administrador de cliente').toEqual([]);
});

/**
 * What the distributor allows is read at each call (decision 0122): without `presupuestos` the budget and
 * limit are shown but disabled, with the reason; without `usuarios` the list is only read — no form, no
 * checkboxes, no actions.
 */
test('sin «presupuestos» el presupuesto no se edita; sin «usuarios» la lista solo se consulta', async ({
  browser,
  page,
}) => {
  test.setTimeout(180_000);
  const suffix = runSuffix();
  const cliente = `Papelera de Occidente ${suffix}`;
  const administrador = `jorge.ibarra.${suffix}`;
  const comprador = `marta.luna.${suffix}`;
  const password = 'MiEmpresa#2026';
  const form = {
    nombre: cliente,
    presupuesto_default: '1500',
    limite_de_compras: '3',
    cantidad_autorizadores: '1',
    modo_presupuesto: 'regular',
  };
  const idCliente = await asAdmin(browser, async (admin) => {
    const id = await createClient(admin, {
      nombre: cliente,
      presupuesto_default: 1500,
      limite_de_compras: 3,
      permisos_cliente: 'usuarios',
    });
    const people = { id_cliente: id, nombre: 'Jorge Ibarra Luna', rol: 5 as const };
    await createAccount(
      admin,
      { ...people, usuario: administrador, correo: `${administrador}@papelera.mx` },
      password,
    );
    await createUser(admin, {
      id_cliente: id,
      usuario: comprador,
      correo: `${comprador}@papelera.mx`,
      nombre: 'Marta Luna Pérez',
      rol: 1,
      presupuesto_default: 1500,
    });
    return id;
  });
  const refused = await signInClientAdmin(page, administrador, password);
  await expect(page.getByTestId('permisos-cliente')).toContainText(
    'No puedes administrar: Presupuestos y límites de compra',
  );
  await expect(page.getByTestId('tope')).toHaveText('Sin tope');

  // `usuarios` alone: the budget and the limit are there, disabled, with the reason.
  await page.goto('/cliente/usuarios');
  const row = page.getByTestId(`usuario-${comprador}`).filter({ visible: true });
  await row.getByRole('button', { name: `Editar ${comprador}` }).click();
  const drawer = page.getByRole('dialog', { name: /Editar usuario/ });
  await expect(drawer.getByRole('textbox', { name: 'Presupuesto', exact: true })).toBeDisabled();
  await expect(drawer.getByRole('switch', { name: 'Sin límite' })).toBeDisabled();
  await expect(drawer.getByText(/Tu empresa no tiene permiso para cambiar presupuestos/)).toBeVisible();
  // The rest of the form is saved, the budget kept.
  await drawer.getByRole('textbox', { name: 'Nombre', exact: true }).fill('Marta Luna Pérez de Anda');
  await drawer.getByRole('button', { name: 'Guardar cambios' }).click();
  await expectNotice(page, MSG.modificadoCorrectamente);
  await expect(row).toContainText('Marta Luna Pérez de Anda');
  await expect(row).toContainText('$1,500.00');
  await clearNotifications(page);

  // The distributor takes `usuarios` away: the next screen only reads.
  await asAdmin(browser, (admin) =>
    apiPostForm(admin, `/api/clientes/update/${idCliente}`, { ...form, permisos_cliente: '' }),
  );
  await page.reload();
  await expect(
    page.getByText('Tu distribuidor no te permite cambiarlas: solo puedes consultarlas.'),
  ).toBeVisible();
  await expect(row).toContainText('Marta Luna Pérez de Anda');
  await expect(page.getByRole('button', { name: 'Agregar nuevo usuario' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Desactivar' })).toHaveCount(0);
  await expect(row.getByRole('button')).toHaveCount(0);
  await expect(row.getByRole('checkbox')).toHaveCount(0);
  await expect(row.getByRole('link', { name: `Productos de ${comprador}` })).toHaveCount(0);
  await screenshot(page, 'cliente-usuarios-solo-lectura');

  // Nothing allowed: no HR list, weeks nor rules in the sidebar; their addresses only show, with the reason.
  const nav = page.getByRole('navigation', { name: 'Secciones' });
  await expect(nav.getByRole('link')).toHaveText([
    'Mi empresa',
    'Tablero',
    'Usuarios',
    'Direcciones de entrega',
    'Estado de cuenta',
    'Registros del sistema',
  ]);
  await page.goto('/cliente/semanas');
  await expect(
    page.getByText('Tu distribuidor no te permite cambiarlos: solo puedes consultarlos.'),
  ).toBeVisible();
  await expect(page.getByText('Tu empresa aún no tiene semanas')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Agregar', exact: true })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Generar semanas…' })).toHaveCount(0);
  await page.goto('/cliente/reglas');
  await expect(page.getByLabel('Aprobación automática hasta')).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Guardar reglas' })).toHaveCount(0);
  await page.goto('/cliente/sincronizar');
  await expect(page.getByText('no puedes aplicar una lista de personal')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Revisar la lista' })).toHaveCount(0);
  expect(refused, 'respuestas 403 en las pantallas del administrador de cliente').toEqual([]);
});

/**
 * With `semanas`, `asignaciones`, `reglas` and `usuarios` (decision 0122) the client administrator has the
 * distributor's screens for them, in its own area and on its own client: «Mi empresa» links to each, the
 * sidebar lists them; it adds an access week, enables a product for a buyer and sets its limit, saves an
 * approval rule, and applies its HR list through a real upload — first refused by row, then previewed
 * (who joins, changes and leaves) and applied after the confirmation that names the leavers.
 */
test('el administrador de cliente agrega una semana, asigna un producto, guarda una regla y aplica su lista de personal', async ({
  browser,
  page,
}) => {
  test.setTimeout(240_000);
  const suffix = runSuffix();
  const cliente = `Refaccionaria del Golfo ${suffix}`;
  const administradora = `rosa.mijares.${suffix}`;
  const comprador = `ivan.solis.${suffix}`;
  const cambia = `elena.rios.${suffix}`;
  const sale = `tomas.vega.${suffix}`;
  const nuevo = `nora.cant.${suffix}`;
  const producto = `Balata delantera ${suffix}`;
  const password = 'MiEmpresa#2026';
  const correo = (usuario: string) => `${usuario}@refaccionaria-golfo.mx`;

  const idComprador = await asAdmin(browser, async (admin) => {
    const idCliente = await createClient(admin, {
      nombre: cliente,
      presupuesto_default: 2500,
      limite_de_compras: -1,
      cantidad_autorizadores: 1,
      permisos_cliente: 'usuarios,asignaciones,semanas,reglas',
    });
    const frenos = await createCategory(admin, idCliente, 'Frenos', 'IconTool');
    await createProduct(admin, {
      id_cliente: idCliente,
      id_categoria: frenos,
      clave_interna: `BAL-${suffix}`,
      nombre: producto,
      precio: 480,
    });
    await createAccount(
      admin,
      {
        id_cliente: idCliente,
        usuario: administradora,
        correo: correo(administradora),
        nombre: 'Rosa Mijares Ochoa',
        rol: 5,
      },
      password,
    );
    const buyer = (usuario: string, nombre: string) =>
      createUser(admin, { id_cliente: idCliente, usuario, correo: correo(usuario), nombre, rol: 1 });
    const id = await buyer(comprador, 'Iván Solís Pineda');
    await buyer(cambia, 'Elena Ríos');
    await buyer(sale, 'Tomás Vega Luna');
    return id;
  });

  const refused = await signInClientAdmin(page, administradora, password);
  const nav = page.getByRole('navigation', { name: 'Secciones' });
  await expect(nav.getByRole('link', { name: 'Semanas de acceso' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Reglas de aprobación' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Lista de personal' })).toBeVisible();
  // «Mi empresa»: a link to the screen of each change allowed; a plain text for what is not.
  const permisos = page.getByTestId('permisos-cliente');
  await expect(page.getByTestId('pantalla-semanas').getByRole('link')).toHaveText('Ir a Semanas de acceso');
  await expect(page.getByTestId('pantalla-reglas').getByRole('link')).toHaveText('Ir a Reglas de aprobación');
  await expect(page.getByTestId('pantalla-asignaciones').getByRole('link')).toHaveAttribute(
    'href',
    '/cliente/usuarios?rol=1',
  );
  await expect(page.getByTestId('pantalla-presupuestos')).toHaveCount(0);
  await expect(permisos).toContainText('No puedes administrar: Presupuestos y límites de compra');
  await expect(permisos).not.toContainText('Aún no hay una pantalla');

  // Semanas de acceso: its own client, no client picker; a week added.
  await page.getByTestId('pantalla-semanas').getByRole('link').click();
  await expect(page).toHaveURL(/\/cliente\/semanas$/);
  await expect(page.getByRole('heading', { name: 'Semanas de acceso', level: 1 })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Cliente' })).toHaveCount(0);
  await expect(page.getByText('Tu empresa aún no tiene semanas')).toBeVisible();
  const inicio = nextMonthDay(10);
  await pickDay(page, 'Fecha de inicio', inicio);
  await page.getByRole('button', { name: 'Agregar', exact: true }).click();
  await expectNotice(page, MSG.creadoCorrectamente);
  const week = page.getByTestId(`semana-${inicio}`);
  await expect(week).toContainText(dmy(inicio));
  await expect(week.getByRole('switch')).toBeChecked();
  await expect(page.getByText(`Semanas de ${cliente}`)).toBeVisible();
  await clearNotifications(page);
  await screenshot(page, 'cliente-semanas');
  await phone(page, 'cliente-semanas-390');

  // Productos asignados: from the buyer's row in Usuarios, in its own area.
  await nav.getByRole('link', { name: 'Usuarios' }).click();
  const row = page.getByTestId(`usuario-${comprador}`).filter({ visible: true });
  await row.getByRole('link', { name: `Productos de ${comprador}` }).click();
  await expect(page).toHaveURL(new RegExp(`/cliente/usuarios/usuario/${idComprador}/productos$`));
  await expect(page.getByTestId('tarjeta-usuario')).toHaveText(comprador);
  await expect(page.getByTestId('tarjeta-cliente')).toHaveText(cliente);
  const enable = page.getByRole('switch', { name: `Habilitar ${producto}` });
  await expect(enable).not.toBeChecked();
  await toggleSwitch(enable);
  await expect(enable).toBeChecked();
  await expect(page.getByTestId('productos-habilitados')).toHaveText('1');
  const limit = page.getByRole('textbox', { name: `Cantidad límite de ${producto}` });
  await limit.fill('4');
  await limit.press('Enter');
  await expect(page.getByLabel('Guardado')).toBeVisible();
  await screenshot(page, 'cliente-asignaciones');
  await phone(page, 'cliente-asignaciones-390');
  await page.reload();
  await expect(enable).toBeChecked();
  await expect(limit).toHaveValue('4');
  await page.getByRole('link', { name: 'Volver a usuarios' }).click();
  await expect(page).toHaveURL(/\/cliente\/usuarios$/);
  // Many buyers at once: the products are found among a checked buyer's (no inventory route for rol 5).
  await page.getByRole('checkbox', { name: `Seleccionar a ${cambia}` }).check();
  await page.getByRole('button', { name: 'Asignar productos… (1)' }).click();
  const bulk = page.getByRole('dialog', { name: 'Asignar productos' });
  await bulk.getByText('Algunos productos', { exact: true }).click();
  await choose(page, 'Productos', new RegExp(producto), 'Balata');
  await page.keyboard.press('Escape');
  await bulk.getByRole('button', { name: 'Habilitar 1 producto(s) para 1 usuario' }).click();
  await expect(bulk).toBeHidden();
  await expectNotice(page, '1 producto(s) habilitado(s) para 1 usuario(s).');
  await page.getByRole('button', { name: 'Quitar selección' }).click();
  await clearNotifications(page);

  // Reglas de aprobación: the client form's rules, saved for its own client.
  await nav.getByRole('link', { name: 'Reglas de aprobación' }).click();
  await expect(page).toHaveURL(/\/cliente\/reglas$/);
  const save = page.getByRole('button', { name: 'Guardar reglas' });
  await expect(save).toBeDisabled();
  await page.getByLabel('Aprobación automática hasta').fill('750');
  await page.getByLabel('Recordatorio (horas)').fill('12');
  await expect(page.getByTestId('reglas-resumen')).toContainText(
    'Pedidos hasta $750.00 MXN se aprueban solos',
  );
  await save.click();
  await expectNotice(page, MSG.modificadoCorrectamente);
  await expect(save).toBeDisabled();
  await clearNotifications(page);
  await screenshot(page, 'cliente-reglas');
  await phone(page, 'cliente-reglas-390');
  await page.reload();
  await expect(page.getByLabel('Aprobación automática hasta')).toHaveValue('$750.00');
  await expect(page.getByLabel('Recordatorio (horas)')).toHaveValue('12');

  // Lista de personal: a list with an error is refused by row and changes nothing.
  await nav.getByRole('link', { name: 'Lista de personal' }).click();
  await expect(page).toHaveURL(/\/cliente\/sincronizar$/);
  const list = (rows: string[][]) =>
    Buffer.from(['usuario,correo,nombre,rol', ...rows.map((r) => r.join(','))].join('\r\n'));
  const fileInput = page.getByLabel('Archivo CSV', { exact: true });
  await fileInput.setInputFiles({
    name: 'personal-con-error.csv',
    mimeType: 'text/csv',
    buffer: list([
      [comprador, correo(comprador), 'Iván Solís Pineda', ''],
      [nuevo, 'sin-arroba', 'Nora Cantú Garza', 'Usuario'],
    ]),
  });
  await page.getByRole('button', { name: 'Revisar la lista' }).click();
  const preview = page.getByTestId('vista-previa');
  await expect(preview).toContainText('La lista tiene 1 error');
  await expect(preview.getByRole('table', { name: 'Errores por registro' })).toContainText('correo');
  await expect(preview.getByRole('button', { name: 'Aplicar la lista' })).toBeDisabled();

  // The corrected list: one joins, one changes, one leaves; previewed, then applied.
  await page.getByRole('button', { name: 'Quitar el archivo personal-con-error.csv' }).click();
  await fileInput.setInputFiles({
    name: 'personal.csv',
    mimeType: 'text/csv',
    buffer: list([
      [comprador, correo(comprador), 'Iván Solís Pineda', ''],
      [cambia, correo(cambia), 'Elena Ríos Carranza', 'Autorizador'],
      [nuevo, correo(nuevo), 'Nora Cantú Garza', 'Usuario'],
    ]),
  });
  await page.getByRole('button', { name: 'Revisar la lista' }).click();
  await expect(preview).toContainText('Se darán de alta 1, se actualizarán 1 y se darán de baja 1 usuarios.');
  await expect(preview.getByTestId('personas-altas')).toContainText(nuevo);
  await expect(preview.getByTestId('personas-cambios')).toContainText('Cambia: nombre y rol');
  await expect(preview.getByTestId('personas-bajas')).toContainText(sale);
  await expect(preview.getByTestId('personas-bajas')).not.toContainText(administradora);
  await screenshot(page, 'cliente-sincronizar');
  await phone(page, 'cliente-sincronizar-390');
  await preview.getByRole('button', { name: 'Aplicar la lista' }).click();
  const confirmDialog = page.getByRole('dialog', { name: '¿Aplicar la lista de personal?' });
  await expect(confirmDialog).toContainText('Se dará de baja a 1 usuario');
  await confirmDialog.getByRole('button', { name: 'Aplicar la lista' }).click();
  await expect(page.getByTestId('lista-aplicada')).toContainText(
    'Lista aplicada: 1 altas, 1 actualizados y 1 bajas; 0 pedidos en espera retirados.',
  );
  await clearNotifications(page);

  // Usuarios shows it: the new buyer, the change, the leaver inactive.
  await page.getByRole('link', { name: 'Ver las cuentas de tu empresa en Usuarios' }).click();
  await expect(page).toHaveURL(/\/cliente\/usuarios$/);
  await expect(page.getByTestId(`usuario-${nuevo}`).filter({ visible: true })).toContainText(
    'Nora Cantú Garza',
  );
  await expect(page.getByTestId(`usuario-${cambia}`).filter({ visible: true })).toContainText('Autorizador');
  await expect(page.getByTestId(`usuario-${sale}`).filter({ visible: true })).toContainText('Inactivo');
  expect(refused, 'respuestas 403 en las pantallas del administrador de cliente').toEqual([]);
});

/** A day of next month (YYYY-MM-DD): a week there overlaps none of today's. */
function nextMonthDay(day: number): string {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, day)).toISOString().slice(0, 10);
}

/** The screen at phone width, pictured (and checked: no sideways scroll, accessibility), then as it was. */
async function phone(page: Page, name: string): Promise<void> {
  const size = page.viewportSize();
  await page.setViewportSize({ width: PHONE_WIDTH, height: 844 });
  await scrollDialogTop(page);
  await screenshot(page, name);
  if (size) await page.setViewportSize(size);
}
