import { readFile } from 'node:fs/promises';
import type { Browser, Page } from '@playwright/test';
import { MSG } from '../../server/src/messages';
import { checkA11y, expect, expectHome, screenshot, signIn, test } from './fixtures';
import {
  apiPost,
  asAdmin,
  assignAll,
  businessToday,
  clearNotifications,
  createAccount,
  createCategory,
  createClient,
  createProduct,
  expectNotice,
  openAccessWeek,
  runSuffix,
  signInAdmin,
  signInAdminApi,
} from './helpers';
import { waitForMail } from './mailbox';

/**
 * Fulfilment (decision 0058): the operator exports two approved orders from "Surtido", marks one shipped
 * with a tracking reference; the buyer sees it in the history and on the order, confirms receipt with a
 * note; the operator sees the note and downloads the purchase order from the read-only order page. The
 * client has no approval levels, so its purchases are approved at once. Its data is this attempt's own.
 */
test.describe.configure({ mode: 'serial' });

const PASSWORD = 'Compras#2026';

interface Data {
  idCliente: number;
  cliente: string;
  comprador: string;
  correo: string;
  producto: number;
}

const data = new Map<string, Data>();

async function ensureData(browser: Browser): Promise<Data> {
  const suffix = runSuffix();
  const known = data.get(suffix);
  if (known) return known;
  const comprador = `rosa.trevino.${suffix}`;
  const correo = `${comprador}@trevino.mx`;
  const cliente = `Ferretería Treviño ${suffix}`;
  const entry = await asAdmin(browser, async (admin) => {
    const idCliente = await createClient(admin, {
      nombre: cliente,
      presupuesto_default: 50000,
      limite_de_compras: -1,
      cantidad_autorizadores: 0,
    });
    await openAccessWeek(admin, idCliente);
    const oficina = await createCategory(admin, idCliente, 'Oficina', 'IconPencil');
    const producto = await createProduct(admin, {
      id_cliente: idCliente,
      id_categoria: oficina,
      clave_interna: 'FER-01',
      nombre: 'Cinta canela',
      precio: 38.9,
      unidad_de_medida: 'Rollo',
    });
    const idComprador = await createAccount(
      admin,
      {
        id_cliente: idCliente,
        usuario: comprador,
        correo,
        nombre: 'Rosa Treviño',
        rol: 1,
        presupuesto_default: 50000,
      },
      PASSWORD,
    );
    await assignAll(admin, idComprador, 20);
    return { idCliente, cliente, comprador, correo, producto };
  });
  data.set(suffix, entry);
  return entry;
}

/** A purchase of the buyer signed in on `page`: approved at once (the client has no levels). */
async function buy(page: Page, producto: number, cantidad: number): Promise<number> {
  await apiPost(page, '/api/carrito/nuevo_item', { item: { id: producto, cantidad } });
  const { pedido } = await apiPost<{ pedido: { id: number; status: string } }>(page, '/api/compra', {
    orden: [{ id: producto, cantidad }],
    fecha: businessToday(),
  });
  expect(pedido.status).toBe('aprobado');
  return pedido.id;
}

const numero = (id: number) => String(id).padStart(5, '0');

