import { readFile } from 'node:fs/promises';
import type { Browser, Locator, Page } from '@playwright/test';
import { MSG } from '../../server/src/messages';
import { expect, expectHome, PHONE_WIDTH, screenshot, signIn, test } from './fixtures';
import {
  apiPost,
  asAdmin,
  assignAll,
  asUser,
  choose,
  clearNotifications,
  createAccount,
  createCategory,
  createClient,
  createProduct,
  expectNotice,
  openAccessWeek,
  ownBrowserPage,
  runSuffix,
  scrollDialogTop,
  signInAdminApi,
  xsrfHeaders,
} from './helpers';
import { enrolTwoFactor } from './totp';

/**
 * The manager's month with áreas (cost centres) and budget top-ups (decision 0123), end to end: the
 * distributor creates the área «Mantenimiento» with a monthly budget and a responsible approver, moves budget
 * into it from another área, and puts a buyer in it from the users form; the buyer sees «Presupuesto del área
 * Mantenimiento», is refused for the área, asks for more with «Solicitar ampliación»; the responsible approver
 * approves it on «Ampliaciones» (the same request refused a moment later in another tab answers 409, said in
 * the dialog) while the buyer's catalogue, left open, shows the área's new figure and the answer without a
 * reload; the buyer completes the purchase, and the approver's review shows the área's month.
 */
