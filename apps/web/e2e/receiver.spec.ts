import { expect, expectHome, PHONE_WIDTH, screenshot, signIn, test } from './fixtures';
import {
  apiPost,
  asAdmin,
  assignAll,
  asUser,
  businessToday,
  choose,
  clearNotifications,
  createAccount,
  createCategory,
  createClient,
  createProduct,
  expectNotice,
  expectPhotosLoaded,
  openAccessWeek,
  runSuffix,
  scrollDialogTop,
  testFile,
  xsrfHeaders,
} from './helpers';
import { waitForMail } from './mailbox';
import { signInClientAdmin } from './totp';

/**
 * A receiver named by the client (issue 41 item 4, decision 0130), on a phone (390×844): the client's
 * administrator marks a buyer of the dock «Receptor de mercancía» for the «Almacén Norte» address; the
 * receiver signs in, finds in «Recepción» the shipment of another buyer's order sent there, receives it with
 * one damaged toner, and the claim is opened on the buyer's order, which the buyer hears of by e-mail. The
 * client, its people and its order are this attempt's own, made through the API.
 */
const PASSWORD = 'Recepcion#2026';
const PHONE = { width: PHONE_WIDTH, height: 844 };
const WIDE = { width: 1366, height: 900 };
const ADDRESS = {
  colonia: 'Industrial',
  municipio: 'Apodaca',
  ciudad: 'Monterrey',
  estado: 'Nuevo León',
  cp: '66600',
  telefono: '8112345678',
  horario: 'L-V 8:00 a 15:00',
};

const numero = (id: number) => `#${String(id).padStart(5, '0')}`;