test('el operador exporta y envía; el comprador confirma la recepción con una nota; la orden de compra se descarga', async ({
  page,
  browser,
}) => {
  // Three sign-ins, two downloads and a receipt: a long journey.
  test.slow();
  const d = await ensureData(browser);
  await signIn(page, d.comprador, PASSWORD);
  await expectHome(page, 1);
  const first = await buy(page, d.producto, 3);
  const second = await buy(page, d.producto, 1);

  // The operator: the queue of this client, both orders por surtir and not exported.
  await page.context().clearCookies();
  await signInAdmin(page);
  await page.getByRole('link', { name: 'Surtido' }).first().click();
  await expect(page.getByRole('heading', { name: 'Surtido', level: 1 })).toBeVisible();
  await page.goto(`/administrador/surtido?cliente=${d.idCliente}`);
  const rows = page.getByTestId('surtido-fila');
  // The first visit loads the queue's code as well.
  await expect(rows).toHaveCount(2, { timeout: 30_000 });
  await expect(rows.getByText('Por surtir')).toHaveCount(2);
  await expect(rows.getByText('Sin exportar')).toHaveCount(2);
  await page.getByRole('checkbox', { name: `Seleccionar el pedido #${numero(first)}` }).check();
  await page.getByRole('checkbox', { name: `Seleccionar el pedido #${numero(second)}` }).check();
  await expect(page.getByTestId('exportar-seleccionados')).toHaveText('Exportar seleccionados (2)');
  await screenshot(page, 'admin-surtido-seleccion');
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('exportar-seleccionados').click(),
  ]);
  expect(file.suggestedFilename()).toMatch(/^surtido-lote-\d+\.csv$/);
  const csv = await readFile(await file.path(), 'utf8');
  expect(csv).toContain('Dirección de entrega');
  expect(csv).toContain(`${numero(first)},`);
  expect(csv).toContain(`${numero(second)},`);
  await expect(rows.getByText(/^Lote \d+$/)).toHaveCount(2);

  // Exporting them again asks first.
  await page.getByRole('checkbox', { name: `Seleccionar el pedido #${numero(first)}` }).check();
  await page.getByTestId('exportar-seleccionados').click();
  const again = page.getByRole('dialog', { name: 'Pedidos ya exportados' });
  await expect(again).toContainText(`#${numero(first)}`);
  await again.getByRole('button', { name: 'Cancelar' }).click();
  await page.getByRole('checkbox', { name: `Seleccionar el pedido #${numero(first)}` }).uncheck();

  // Marks the first one shipped with a tracking reference (the export's notice gone first: behind the
  // dialog's overlay its text would be read with the overlay's contrast).
  await clearNotifications(page);
  await page
    .getByRole('button', { name: `Cambiar el estado de surtido del pedido #${numero(first)}` })
    .click();
  await page.getByRole('menuitem', { name: 'Enviado' }).click();
  const ship = page.getByRole('dialog', { name: `Marcar como enviado el pedido #${numero(first)}` });
  await ship.getByLabel('Paquetería y guía').fill('Estafeta 7788990011');
  await ship.getByLabel('Comentario (opcional)').fill('Dos cajas, frágil');
  await checkA11y(page, 'marcar como enviado');
  await ship.getByRole('button', { name: 'Marcar como enviado' }).click();
  await expectNotice(page, MSG.surtidoMovido('Enviado'));
  const firstRow = rows.filter({ hasText: numero(first) });
  await expect(firstRow.getByTestId('surtido-estado')).toHaveText('Enviado');
  await expect(firstRow).toContainText('Guía: Estafeta 7788990011');
  await clearNotifications(page);
  await screenshot(page, 'admin-surtido');
  const mail = await waitForMail(
    (m) => m.to.includes(d.correo) && m.subject === `Pedido #${numero(first)} enviado`,
  );
  expect(mail.text).toContain('Guía de envío: Estafeta 7788990011');

  // The buyer: the second badge in the history, the reference on the order, "Recibido" with a note.
  await page.context().clearCookies();
  await signIn(page, d.comprador, PASSWORD);
  await expectHome(page, 1);
  await page.goto('/usuario/historial');
  await expect(page.getByTestId('surtido-fila').filter({ hasText: 'Enviado' })).toHaveCount(1);
  await page.goto(`/usuario/historial/${first}`);
  await expect(page.getByTestId('surtido-pedido')).toHaveText('Enviado');
  await expect(page.getByTestId('surtido-info')).toContainText('Guía de envío: Estafeta 7788990011');
  await expect(page.getByText('Surtido: Enviado')).toBeVisible();
  await page.getByTestId('confirmar-recibido').click();
  const receipt = page.getByRole('dialog', { name: `Confirmar que recibiste el pedido #${numero(first)}` });
  const nota = 'Llegó un rollo aplastado.';
  await receipt.getByLabel('Nota (opcional)').fill(nota);
  await screenshot(page, 'usuario-surtido-recibido');
  await receipt.getByRole('button', { name: 'Confirmar recepción' }).click();
  await expectNotice(page, MSG.surtidoRecibido);
  await expect(page.getByTestId('surtido-pedido')).toHaveText('Entregado');
  await expect(page.getByTestId('confirmar-recibido')).toHaveCount(0);
  await expect(page.getByTestId('surtido-info')).toContainText(nota);

  // The operator sees the note, on the queue and on the order, and downloads the purchase order.
  await page.context().clearCookies();
  await signInAdminApi(page);
  await page.goto(`/administrador/surtido?cliente=${d.idCliente}&surtido=entregado`);
  await expect(page.getByTestId('nota-recepcion')).toHaveText(nota);
  await page.getByRole('link', { name: numero(first) }).click();
  await expect(page.getByTestId('surtido-pedido')).toHaveText('Entregado');
  await expect(page.getByTestId('surtido-info')).toContainText(nota);
  await screenshot(page, 'admin-pedido-surtido');
  const [pdf] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Descargar orden de compra' }).click(),
  ]);
  expect(pdf.suggestedFilename()).toBe(`OC-${numero(first)}.pdf`);
  expect((await readFile(await pdf.path())).subarray(0, 5).toString('latin1')).toBe('%PDF-');
});