test('el área con su presupuesto y su responsable: el comprador pide una ampliación, el responsable la aprueba y la compra pasa', async ({
  browser,
  page,
}) => {
  test.setTimeout(240_000);
  const suffix = runSuffix();
  const cliente = `Constructora del Valle ${suffix}`;
  const comprador = `oscar.mendez.${suffix}`;
  const responsable = `rita.rangel.${suffix}`;
  const password = 'Obras#2026Valle';
  const casco = `Casco de seguridad ${suffix}`;
  const correo = (usuario: string) => `${usuario}@constructora-valle.mx`;

  // The distributor's data: the client, a product, the buyer (its own budget has room) and the approver.
  const idCliente = await asAdmin(browser, async (admin) => {
    const id = await createClient(admin, {
      nombre: cliente,
      presupuesto_default: 5000,
      limite_de_compras: -1,
      cantidad_autorizadores: 1,
      permisos_cliente: 'usuarios,presupuestos',
    });
    await openAccessWeek(admin, id);
    const seguridad = await createCategory(admin, id, 'Seguridad', 'IconHelmet');
    await createProduct(admin, {
      id_cliente: id,
      id_categoria: seguridad,
      clave_interna: `CAS-${suffix}`,
      nombre: casco,
      precio: 450,
      unidad_de_medida: 'Pieza',
    });
    const idComprador = await createAccount(
      admin,
      {
        id_cliente: id,
        usuario: comprador,
        correo: correo(comprador),
        nombre: 'Óscar Méndez Luna',
        rol: 1,
        presupuesto_default: 5000,
      },
      password,
    );
    await assignAll(admin, idComprador, 5);
    await createAccount(
      admin,
      {
        id_cliente: id,
        usuario: responsable,
        correo: correo(responsable),
        nombre: 'Rita Rangel Soto',
        rol: 2,
      },
      password,
    );
    // A second área, to move budget from.
    await apiPost(admin, '/api/areas', {
      id_cliente: id,
      nombre: 'Almacén',
      codigo: 'ALM',
      presupuesto: 2000,
    });
    return id;
  });

  // Áreas: «Mantenimiento» with $800 a month and its responsible approver, found by name.
  await signInAdminApi(page);
  await page.goto(`/administrador/areas?cliente=${idCliente}`);
  await expect(page.getByRole('heading', { name: 'Áreas', level: 1 })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText(`Áreas de ${cliente}`)).toBeVisible();
  await page.getByRole('button', { name: 'Nueva área' }).click();
  const form = page.getByRole('dialog', { name: 'Nueva área' });
  await form.getByRole('textbox', { name: 'Nombre', exact: true }).fill('Mantenimiento');
  await form.getByRole('textbox', { name: 'Clave', exact: true }).fill('MANT');
  await form.getByRole('textbox', { name: 'Cuenta contable' }).fill('6100-01');
  await form.getByRole('textbox', { name: 'Presupuesto mensual' }).fill('800');
  await choose(page, 'Responsable', /^Rita Rangel Soto · Autorizador$/, 'Rita');
  await screenshot(page, 'areas-admin-nueva');
  await form.getByRole('button', { name: 'Crear área' }).click();
  await expectNotice(page, MSG.creadoCorrectamente);
  await expect(form).toBeHidden();
  const mant = area(page, 'MANT');
  await expect(mant).toContainText('Rita Rangel Soto');
  await expect(mant).toContainText('6100-01');
  await expect(mant).toContainText('$800.00');
  await clearNotifications(page);

  // $100 of this month moved from Almacén: Mantenimiento has $900 this month, its base stays $800.
  await page.getByRole('button', { name: 'Transferir presupuesto' }).click();
  const transfer = page.getByRole('dialog', { name: 'Transferir presupuesto' });
  await choose(page, 'De', /^Almacén \(ALM\)/);
  await choose(page, 'A', /^Mantenimiento \(MANT\)/);
  await transfer.getByRole('textbox', { name: 'Importe' }).fill('100');
  await transfer.getByRole('textbox', { name: 'Motivo' }).fill('Cuadrilla nueva de mantenimiento');
  await transfer.getByRole('button', { name: 'Transferir' }).click();
  await expectNotice(page, MSG.transferenciaHecha);
  await expect(mant).toContainText('$900.00');
  await expect(mant).toContainText('Base $800.00 + $100.00 este mes');
  await expect(area(page, 'ALM')).toContainText('$1,900.00');
  await clearNotifications(page);

  // The buyer goes into the área from the users form.
  await page.goto(`/administrador/usuarios?cliente=${idCliente}`);
  const row = page.getByTestId(`usuario-${comprador}`).filter({ visible: true });
  await row.getByRole('button', { name: `Editar ${comprador}` }).click();
  const drawer = page.getByRole('dialog', { name: /Editar usuario/ });
  await choose(page, 'Área de presupuesto', 'Mantenimiento (MANT)');
  await drawer.getByRole('button', { name: 'Guardar cambios' }).click();
  await expectNotice(page, MSG.modificadoCorrectamente);
  await page.goto(`/administrador/areas?cliente=${idCliente}`);
  await expect(area(page, 'MANT')).toContainText('Rita Rangel Soto');
  await expect(area(page, 'MANT').getByRole('cell').nth(2)).toHaveText('1');

  // The buyer: the área's line under the cards; 2 helmets ($1,044.00 with IVA) are more than its $900.
  await asUser(browser, comprador, password, async (buyer) => {
    await buyer.goto('/usuario/principal');
    const linea = buyer.getByRole('group', { name: 'Presupuesto del área Mantenimiento' });
    await expect(linea).toContainText('$900.00');
    await expect(linea).toContainText('restante de $900.00');
    await buyer
      .getByRole('article', { name: casco })
      .getByRole('button', { name: 'Agregar al carrito' })
      .click();
    const add = buyer.getByRole('dialog', { name: 'Agregar al carrito' });
    await add.getByLabel('Cantidad').fill('2');
    // Said at once, and the server says the same when asked.
    const refusal = MSG.presupuestoAreaCarrito('Mantenimiento', '$900.00');
    await expect(add.getByRole('alert')).toContainText(refusal);
    const added = buyer.waitForResponse((r) => r.url().endsWith('/api/carrito/nuevo_item'));
    await add.getByRole('button', { name: 'Agregar al carrito' }).click();
    expect((await (await added).json()).code).toBe('AREA_BUDGET');
    await expect(add.getByRole('alert')).toContainText(refusal);

    // «Solicitar ampliación»: the área's request, with the amount and the reason.
    await add.getByRole('button', { name: 'Solicitar ampliación' }).click();
    await expect(add).toBeHidden();
    const ask = buyer.getByRole('dialog', { name: 'Solicitar ampliación' });
    await expect(ask).toContainText('Pide más presupuesto de este mes para tu área');
    await expect(ask.getByTestId('ampliacion-disponible')).toHaveText(
      'Presupuesto del área Mantenimiento: quedan $900.00 MXN',
    );
    await ask.getByRole('button', { name: 'Enviar solicitud' }).click();
    await expect(ask.getByRole('textbox', { name: 'Motivo' })).toHaveAccessibleDescription(
      /Para qué lo necesitas/,
    );
    await expect(ask.getByText(MSG.ampliacionMotivoRequerido)).toBeVisible();
    await ask.getByRole('textbox', { name: 'Importe' }).fill('200');
    await ask
      .getByRole('textbox', { name: 'Motivo' })
      .fill('Cascos para la cuadrilla nueva del turno nocturno');
    await screenshot(buyer, 'areas-comprador-solicitud');
    await ask.getByRole('button', { name: 'Enviar solicitud' }).click();
    await expectNotice(buyer, MSG.ampliacionSolicitada);
    await expect(ask).toBeHidden();
    const mine = buyer.getByRole('region', { name: 'Tus solicitudes de ampliación' });
    await expect(mine).toContainText('Presupuesto del área Mantenimiento (MANT)');
    await expect(mine).toContainText('+$200.00');
    await expect(mine).toContainText('Pendiente');
    await clearNotifications(buyer);
    await buyer.evaluate(() => window.scrollTo(0, 0));
    await screenshot(buyer, 'areas-comprador');
    await phone(buyer, 'areas-comprador-390');
  });

  // The buyer leaves its catalogue open while the approver decides: nothing on it polls.
  const watching = await livePage(browser, comprador, password);
  const lineaViva = watching.page.getByRole('group', { name: 'Presupuesto del área Mantenimiento' });
  await watching.page.goto('/usuario/principal');
  await expect(lineaViva).toContainText('restante de $900.00');
  await watching.streaming;
  await markDocument(watching.page);

  // The responsible approver: «Ampliaciones», pending first; approved in one tab, refused too late in another.
  await asUser(browser, responsable, password, async (r) => {
    await r.goto('/autorizador/principal');
    await r
      .getByRole('navigation', { name: 'Secciones' })
      .getByRole('link', { name: 'Ampliaciones' })
      .click();
    await expect(r).toHaveURL(/\/autorizador\/ampliaciones$/);
    await expect(r.getByRole('heading', { name: 'Ampliaciones', level: 1 })).toBeVisible();
    const request = r.getByRole('listitem').filter({ hasText: 'Óscar Méndez Luna' });
    await expect(request).toContainText('Presupuesto del área Mantenimiento (MANT)');
    await expect(request).toContainText('+$200.00');
    await expect(request).toContainText('Motivo: Cascos para la cuadrilla nueva del turno nocturno');
    await screenshot(r, 'ampliaciones-autorizador');
    await phone(r, 'ampliaciones-autorizador-390');

    const other = await r.context().newPage();
    await other.goto('/autorizador/ampliaciones');
    await expect(other.getByRole('listitem').filter({ hasText: 'Óscar Méndez Luna' })).toBeVisible();

    await request.getByRole('button', { name: 'Aprobar la ampliación de Óscar Méndez Luna' }).click();
    const approve = r.getByRole('dialog', { name: '¿Aprobar la ampliación de Óscar Méndez Luna?' });
    await expect(approve).toContainText('Al aprobarla, ese presupuesto crece $200.00 MXN');
    await approve.getByRole('textbox', { name: 'Respuesta (opcional)' }).fill('Adelante, talla M');
    await approve.getByRole('button', { name: 'Aprobar', exact: true }).click();
    await expectNotice(r, MSG.ampliacionAprobada);
    await expect(r.getByText('No hay ampliaciones por decidir')).toBeVisible();

    // The other tab still shows it pending: its refusal is the server's 409, and the list is read again.
    await other
      .getByRole('listitem')
      .filter({ hasText: 'Óscar Méndez Luna' })
      .getByRole('button', { name: 'Rechazar la ampliación de Óscar Méndez Luna' })
      .click();
    const late = other.getByRole('dialog', { name: '¿Rechazar la ampliación de Óscar Méndez Luna?' });
    await late.getByRole('button', { name: 'Rechazar', exact: true }).click();
    await expect(late.getByRole('alert')).toContainText(MSG.ampliacionYaDecidida);
    await expect(late.getByRole('button', { name: 'Rechazar', exact: true })).toBeDisabled();
    await late.getByRole('button', { name: 'Cancelar' }).click();
    await expect(other.getByText('No hay ampliaciones por decidir')).toBeVisible();
    await other.getByText('Aprobadas', { exact: true }).click();
    await expect(other.getByRole('listitem').filter({ hasText: 'Óscar Méndez Luna' })).toContainText(
      'Aprobó Rita Rangel Soto',
    );
    await other.close();
  });

  // The buyer's open catalogue followed, in the same document: the área's $200 more, and the answer.
  try {
    await expect(lineaViva).toContainText('restante de $1,100.00');
    const mineLive = watching.page.getByRole('region', { name: 'Tus solicitudes de ampliación' });
    await expect(mineLive).toContainText('Aprobada');
    await expect(mineLive).toContainText('«Adelante, talla M»');
    expect(await stillSameDocument(watching.page)).toBe(true);
    expect(watching.errors).toEqual([]);
  } finally {
    await watching.page.context().close();
  }

  // The buyer: the área now has $1,100; the answer is on its request; the purchase goes through.
  await asUser(browser, comprador, password, async (buyer) => {
    await buyer.goto('/usuario/principal');
    const linea = buyer.getByRole('group', { name: 'Presupuesto del área Mantenimiento' });
    await expect(linea).toContainText('restante de $1,100.00');
    const mine = buyer.getByRole('region', { name: 'Tus solicitudes de ampliación' });
    await expect(mine).toContainText('Aprobada');
    await expect(mine).toContainText('«Adelante, talla M»');
    await buyer
      .getByRole('article', { name: casco })
      .getByRole('button', { name: 'Agregar al carrito' })
      .click();
    const add = buyer.getByRole('dialog', { name: 'Agregar al carrito' });
    await add.getByLabel('Cantidad').fill('2');
    await add.getByRole('button', { name: 'Agregar al carrito' }).click();
    await expectNotice(buyer, MSG.articuloAgregado);
    await expect(linea).toContainText('$56.00');
    await buyer.goto('/usuario/carrito');
    await buyer.getByRole('button', { name: 'Confirmar compra' }).click();
    await buyer
      .getByRole('dialog', { name: '¿Confirmar compra?' })
      .getByRole('button', { name: 'Enviar pedido' })
      .click();
    const sent = buyer.getByRole('dialog', { name: MSG.compraEnviadaTitulo });
    await expect(sent).toContainText('$1,044.00');
    await sent.getByRole('button', { name: 'Cerrar' }).click();
  });

  // The order's review shows the área's month: its budget, its other orders, and what this order leaves.
  await asUser(browser, responsable, password, async (r) => {
    await r.goto('/autorizador/principal');
    await r
      .getByRole('link', { name: /Ver pedido/ })
      .first()
      .click();
    const areaCard = r.getByRole('group', { name: 'Presupuesto del área Mantenimiento (MANT)' });
    await expect(areaCard.getByTestId('valor')).toHaveText(['$1,100.00 MXN', '$0.00 MXN', '$56.00 MXN']);
    await screenshot(r, 'autorizador-orden-area');
  });

  // The distributor's Áreas at the end of it: the área's month with its order, its top-up and its person.
  await page.goto(`/administrador/areas?cliente=${idCliente}`);
  await expect(area(page, 'MANT')).toContainText('$1,044.00');
  await expect(area(page, 'MANT')).toContainText('Base $800.00 + $300.00 este mes');
  await screenshot(page, 'areas-admin');
  await phone(page, 'areas-admin-390');
});

