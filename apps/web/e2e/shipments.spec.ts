import type { Page } from '@playwright/test';
import pg from 'pg';
import { expect, expectHome, PHONE_WIDTH, screenshot, signIn, test } from './fixtures';
import {
  apiPost,
  asAdmin,
  assignAll,
  businessDayFromToday,
  businessToday,
  clearNotifications,
  createAccount,
  createCategory,
  createClient,
  createProduct,
  dmy,
  openAccessWeek,
  pickDay,
  runSuffix,
  scrollDialogTop,
  signInAdmin,
} from './helpers';

/**
 * Partial shipments (decision 0125): the operator ships some units of an approved order with a guía,
 * cancels what is missing of a line with a reason (the total drops) and ships the rest; the buyer sees both
 * shipments, the promised dates and the cancelled units; the queue marks a late order «Atrasado» and filters
 * by it. The client has no approval levels, so its purchases are approved at once. Its data is this
 * attempt's own; the past promised date is written in the database (the promesa route refuses one).
 */
const PASSWORD = 'Envios#2026';

const numero = (id: number) => String(id).padStart(5, '0');

/** The order's total as the page shows it ("$1,234.50"), as a number. */
async function totalOf(page: Page): Promise<number> {
  const text = (await page.getByTestId('soporte-total').textContent()) ?? '';
  return Number(text.replace(/[^\d.]/g, ''));
}

/** Sets a line's promised date straight in the database of the main server (PostgreSQL runs only). */
async function promiseInThePast(idPedido: number, fecha: string): Promise<void> {
  // The browser suite's main server runs on PostgreSQL (E2E_DATABASE_URL, as CI and .ci/run set it).
  if (!process.env.E2E_DATABASE_URL) throw new Error('Esta prueba necesita E2E_DATABASE_URL (PostgreSQL).');
  const client = new pg.Client({ connectionString: process.env.E2E_DATABASE_URL });
  await client.connect();
  try {
    await client.query('update order_lines set fecha_promesa = $1 where order_id = $2', [fecha, idPedido]);
  } finally {
    await client.end();
  }
}