test('el operador mueve varios pedidos a la vez con un resultado por pedido e importa guías con sus errores', async ({
  page,
  browser,
}) => {
  // Two screens, a file upload and three sign-ins: a long journey.
  test.slow();
  const d = await ensureData(browser);
  await signIn(page, d.comprador, PASSWORD);
  await expectHome(page, 1);
  const a = await buy(page, d.producto, 1);
  const b = await buy(page, d.producto, 1);
  const c = await buy(page, d.producto, 1);
  const d2 = await buy(page, d.producto, 1);

  await page.context().clearCookies();
  await signInAdminApi(page);
  // Order c is shipped first, alone: the bulk move then refuses it on its own line.
  await apiPost(page, `/api/surtido/${c}/estado`, { estado: 'enviado' });
  await page.goto(`/administrador/surtido?cliente=${d.idCliente}`);
  const rows = page.getByTestId('surtido-fila');
  // The first visit loads the queue's code as well.
  await expect(rows.filter({ hasText: numero(a) })).toHaveCount(1, { timeout: 30_000 });
  for (const id of [a, b])
    await page.getByRole('checkbox', { name: `Seleccionar el pedido #${numero(id)}` }).check();
  const bar = page.getByTestId('barra-surtido');
  await expect(bar).toContainText('2 pedidos seleccionados');

  // The pick list of the selection: one line per product, its total and the orders it serves.
  const choosePickList = async (formato: RegExp) => {
    await bar.getByRole('button', { name: 'Lista de surtido' }).click();
    await page.getByRole('menuitem', { name: formato }).click();
  };
  const pickList = async (formato: RegExp) => {
    const downloading = page.waitForEvent('download');
    await choosePickList(formato);
    return downloading;
  };
  const csvList = await pickList(/^CSV/);
  expect(csvList.suggestedFilename()).toMatch(/^lista-de-surtido-\d{4}-\d{2}-\d{2}\.csv$/);
  const csvText = (await readFile((await csvList.path())!, 'utf8')).replace(/^\uFEFF/, '');
  const csvLines = csvText.trim().split(/\r?\n/);
  expect(csvLines).toHaveLength(2);
  expect(csvLines[1]).toContain('FER-01');
  expect(csvLines[1]).toContain('Cinta canela');
  expect(csvLines[1]).toContain(`#${numero(a)} (1)`);
  expect(csvLines[1]).toContain(`#${numero(b)} (1)`);
  const pdfList = await pickList(/^PDF/);
  expect(pdfList.suggestedFilename()).toMatch(/^lista-de-surtido-\d{4}-\d{2}-\d{2}\.pdf$/);
  expect((await readFile((await pdfList.path())!)).subarray(0, 5).toString()).toBe('%PDF-');
  // An order already shipped has nothing left to pick: the list is refused, and says which one.
  await page.getByRole('checkbox', { name: `Seleccionar el pedido #${numero(c)}` }).check();
  await expect(bar).toContainText('3 pedidos seleccionados');
  await choosePickList(/^CSV/);
  const refused = page.getByRole('alert').filter({ hasText: 'No se pudo preparar la lista de surtido' });
  await expect(refused).toContainText(numero(c));
  await screenshot(page, 'admin-surtido-lista-rechazada');
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, 'admin-surtido-lista-rechazada-390');
  await page.setViewportSize({ width: 1366, height: 860 });
  await bar.getByRole('button', { name: 'Mover seleccionados a…' }).click();
  await page.getByRole('menuitem', { name: 'Enviado' }).click();
  const ship = page.getByRole('dialog', { name: 'Marcar como enviados 3 pedidos' });
  await ship.getByLabel('Paquetería y guía').fill('DHL 4455667788');
  await checkA11y(page, 'marcar varios como enviados');
  await ship.getByRole('button', { name: 'Marcar como enviado' }).click();
  const summary = page.getByTestId('resumen-surtido');
  await expect(summary).toContainText('2 de 3 pedidos movidos; 1 no se movió');
  await expect(summary.getByRole('listitem').filter({ hasText: numero(c) })).toContainText(
    'El pedido ya está en «Enviado».',
  );
  // The moved orders leave the selection; the refused one stays selected.
  await expect(bar).toContainText('1 pedido seleccionado');
  const shippedA = rows.filter({ hasText: numero(a) });
  await expect(shippedA.getByTestId('surtido-estado')).toHaveText('Enviado');
  const link = shippedA.getByTestId('guia-rastreo');
  await expect(link).toHaveText('DHL 4455667788');
  await expect(link).toHaveAttribute(
    'href',
    'https://www.dhl.com/mx-es/home/rastreo.html?tracking-id=4455667788',
  );
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(link).toHaveAttribute('rel', /noopener/);
  await screenshot(page, 'admin-surtido-lote');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  // On a phone the client stays in sight and the other filters fold behind one button.
  const filtros = page.getByRole('button', { name: 'Filtros', exact: true });
  await expect(filtros).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByRole('combobox', { name: 'Estado de surtido' })).toBeHidden();
  await expect(page.getByRole('combobox', { name: 'Cliente', exact: true })).toBeVisible();
  await filtros.click();
  await expect(page.getByRole('combobox', { name: 'Estado de surtido' })).toBeVisible();
  await page.getByRole('button', { name: 'Ocultar filtros' }).click();
  await screenshot(page, 'admin-surtido-lote-390');
  await page.setViewportSize({ width: 1366, height: 860 });
  await page.getByRole('button', { name: 'Cerrar resumen' }).click();
  await bar.getByRole('button', { name: 'Quitar selección' }).click();

  // The guías file: one row ships an order with its carrier, the others are refused row by row.
  await page.getByRole('button', { name: 'Importar guías' }).click();
  const dialog = page.getByRole('dialog', { name: 'Importar guías' });
  const csv = [
    'pedido,guia,paqueteria',
    `${d2},7788,Estafeta`,
    `${a},9999,DHL`,
    'abc,1,DHL',
    `${numero(d2)},2,DHL`,
  ].join('\r\n');
  await dialog.locator('input[type="file"]').setInputFiles({
    name: 'guias.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(csv),
  });
  await expect(dialog.getByTestId('archivo-seleccionado')).toContainText('guias.csv');
  await dialog.getByRole('button', { name: 'Cargar guías' }).click();
  const result = dialog.getByTestId('resultado-guias');
  await expect(result).toContainText('1 de 4 pedido(s) quedaron como «Enviado» con su guía.');
  const errors = result.getByRole('table', { name: 'Errores por registro' });
  await expect(errors.getByRole('row')).toHaveCount(4);
  await expect(errors).toContainText('El pedido ya está en «Enviado».');
  await expect(errors).toContainText('El número de pedido no es válido.');
  await expect(errors).toContainText('El pedido ya aparece en la fila 2 del archivo.');
  await screenshot(page, 'admin-surtido-guias');
  await page.setViewportSize({ width: 390, height: 844 });
  // On a phone the refused rows are a list: nothing scrolls sideways.
  const list = result.getByRole('region', { name: 'Errores por registro: lista' });
  await expect(list.getByRole('listitem')).toHaveCount(3);
  await expect(list).toContainText('El pedido ya aparece en la fila 2 del archivo.');
  await expect(result.getByRole('table', { name: 'Errores por registro' })).toBeHidden();
  expect(await list.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  await screenshot(page, 'admin-surtido-guias-390');
  await page.setViewportSize({ width: 1366, height: 860 });
  await result.getByRole('button', { name: 'Listo' }).click();
  const shippedD2 = rows.filter({ hasText: numero(d2) });
  await expect(shippedD2.getByTestId('surtido-estado')).toHaveText('Enviado');
  await expect(shippedD2.getByTestId('guia-rastreo')).toHaveText('Estafeta 7788');

  // The buyer's order shows the guía as the carrier's tracking link.
  await page.context().clearCookies();
  await signIn(page, d.comprador, PASSWORD);
  await expectHome(page, 1);
  await page.goto(`/usuario/historial/${d2}`);
  await expect(page.getByTestId('surtido-info').getByTestId('guia-rastreo')).toHaveAttribute(
    'href',
    'https://cs.estafeta.com/es/Tracking/searchByGet?wayBill=7788&wayBillType=1',
  );
});