/**
 * A client administrator (rol 5, decision 0122) with `presupuestos` has the same Áreas screen in its own
 * area, on its own client with no client picker, and «Ampliaciones» of its client: it changes an área's
 * budget, is told why an área with people cannot be deleted (409), and decides a buyer's request. None of
 * its screens calls a route it is refused (403).
 */
test('el administrador de cliente cambia el presupuesto de un área y decide una ampliación de su empresa', async ({
  browser,
  page,
}) => {
  test.setTimeout(180_000);
  const suffix = runSuffix();
  const cliente = `Hospital San Rafael ${suffix}`;
  const gerente = `laura.ochoa.${suffix}`;
  const comprador = `diego.paz.${suffix}`;
  const password = 'Hospital#2026Rafa';
  const correo = (usuario: string) => `${usuario}@hospital-sanrafael.mx`;
  await asAdmin(browser, async (admin) => {
    const id = await createClient(admin, {
      nombre: cliente,
      presupuesto_default: 3000,
      limite_de_compras: -1,
      cantidad_autorizadores: 1,
      permisos_cliente: 'usuarios,presupuestos',
    });
    await createAccount(
      admin,
      { id_cliente: id, usuario: gerente, correo: correo(gerente), nombre: 'Laura Ochoa Ruiz', rol: 5 },
      password,
    );
    const { area } = await apiPost<{ area: { id: number } }>(admin, '/api/areas', {
      id_cliente: id,
      nombre: 'Enfermería',
      codigo: 'ENF',
      presupuesto: 1500,
    });
    await createAccount(
      admin,
      {
        id_cliente: id,
        usuario: comprador,
        correo: correo(comprador),
        nombre: 'Diego Paz Molina',
        rol: 1,
        presupuesto_default: 3000,
      },
      password,
    );
    const { usuarios } = (await (
      await admin.request.get(`/api/usuarios?id_cliente=${id}&q=${encodeURIComponent(comprador)}`)
    ).json()) as { usuarios: { id: number; usuario: string }[] };
    const buyer = usuarios.find((u) => u.usuario === comprador)!;
    const placed = await admin.request.put(`/api/usuarios/${buyer.id}`, {
      headers: await xsrfHeaders(admin),
      data: {
        usuario: comprador,
        user_id: correo(comprador),
        nombre: 'Diego Paz Molina',
        rol: 1,
        direccion_entrega: 'Av. Juárez 10',
        active_week: 1,
        entrega_week: 1,
        id_area: area.id,
      },
    });
    expect(placed.ok(), await placed.text()).toBe(true);
  });
  await asUser(browser, comprador, password, (buyer) =>
    apiPost(buyer, '/api/ampliaciones', { destino: 'area', importe: 500, motivo: 'Guantes para urgencias' }),
  );

  const refused: string[] = [];
  page.on('response', (response) => {
    if (response.status() === 403) refused.push(response.url());
  });
  await signIn(page, gerente, password);
  await enrolTwoFactor(page, password);
  await expectHome(page, 5);
  const nav = page.getByRole('navigation', { name: 'Secciones' });
  await nav.getByRole('link', { name: 'Áreas' }).click();
  await expect(page).toHaveURL(/\/cliente\/areas$/);
  await expect(page.getByRole('combobox', { name: 'Cliente' })).toHaveCount(0);
  const enf = area(page, 'ENF');
  await expect(enf).toContainText('$1,500.00');
  await expect(enf.getByRole('cell').nth(2)).toHaveText('1');

  // Its budget raised to $1,800 a month.
  await enf.getByRole('button', { name: 'Editar área Enfermería' }).click();
  const form = page.getByRole('dialog', { name: 'Editar área Enfermería' });
  await form.getByRole('textbox', { name: 'Presupuesto mensual' }).fill('1800');
  await form.getByRole('button', { name: 'Guardar cambios' }).click();
  await expectNotice(page, MSG.modificadoCorrectamente);
  await expect(enf).toContainText('$1,800.00');

  // An área with people is not deleted: the server's reason, in the dialog.
  await enf.getByRole('button', { name: 'Eliminar área Enfermería' }).click();
  const sure = page.getByRole('dialog', { name: '¿Eliminar el área Enfermería?' });
  await sure.getByRole('button', { name: 'Eliminar área' }).click();
  await expect(sure.getByRole('alert')).toContainText(MSG.areaEnUso);
  await sure.getByRole('button', { name: 'Cancelar' }).click();
  await clearNotifications(page);
  await screenshot(page, 'cliente-areas');

  // «Ampliaciones» of its client: the buyer's request, approved.
  await nav.getByRole('link', { name: 'Ampliaciones' }).click();
  await expect(page).toHaveURL(/\/cliente\/ampliaciones$/);
  const request = page.getByRole('listitem').filter({ hasText: 'Diego Paz Molina' });
  await expect(request).toContainText('Presupuesto del área Enfermería (ENF)');
  await request.getByRole('button', { name: 'Aprobar la ampliación de Diego Paz Molina' }).click();
  await page
    .getByRole('dialog', { name: '¿Aprobar la ampliación de Diego Paz Molina?' })
    .getByRole('button', { name: 'Aprobar', exact: true })
    .click();
  await expectNotice(page, MSG.ampliacionAprobada);
  await nav.getByRole('link', { name: 'Áreas' }).click();
  await expect(area(page, 'ENF')).toContainText('$2,300.00');

  // Its Tablero shows the áreas' month: the top-up is in Enfermería's budget.
  await nav.getByRole('link', { name: 'Tablero' }).click();
  const porArea = page
    .getByRole('region', { name: 'Gasto por área' })
    .or(page.locator('section').filter({ has: page.getByRole('heading', { name: 'Gasto por área' }) }));
  await expect(porArea.first()).toBeVisible();
  await expect(page.getByTestId('grafica-areas')).toBeVisible();
  await screenshot(page, 'cliente-tablero-areas');

  // «Mi empresa»'s 'Generar reporte': its client's orders as CSV, ending with each order's área.
  await nav.getByRole('link', { name: 'Mi empresa' }).click();
  await page.getByRole('button', { name: 'Generar reporte' }).click();
  const dialog = page.getByRole('dialog', { name: 'Generar reporte' });
  await dialog.getByRole('radio', { name: /General/ }).click();
  await dialog.getByRole('button', { name: 'Periodo' }).click();
  await page.getByRole('button', { name: 'Este mes' }).click();
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    dialog.getByRole('button', { name: 'Descargar reporte' }).click(),
  ]);
  const rows = (await readFile(await file.path(), 'utf8')).slice(1).trim().split('\r\n');
  expect(rows[0]).toMatch(/,Clave de área,Cuenta contable$/);
  // Its buyer bought nothing yet: the header alone (the rows' área columns: the API tests).
  expect(rows).toHaveLength(1);
  expect(refused, 'respuestas 403 en las pantallas del administrador de cliente').toEqual([]);
});