test('el operador envía por partes y cancela un faltante; el comprador ve los envíos; la cola marca los atrasados', async ({
  page,
  browser,
}) => {
  test.slow();
  const suffix = runSuffix();
  const comprador = `ines.robles.${suffix}`;
  const ids = await asAdmin(browser, async (admin) => {
    const idCliente = await createClient(admin, {
      nombre: `Papelera Robles ${suffix}`,
      presupuesto_default: 50_000,
      limite_de_compras: -1,
      cantidad_autorizadores: 0,
    });
    await openAccessWeek(admin, idCliente);
    const categoria = await createCategory(admin, idCliente, 'Papelería', 'IconPencil');
    const product = (clave_interna: string, nombre: string, precio: number) =>
      createProduct(admin, {
        id_cliente: idCliente,
        id_categoria: categoria,
        clave_interna,
        nombre,
        precio,
        unidad_de_medida: 'Caja',
        existencia: 100,
      });
    const hojas = await product('PAP-01', 'Hojas carta', 120);
    const plumas = await product('PAP-02', 'Plumas azules', 45.5);
    const idUser = await createAccount(
      admin,
      {
        id_cliente: idCliente,
        usuario: comprador,
        correo: `${comprador}@papelera-robles.mx`,
        nombre: 'Inés Robles Garza',
        rol: 1,
        presupuesto_default: 50_000,
      },
      PASSWORD,
    );
    await assignAll(admin, idUser, 50);
    return { idCliente, hojas, plumas };
  });

  // The buyer's two purchases, approved at once: 5 hojas and 3 plumas, then 2 hojas (the late one).
  await signIn(page, comprador, PASSWORD);
  await expectHome(page, 1);
  const buy = async (orden: { id: number; cantidad: number }[]) => {
    for (const item of orden) await apiPost(page, '/api/carrito/nuevo_item', { item });
    const { pedido } = await apiPost<{ pedido: { id: number; status: string } }>(page, '/api/compra', {
      orden,
      fecha: businessToday(),
    });
    expect(pedido.status).toBe('aprobado');
    return pedido.id;
  };
  const id = await buy([
    { id: ids.hojas, cantidad: 5 },
    { id: ids.plumas, cantidad: 3 },
  ]);
  const late = await buy([{ id: ids.hojas, cantidad: 2 }]);

  // The operator: a first shipment of 2 hojas and 1 pluma, with the carrier and its guía.
  await page.context().clearCookies();
  await signInAdmin(page);
  await page.goto(`/administrador/pedidos/${id}`);
  await expect(page.getByTestId('surtido-pedido')).toHaveText('Por surtir', { timeout: 30_000 });
  const history = page.getByRole('region', { name: 'Historial del pedido' });
  const line = (nombre: string) => page.getByTestId('linea-pedido').filter({ hasText: nombre });
  await expect(line('Hojas carta').getByTestId('linea-promesa')).toContainText('Prometido');
  const totalBefore = await totalOf(page);
  await page.getByRole('button', { name: 'Registrar envío' }).click();
  const ship = page.getByRole('dialog', { name: `Registrar envío del pedido #${numero(id)}` });
  await expect(ship.getByRole('textbox', { name: 'Hojas carta' })).toHaveValue('5');
  await ship.getByRole('textbox', { name: 'Hojas carta' }).fill('2');
  await ship.getByRole('textbox', { name: 'Plumas azules' }).fill('1');
  await ship.getByLabel('Paquetería').fill('Estafeta');
  await ship.getByLabel('Guía', { exact: true }).fill('7788990011');
  await expect(ship.getByRole('button', { name: 'Fecha del envío' })).toHaveText(dmy(businessToday()));
  await scrollDialogTop(page);
  await screenshot(page, 'envios-operador-dialogo');
  // Too many units: the field says so and the button waits.
  await ship.getByRole('textbox', { name: 'Plumas azules' }).fill('4');
  await expect(ship.getByText('No puedes enviar más de 3.')).toBeVisible();
  await expect(ship.getByRole('button', { name: 'Registrar envío' })).toBeDisabled();
  await ship.getByRole('textbox', { name: 'Plumas azules' }).fill('1');
  await ship.getByRole('button', { name: 'Registrar envío' }).click();
  await expect(ship).toBeHidden();
  await expect(page.getByTestId('surtido-pedido')).toHaveText('Envío parcial');
  await expect(line('Hojas carta').getByTestId('linea-enviado')).toHaveText('Enviado 2 de 5');
  await expect(line('Plumas azules').getByTestId('linea-enviado')).toHaveText('Enviado 1 de 3');
  await expect(page.getByTestId('envio')).toHaveCount(1);
  await expect(page.getByTestId('envio')).toContainText('Guía: Estafeta 7788990011');
  await expect(history.getByText('Envío 1 registrado')).toBeVisible();

  // The 2 plumas left are cancelled as unavailable: the total drops by their amount (2 × 45.50 + IVA).
  await clearNotifications(page);
  await page.getByRole('button', { name: 'Cancelar faltante de Plumas azules' }).click();
  const cancel = page.getByRole('dialog', { name: 'Cancelar faltante de «Plumas azules»' });
  await expect(cancel.getByRole('textbox', { name: 'Unidades por cancelar' })).toHaveValue('2');
  await expect(cancel).toContainText('presupuesto del mes del comprador');
  await expect(cancel.getByRole('button', { name: 'Cancelar faltante' })).toBeEnabled();
  await cancel.getByRole('textbox', { name: 'Motivo' }).fill('Agotado con el proveedor');
  await cancel.getByRole('button', { name: 'Cancelar faltante' }).click();
  await expect(cancel).toBeHidden();
  await expect(line('Plumas azules').getByTestId('linea-cancelado')).toHaveText(
    '2 cancelados: Agotado con el proveedor',
  );
  await expect.poll(() => totalOf(page)).toBeCloseTo(totalBefore - 2 * 45.5 * 1.16, 1);
  await expect(history.getByText('Se cancelaron 2 de «Plumas azules» por falta de existencia')).toBeVisible();

  // The rest: the dialog now offers the 3 hojas left only; the order is Enviado.
  await clearNotifications(page);
  await page.getByRole('button', { name: 'Registrar envío' }).click();
  await expect(ship.getByRole('textbox', { name: 'Hojas carta' })).toHaveValue('3');
  await expect(ship.getByRole('textbox', { name: 'Plumas azules' })).toHaveCount(0);
  await ship.getByLabel('Paquetería').fill('DHL');
  await ship.getByLabel('Guía', { exact: true }).fill('1234567890');
  await ship.getByRole('button', { name: 'Registrar envío' }).click();
  await expect(ship).toBeHidden();
  await expect(page.getByTestId('surtido-pedido')).toHaveText('Enviado');
  await expect(page.getByTestId('envio')).toHaveCount(2);
  await expect(page.getByRole('button', { name: 'Registrar envío' })).toHaveCount(0);

  // The late order: its line promised two days ago; the queue says «Atrasado» and filters by it.
  await promiseInThePast(late, businessDayFromToday(-2));
  await page.goto(`/administrador/surtido?cliente=${ids.idCliente}`);
  const rows = page.getByTestId('surtido-fila');
  await expect(rows).toHaveCount(2, { timeout: 30_000 });
  await expect(rows.filter({ hasText: numero(late) }).getByTestId('surtido-atrasado')).toHaveText('Atrasado');
  await expect(rows.filter({ hasText: numero(id) }).getByTestId('surtido-atrasado')).toHaveCount(0);
  await expect(rows.filter({ hasText: numero(id) }).getByTestId('surtido-estado')).toHaveText('Enviado');
  // The filter lives in the URL (the late-lines e-mail links to ?atrasado=si): the box is checked once it moved.
  await page.getByRole('checkbox', { name: 'Solo atrasados' }).click();
  await expect(page.getByRole('checkbox', { name: 'Solo atrasados' })).toBeChecked();
  await expect(page).toHaveURL(/atrasado=si/);
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText(numero(late));
  // The late line on its order, with a new date today or later.
  await rows.getByRole('link', { name: numero(late) }).click();
  await expect(line('Hojas carta').getByTestId('linea-atrasada')).toHaveText('Atrasado');
  await page.getByRole('button', { name: 'Cambiar fecha prometida de Hojas carta' }).click();
  const promise = page.getByRole('dialog', { name: 'Fecha prometida de «Hojas carta»' });
  const nueva = businessDayFromToday(5);
  await pickDay(page, 'Nueva fecha prometida', nueva);
  await promise.getByRole('button', { name: 'Guardar fecha' }).click();
  await expect(promise).toBeHidden();
  await expect(line('Hojas carta').getByTestId('linea-promesa')).toHaveText(`Prometido ${dmy(nueva)}`);
  await expect(line('Hojas carta').getByTestId('linea-atrasada')).toHaveCount(0);
  await expect(history.getByText(`Fecha prometida cambiada al ${dmy(nueva)}`)).toBeVisible();

  // At phone width: the late order's page and its dialog fit.
  await page.goto(`/administrador/pedidos/${late}`);
  await page.setViewportSize({ width: PHONE_WIDTH, height: 844 });
  await page.getByRole('button', { name: 'Registrar envío' }).click();
  const shipLate = page.getByRole('dialog', { name: `Registrar envío del pedido #${numero(late)}` });
  await expect(shipLate.getByRole('textbox', { name: 'Hojas carta' })).toHaveValue('2');
  await screenshot(page, 'envios-operador-dialogo-390');
  await shipLate.getByRole('button', { name: 'Cancelar' }).click();
  await page.setViewportSize({ width: 1280, height: 800 });

  // The buyer: both shipments, the promised dates and the cancelled units.
  await page.context().clearCookies();
  await signIn(page, comprador, PASSWORD);
  await expectHome(page, 1);
  await page.goto(`/usuario/historial/${id}`);
  await expect(page.getByTestId('surtido-pedido')).toHaveText('Enviado');
  const envios = page.getByTestId('envio');
  await expect(envios).toHaveCount(2);
  await expect(envios.nth(0)).toContainText('Envío 1');
  await expect(envios.nth(0)).toContainText('2 × Hojas carta');
  await expect(envios.nth(0)).toContainText('1 × Plumas azules');
  await expect(envios.nth(1)).toContainText('3 × Hojas carta');
  await expect(envios.nth(1).getByTestId('guia-rastreo')).toHaveText('DHL 1234567890');
  await expect(envios.nth(0).getByTestId('descargar-remision')).toHaveAttribute(
    'href',
    `/api/historial/${id}/envios/1/remision`,
  );
  const [remision] = await Promise.all([
    page.waitForEvent('download'),
    envios.nth(0).getByTestId('descargar-remision').click(),
  ]);
  expect(remision.suggestedFilename()).toBe(`remision-${numero(id)}-1.pdf`);
  // A line wholly shipped has nothing promised any more.
  await expect(line('Hojas carta').getByTestId('linea-promesa')).toHaveCount(0);
  await expect(line('Hojas carta').getByTestId('linea-enviado')).toHaveText('Enviado 5 de 5');
  await expect(line('Plumas azules').getByTestId('linea-cancelado')).toHaveText(
    '2 cancelados: Agotado con el proveedor',
  );
  await clearNotifications(page);
  await screenshot(page, 'envios-comprador');
  await page.setViewportSize({ width: PHONE_WIDTH, height: 844 });
  await expect(envios).toHaveCount(2);
  await screenshot(page, 'envios-comprador-390');
});