test('la administradora del cliente nombra a un receptor; el receptor recibe un envío con un tóner dañado y se abre el reclamo', async ({
  page,
  browser,
}) => {
  test.slow();
  await page.setViewportSize(PHONE);
  const suffix = runSuffix();
  const comprador = `mario.vega.${suffix}`;
  const receptor = `alma.rios.${suffix}`;
  const administradora = `irene.paz.${suffix}`;
  const autorizador = `hugo.leal.${suffix}`;
  const correoComprador = `${comprador}@ferreteria-vega.mx`;
  const world = await asAdmin(browser, async (admin) => {
    const idCliente = await createClient(admin, {
      nombre: `Ferretería Vega ${suffix}`,
      presupuesto_default: 10_000,
      limite_de_compras: -1,
      cantidad_autorizadores: 0,
      permisos_cliente: 'usuarios',
    });
    await openAccessWeek(admin, idCliente);
    const categoria = await createCategory(admin, idCliente, 'Oficina', 'IconPrinter');
    const toner = await createProduct(admin, {
      id_cliente: idCliente,
      id_categoria: categoria,
      clave_interna: 'FV-01',
      nombre: 'Tóner negro',
      precio: 500,
      unidad_de_medida: 'Pieza',
      existencia: 50,
    });
    const person = (usuario: string, nombre: string, rol: 1 | 2 | 5) => ({
      id_cliente: idCliente,
      usuario,
      correo: `${usuario}@ferreteria-vega.mx`,
      nombre,
      rol,
      presupuesto_default: 10_000,
    });
    const idComprador = await createAccount(admin, person(comprador, 'Mario Vega Treviño', 1), PASSWORD);
    await assignAll(admin, idComprador, 20);
    const idReceptor = await createAccount(admin, person(receptor, 'Alma Ríos Garza', 1), PASSWORD);
    await createAccount(admin, person(administradora, 'Irene Paz Luna', 5), PASSWORD);
    // An approver who also receives at the dock, named by the distributor for every address.
    const idAutorizador = await createAccount(admin, person(autorizador, 'Hugo Leal Soto', 2), PASSWORD);
    const named = await admin.request.put(`/api/usuarios/${idAutorizador}/receptor`, {
      headers: await xsrfHeaders(admin),
      data: { receptor: true, direcciones: [] },
    });
    expect(named.ok(), await named.text()).toBe(true);
    const address = async (nombre: string, calle: string, contacto: string) =>
      (
        await apiPost<{ direccion: { id: number } }>(admin, '/api/direcciones', {
          id_cliente: idCliente,
          ...ADDRESS,
          nombre,
          calle,
          numero_exterior: '100',
          contacto,
        })
      ).direccion.id;
    const norte = await address('Almacén Norte', 'Av. Industria', 'Alma Ríos');
    await address('Bodega Sur', 'Calle Reforma', 'Beto Ruiz');
    // The buyer's orders go to the north warehouse by default.
    const res = await admin.request.put(`/api/usuarios/${idComprador}/direcciones`, {
      headers: await xsrfHeaders(admin),
      data: { id_direccion: norte, direcciones: [] },
    });
    expect(res.ok(), await res.text()).toBe(true);
    return { toner, idReceptor };
  });

  // The buyer's purchase (approved at once: no approval levels), shipped by the operator in one shipment.
  const id = await asUser(browser, comprador, PASSWORD, async (buyer) => {
    const orden = [{ id: world.toner, cantidad: 2 }];
    await apiPost(buyer, '/api/carrito/nuevo_item', { item: orden[0] });
    const { pedido } = await apiPost<{ pedido: { id: number; status: string } }>(buyer, '/api/compra', {
      orden,
      fecha: businessToday(),
    });
    expect(pedido.status).toBe('aprobado');
    return pedido.id;
  });
  await asAdmin(browser, async (admin) => {
    const res = await admin.request.get(`/api/admin/pedidos/${id}`);
    const { pedido } = (await res.json()) as { pedido: { lineas: { id: number; cantidad: number }[] } };
    await apiPost(admin, `/api/surtido/${id}/envios`, {
      lineas: pedido.lineas.map((l) => ({ id: l.id, cantidad: l.cantidad })),
      paqueteria: 'Estafeta',
      guia: '5566778899',
    });
  });

  // The client's administrator names the receiver, for the north warehouse only.
  await signInClientAdmin(page, administradora, PASSWORD);
  await page.goto('/cliente/usuarios');
  const row = page.getByTestId(`usuario-${receptor}`).filter({ visible: true });
  // At phone width each row's actions are in its menu.
  await row.getByRole('button', { name: `Acciones de ${receptor}` }).click();
  await page.getByRole('menuitem', { name: 'Editar' }).click();
  const drawer = page.getByRole('dialog', { name: /Editar usuario/ });
  const section = drawer.getByRole('region', { name: 'Receptor de mercancía' });
  await section.scrollIntoViewIfNeeded();
  await section.getByRole('switch', { name: 'Recibe los envíos del cliente' }).check({ force: true });
  await choose(page, 'Direcciones que recibe', 'Almacén Norte');
  await page.keyboard.press('Escape');
  await section.getByRole('button', { name: 'Guardar receptor' }).click();
  await expectNotice(page, 'Guardamos el receptor de mercancía.');
  await section.scrollIntoViewIfNeeded();
  await screenshot(page, 'cliente-usuario-receptor-390');
  await page.setViewportSize(WIDE);
  await section.scrollIntoViewIfNeeded();
  await screenshot(page, 'cliente-usuario-receptor');
  await page.setViewportSize(PHONE);
  await page.context().clearCookies();

  // The approver's area has «Recepción» too: every address of the client, so the same shipment.
  await signIn(page, autorizador, PASSWORD);
  await expectHome(page, 2);
  await page.getByRole('button', { name: 'Abrir menú' }).click();
  await page
    .getByRole('navigation', { name: 'Menú principal' })
    .getByRole('link', { name: 'Recepción' })
    .click();
  await expect(page).toHaveURL(/\/autorizador\/recepcion$/);
  await expect(page.getByTestId('recepcion-envio').filter({ hasText: `Pedido ${numero(id)}` })).toHaveCount(
    1,
  );
  await page.context().clearCookies();

  // The receiver: «Recepción» in the menu, the shipment to the north warehouse, found by its guía.
  await signIn(page, receptor, PASSWORD);
  await expectHome(page, 1);
  await page.getByRole('button', { name: 'Abrir menú' }).click();
  await page
    .getByRole('navigation', { name: 'Menú principal' })
    .getByRole('link', { name: 'Recepción' })
    .click();
  await expect(page.getByRole('heading', { name: 'Recepción', level: 1 })).toBeVisible();
  const card = page.getByTestId('recepcion-envio').filter({ hasText: `Pedido ${numero(id)}` });
  await expect(card).toHaveCount(1, { timeout: 30_000 });
  await expect(card).toContainText('Almacén Norte');
  await expect(card).toContainText('Guía Estafeta 5566778899');
  await expect(card).toContainText('2 unidades · para Mario Vega Treviño');
  await page.getByRole('searchbox', { name: 'Buscar envío' }).fill('667788');
  await expect(page).toHaveURL(/q=667788/);
  await expect(card).toHaveCount(1);
  await screenshot(page, 'receptor-recepcion-390');
  await page.setViewportSize(WIDE);
  await screenshot(page, 'receptor-recepcion');
  await page.setViewportSize(PHONE);
  await card.getByRole('link', { name: new RegExp(`^Pedido ${numero(id)}`) }).click();
  await expect(page.getByRole('heading', { name: `Pedido ${numero(id)} · Envío 1` })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Productos del envío' })).toContainText('Tóner negro');
  await screenshot(page, 'receptor-envio-390');
  await page.setViewportSize(WIDE);
  await screenshot(page, 'receptor-envio');
  await page.setViewportSize(PHONE);

  // The buyer's own receipt form: one toner damaged, a replacement asked for.
  await page.getByTestId('confirmar-recepcion').click();
  const receipt = page.getByRole('dialog', { name: 'Confirmar recepción del envío 1' });
  const units = receipt.getByRole('textbox', { name: 'Recibidas en buen estado de Tóner negro' });
  await expect(units).toHaveValue('2');
  await units.fill('1');
  await choose(page, 'Motivo de Tóner negro', 'Dañado');
  await receipt.getByRole('radio', { name: 'Reposición' }).check();
  // The budget is the buyer's, not the receiver's.
  await expect(receipt.getByText('sin cargo al presupuesto de quien compró.')).toBeVisible();
  await receipt.getByRole('textbox', { name: 'Nota (opcional)' }).fill('Un tóner llegó con la caja rota.');
  // A photo of the broken box, uploaded through the receiver's own route.
  await receipt.getByLabel('Archivos de fotos').setInputFiles({
    name: 'caja-rota.png',
    mimeType: 'image/png',
    buffer: testFile('gradient-120.png'),
  });
  await expect(receipt.getByTestId('foto-adjunta')).toContainText('Lista');
  await scrollDialogTop(page);
  await screenshot(page, 'receptor-recepcion-dialogo-390');
  await receipt.getByRole('button', { name: 'Confirmar y abrir reclamo' }).click();
  await expectNotice(
    page,
    'Registramos la recepción del envío 1 y abrimos el reclamo 1 por las diferencias.',
  );
  await expect(receipt).toBeHidden();
  await expect(page.getByTestId('envio-recibido')).toContainText('Recibido por Alma Ríos Garza');
  await expect(page.getByTestId('confirmar-recepcion')).toHaveCount(0);
  // The page then says what the receipt counted, its note and the claim it opened.
  await expect(page.getByTestId('linea-diferencia')).toHaveText('Recibidas 1 · Dañado');
  await expect(page.getByTestId('envio-recibido')).toContainText('Nota: Un tóner llegó con la caja rota.');
  await expect(page.getByTestId('envio-reclamo')).toContainText('Se abrió el reclamo 1');
  await expect(page.getByTestId('envio-reclamo').getByTestId('reclamo-estado')).toHaveText('Abierto');
  // And the receipt's photo, a thumbnail served by the receiver's route that opens it full size.
  const recibido = page.getByTestId('envio-recibido');
  await expect(recibido.getByRole('group', { name: 'Fotos de la recepción del envío 1' })).toBeVisible();
  await expect(recibido.getByTestId('foto')).toHaveCount(1);
  await expect(recibido.getByTestId('foto')).toHaveAttribute(
    'href',
    new RegExp(`^/api/recepcion/${id}/fotos/\\d+$`),
  );
  await expect(recibido.getByTestId('foto')).toHaveAttribute('target', '_blank');
  await expectPhotosLoaded(recibido);
  // Pictured from the top, without the notice over the title.
  await clearNotifications(page);
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, 'receptor-envio-recibido-390');
  await page.setViewportSize(WIDE);
  await screenshot(page, 'receptor-envio-recibido');
  await page.setViewportSize(PHONE);

  // The claim is on the buyer's order, opened by the receiver; the buyer hears who received it.
  const mail = await waitForMail(
    (m) => m.to.includes(correoComprador) && m.subject.includes(`Pedido ${numero(id)}: envío 1 recibido`),
  );
  expect(mail.subject).toBe(`Pedido ${numero(id)}: envío 1 recibido por Alma Ríos Garza`);
  expect(mail.text).toContain('se abrió el reclamo 1');
  await asUser(browser, comprador, PASSWORD, async (buyer) => {
    const res = await buyer.request.get(`/api/historial/${id}`);
    const { pedido } = (await res.json()) as {
      pedido: {
        reclamos: { numero: number; estado: string; autor: string; resolucion_solicitada: string }[];
        envios: { recepcion: { por: string } | null }[];
        eventos: { tipo: string; actor: string | null }[];
      };
    };
    expect(pedido.reclamos).toEqual([
      expect.objectContaining({
        numero: 1,
        estado: 'abierto',
        autor: 'Alma Ríos Garza',
        resolucion_solicitada: 'reposicion',
      }),
    ]);
    expect(pedido.envios[0]?.recepcion?.por).toBe('Alma Ríos Garza');
    expect(pedido.eventos.find((e) => e.tipo === 'recepcion')?.actor).toBe('Alma Ríos Garza');
  });

  // Back in «Recepción», nothing is left to receive.
  await page.getByRole('link', { name: 'Volver a Recepción' }).click();
  await page.getByRole('searchbox', { name: 'Buscar envío' }).fill('');
  await expect(page.getByText('No hay envíos por recibir')).toBeVisible();
});