/**
 * The distributor's «Ampliaciones» (decision 0123): its overview names the clients with top-ups waiting;
 * «Ver» opens that client's requests (`?cliente=`, with the client select), where it approves a buyer's
 * request for its own budget. The buyer's catalogue, open meanwhile, shows the bigger monthly budget and the
 * answer without a reload. Without a client chosen the screen asks for one.
 */
test('el distribuidor decide desde su resumen la ampliación de un cliente y el comprador la ve sin recargar', async ({
  browser,
  page,
}) => {
  test.setTimeout(180_000);
  const suffix = runSuffix();
  const cliente = `Laboratorios Ríos ${suffix}`;
  const compradora = `marta.rios.${suffix}`;
  const tecnico = `jorge.salas.${suffix}`;
  const password = 'Reactivos#2026Lab';
  const correo = (usuario: string) => `${usuario}@laboratorios-rios.mx`;
  const idCliente = await asAdmin(browser, async (admin) => {
    const id = await createClient(admin, {
      nombre: cliente,
      presupuesto_default: 2000,
      limite_de_compras: -1,
      cantidad_autorizadores: 1,
    });
    await openAccessWeek(admin, id);
    const reactivos = await createCategory(admin, id, 'Reactivos', 'IconBottle');
    await createProduct(admin, {
      id_cliente: id,
      id_categoria: reactivos,
      clave_interna: `REA-${suffix}`,
      nombre: `Buffer de fosfatos ${suffix}`,
      precio: 380,
      unidad_de_medida: 'Frasco',
    });
    const { area } = await apiPost<{ area: { id: number } }>(admin, '/api/areas', {
      id_cliente: id,
      nombre: 'Control de calidad',
      codigo: 'CAL',
      presupuesto: 3000,
    });
    const idCompradora = await createAccount(
      admin,
      {
        id_cliente: id,
        usuario: compradora,
        correo: correo(compradora),
        nombre: 'Marta Ríos Vega',
        rol: 1,
        presupuesto_default: 2000,
      },
      password,
    );
    await assignAll(admin, idCompradora, 5);
    await createAccount(
      admin,
      {
        id_cliente: id,
        usuario: tecnico,
        correo: correo(tecnico),
        nombre: 'Jorge Salas Ibarra',
        rol: 1,
        presupuesto_default: 2000,
        id_area: area.id,
      },
      password,
    );
    return id;
  });
  // Two requests wait: the technician's for his área, and the buyer's for her own budget.
  await asUser(browser, tecnico, password, (tech) =>
    apiPost(tech, '/api/ampliaciones', {
      destino: 'area',
      importe: 1200,
      motivo: 'Calibración anual del espectrofotómetro',
    }),
  );
  const buyer = await livePage(browser, compradora, password);
  try {
    await apiPost(buyer.page, '/api/ampliaciones', {
      destino: 'usuario',
      importe: 500,
      motivo: 'Reactivos para el lote de marzo',
    });
    await buyer.page.goto('/usuario/principal');
    const mensual = buyer.page.getByRole('group', { name: 'Presupuesto mensual' });
    await expect(mensual).toContainText('$2,000.00');
    const mine = buyer.page.getByRole('region', { name: 'Tus solicitudes de ampliación' });
    await expect(mine).toContainText('Pendiente');
    await buyer.streaming;
    await markDocument(buyer.page);

    // The overview: the client with its two requests waiting; «Ver» opens them.
    await signInAdminApi(page);
    await page.goto('/administrador/principal');
    const waiting = page.getByRole('region', { name: 'Ampliaciones por decidir' });
    const row = waiting.getByTestId(`ampliaciones-cliente-${idCliente}`);
    await expect(row).toContainText(cliente);
    await expect(row).toContainText('2 solicitudes pendientes');
    await screenshot(page, 'admin-resumen-ampliaciones');
    await row.getByRole('link', { name: `Ver las ampliaciones de ${cliente}` }).click();
    await expect(page).toHaveURL(new RegExp(`/administrador/ampliaciones\\?cliente=${idCliente}$`));
    await expect(page.getByRole('heading', { name: 'Ampliaciones', level: 1 })).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Cliente' })).toHaveValue(cliente);
    const marta = page.getByRole('listitem').filter({ hasText: 'Marta Ríos Vega' });
    const jorge = page.getByRole('listitem').filter({ hasText: 'Jorge Salas Ibarra' });
    await expect(marta).toContainText('+$500.00');
    await expect(marta).toContainText('Motivo: Reactivos para el lote de marzo');
    await expect(jorge).toContainText('Presupuesto del área Control de calidad (CAL)');
    await expect(jorge).toContainText('+$1,200.00');
    // The sidebar's link keeps the client.
    await expect(
      page.getByRole('navigation', { name: 'Secciones' }).getByRole('link', { name: 'Ampliaciones' }),
    ).toHaveAttribute('href', `/administrador/ampliaciones?cliente=${idCliente}`);
    await screenshot(page, 'admin-ampliaciones');
    await phone(page, 'admin-ampliaciones-390');

    await marta.getByRole('button', { name: 'Aprobar la ampliación de Marta Ríos Vega' }).click();
    const approve = page.getByRole('dialog', { name: '¿Aprobar la ampliación de Marta Ríos Vega?' });
    await expect(approve).toContainText('Al aprobarla, ese presupuesto crece $500.00 MXN');
    await approve.getByRole('textbox', { name: 'Respuesta (opcional)' }).fill('Adelante con el lote');
    await approve.getByRole('button', { name: 'Aprobar', exact: true }).click();
    await expectNotice(page, MSG.ampliacionAprobada);
    await expect(marta).toHaveCount(0);
    await expect(jorge).toBeVisible();

    // The buyer's catalogue, in the same document: $2,500 this month, and the answer on her request.
    await expect(mensual).toContainText('$2,500.00');
    await expect(mensual).toContainText('Incluye ampliación de $500.00');
    await expect(mine).toContainText('Aprobada');
    await expect(mine).toContainText('«Adelante con el lote»');
    expect(await stillSameDocument(buyer.page)).toBe(true);
    await clearNotifications(buyer.page);
    await screenshot(buyer.page, 'usuario-ampliacion-en-vivo');
    expect(buyer.errors).toEqual([]);
  } finally {
    await buyer.page.context().close();
  }

  // With no client in the address the screen asks for one.
  await page.goto('/administrador/ampliaciones');
  await expect(page.getByText('Elige un cliente para empezar')).toBeVisible();
  await expect(page.getByRole('listitem').filter({ hasText: 'Jorge Salas Ibarra' })).toHaveCount(0);
});

/**
 * A buyer's browser of its own, signed in through the API, with its page's errors, and a promise of its
 * live-updates stream answering (the app opens it a few seconds after the screen loads).
 */
async function livePage(
  browser: Browser,
  usuario: string,
  password: string,
): Promise<{ page: Page; errors: string[]; streaming: Promise<unknown> }> {
  const { page, errors } = await ownBrowserPage(browser, usuario, password);
  const streaming = page.waitForResponse(
    (res) => new URL(res.url()).pathname === '/api/eventos' && res.status() === 200,
    { timeout: 30_000 },
  );
  return { page, errors, streaming };
}

/** Marks the document: a reload would drop the mark. */
const markDocument = (page: Page) =>
  page.evaluate(() => {
    (window as unknown as { sinRecargar: boolean }).sinRecargar = true;
  });
const stillSameDocument = (page: Page) =>
  page.evaluate(() => (window as unknown as { sinRecargar?: boolean }).sinRecargar === true);

/** An área's row (a table on wide screens, a card on phones). */
function area(page: Page, codigo: string): Locator {
  return page.getByTestId(`area-${codigo}`).filter({ visible: true });
}

/** The screen at phone width, pictured (and checked: no sideways scroll, accessibility), then as it was. */
async function phone(page: Page, name: string): Promise<void> {
  const size = page.viewportSize();
  await page.setViewportSize({ width: PHONE_WIDTH, height: 844 });
  await scrollDialogTop(page);
  await screenshot(page, name);
  if (size) await page.setViewportSize(size);
}
