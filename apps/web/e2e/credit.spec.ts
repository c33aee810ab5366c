import type { Page } from '@playwright/test';
import { formatMXN } from '@portal/shared/domain/money';
import { addDays } from '@portal/shared/domain/time';
import { MSG } from '@portal/shared/messages';
import { cfdiXml } from '../../server/src/test/cfdi-documents';
import { expect, expectHome, PHONE_WIDTH, screenshot, signIn, signOut, test } from './fixtures';
import {
  apiPost,
  asAdmin,
  businessToday,
  checkPhone,
  clearNotifications,
  dmy,
  placeOrder,
  reviewWorld,
  runSuffix,
  signInAdminApi,
  uploadCfdi,
} from './helpers';
import { signInClientAdmin } from './totp';

/**
 * Credit and statements (issue 42 item 4, decision 0134), end to end with this attempt's own clients:
 * the client administrator's «Estado de cuenta» (its open invoices, what was paid, the balance, the aging,
 * the limit and the available credit; the CSV and the PDF), and an order held for credit at its approval
 * (the approver is told before approving) that the operator releases in «Surtido».
 */
const PASSWORD = 'Credito#2026';
const RFC = 'EKU9003173C9';
const ago = (days: number) => addDays(businessToday(), -days);

/** A client with the credit asked, its RFC, a product of $1,000.00 + IVA, a buyer, an approver and an administrator. */
async function creditWorld(
  browser: Parameters<typeof asAdmin>[0],
  name: string,
  credito: { niveles: 0 | 1; limite: number; dias: number; politica: 'avisar' | 'retener' },
) {
  const suffix = runSuffix();
  // One world per test of the attempt: its people named after its client.
  const tag = name.split(' ')[1]!.toLowerCase();
  const people = {
    comprador: `rosa.${tag}.${suffix}`,
    autorizador: `ivan.${tag}.${suffix}`,
    administradora: `lucia.${tag}.${suffix}`,
  };
  const person = (usuario: string, nombre: string) => ({
    usuario,
    correo: `${usuario}@papeleria-${suffix}.mx`,
    nombre,
  });
  const { niveles, ...terms } = credito;
  const { idCliente, producto } = await reviewWorld(browser, {
    cliente: `${name} ${suffix}`,
    niveles,
    presupuesto: 100_000,
    rfc: RFC,
    credito: terms,
    categoria: { nombre: 'Papelería', icono: 'IconPencil' },
    producto: {
      clave_interna: 'PAP-10',
      nombre: 'Papel bond carta',
      precio: 1_000,
      unidad_de_medida: 'Caja',
      existencia: 500,
    },
    comprador: person(people.comprador, 'Rosa Prieto'),
    autorizador: person(people.autorizador, 'Iván Nava'),
    administrador: person(people.administradora, 'Lucía Ortega'),
    password: PASSWORD,
    cantidadLimite: 50,
  });
  return { idCliente, producto, ...people, nombre: `${name} ${suffix}` };
}

/** The operator uploads an ingreso of `total` pesos dated `fecha` for the order; answers its UUID. */
async function invoice(admin: Page, pedido: number, total: string, fecha: string, folio: string) {
  const { xml, uuid } = cfdiXml({
    receptorRfc: RFC,
    serie: 'F',
    folio,
    fecha: `${fecha}T10:00:00`,
    subtotal: total,
    traslados: null,
    total,
    conceptos: [{ cantidad: '1', valorUnitario: total, importe: total }],
  });
  await uploadCfdi(admin, pedido, `${folio}.xml`, xml);
  return uuid;
}

/** The buyer signs in, places an order of `cantidad` of the world's product and signs out; answers the order. */
async function buyerOrders(page: Page, w: { comprador: string; producto: number }, cantidad: number) {
  await signIn(page, w.comprador, PASSWORD);
  await expectHome(page, 1);
  const pedido = await placeOrder(page, w.producto, cantidad);
  await signOut(page);
  return pedido;
}

/** The operator's «Surtido» screen with these filters (`cliente`, `retenido`…); its rows on screen. */
async function surtidoRows(page: Page, filtros: Record<string, string>) {
  await page.goto(`/administrador/surtido?${new URLSearchParams(filtros)}`);
  return page.getByTestId('surtido-fila').filter({ visible: true });
}

test('el administrador del cliente ve su estado de cuenta: facturas, pagos, saldo, antigüedad; lo descarga en CSV y PDF', async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  const w = await creditWorld(browser, 'Papelería Prieto', {
    niveles: 0,
    limite: 10_000,
    dias: 30,
    politica: 'avisar',
  });
  const pedido = await buyerOrders(page, w, 2);
  expect(pedido.status).toBe('aprobado');

  await asAdmin(browser, async (admin) => {
    await invoice(admin, pedido.id, '1500.00', ago(5), '101'); // not yet due
    const late = await invoice(admin, pedido.id, '2000.00', ago(50), '102'); // 20 days past due
    await invoice(admin, pedido.id, '800.00', ago(100), '103'); // 70 days past due
    const { xml } = cfdiXml({
      receptorRfc: RFC,
      tipo: 'P',
      folio: '9',
      fecha: `${ago(1)}T09:00:00`,
      pagos: [{ uuid: late, saldoAnt: '2000.00', pagado: '500.00' }],
    });
    await uploadCfdi(admin, pedido.id, 'pago.xml', xml);
  });

  const refused = await signInClientAdmin(page, w.administradora, PASSWORD);
  await page.getByRole('link', { name: 'Estado de cuenta' }).first().click();
  await expect(page).toHaveURL(/\/cliente\/estado-de-cuenta$/);
  await expect(page.getByRole('heading', { name: 'Estado de cuenta' })).toBeVisible();
  await expect(page.getByTestId('estado-saldo')).toHaveText(formatMXN(3_800));
  await expect(page.getByTestId('estado-vencido')).toHaveText(formatMXN(2_300));
  await expect(page.getByRole('group', { name: 'Crédito disponible' })).toContainText(formatMXN(6_200));
  await expect(page.getByTestId('antiguedad-0-30')).toContainText(formatMXN(3_000));
  await expect(page.getByTestId('antiguedad-61-90')).toContainText(formatMXN(800));
  const rows = page.getByTestId('estado-factura');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0)).toContainText('F-103');
  await expect(rows.nth(0)).toContainText('Vencida hace 70 días');
  await expect(rows.nth(1)).toContainText('F-102');
  await expect(rows.nth(1)).toContainText(dmy(ago(20)));
  await expect(rows.nth(1)).toContainText(`Pago P-9 del ${dmy(ago(1))}: ${formatMXN(500)}`);
  await expect(rows.nth(2)).toContainText('Al corriente');
  // Each invoice links to the SAT's verification; its XML only with the client's `fiscales` permission,
  // which this client (only `usuarios`) does not give.
  await expect(rows.nth(0).getByTestId('factura-sat')).toHaveAttribute(
    'href',
    /^https:\/\/verificacfdi\.facturaelectronica\.sat\.gob\.mx\/default\.aspx\?id=/,
  );
  await expect(page.getByTestId('estado-factura-xml')).toHaveCount(0);
  await screenshot(page, 'cliente-estado-de-cuenta');

  const [csv] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Descargar CSV' }).click(),
  ]);
  expect(csv.suggestedFilename()).toBe(`estado-de-cuenta-${w.idCliente}-${businessToday()}.csv`);
  const [pdf] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Descargar PDF' }).click(),
  ]);
  expect(pdf.suggestedFilename()).toBe(`estado-de-cuenta-${w.idCliente}-${businessToday()}.pdf`);

  await clearNotifications(page);
  await page.setViewportSize({ width: PHONE_WIDTH, height: 844 });
  await expect(rows.nth(1)).toContainText('Saldo');
  await checkPhone(page, 'cliente-estado-de-cuenta');
  await screenshot(page, 'cliente-estado-de-cuenta-390');

  // 48 more open invoices of $10.00 from yesterday: 51, one past a page of 50 (decision 0138). The list
  // pages with its pager, the page in the URL; the summary stays the whole client's.
  await asAdmin(browser, async (admin) => {
    for (let i = 0; i < 48; i++) await invoice(admin, pedido.id, '10.00', ago(1), String(200 + i));
  });
  await page.setViewportSize({ width: 1366, height: 860 });
  await page.reload();
  await expect(rows).toHaveCount(50);
  await expect(rows.nth(0)).toContainText('F-103');
  await expect(page.getByText('Mostrando 1–50 de 51 facturas abiertas')).toBeVisible();
  await page
    .getByRole('navigation', { name: 'Páginas de facturas' })
    .getByRole('button', { name: '2' })
    .click();
  await expect(page).toHaveURL(/\/cliente\/estado-de-cuenta\?page=2$/);
  await expect(rows).toHaveCount(1);
  await expect(rows.nth(0)).toContainText('F-247');
  await expect(page.getByText('Mostrando 51–51 de 51 facturas abiertas')).toBeVisible();
  await expect(page.getByTestId('estado-saldo')).toHaveText(formatMXN(4_280));
  await expect(page.getByTestId('antiguedad-0-30')).toContainText(formatMXN(3_480));
  await screenshot(page, 'cliente-estado-de-cuenta-pagina-2');
  await page.setViewportSize({ width: PHONE_WIDTH, height: 844 });
  await expect(rows).toHaveCount(1);
  await checkPhone(page, 'cliente-estado-de-cuenta-pagina-2');
  await screenshot(page, 'cliente-estado-de-cuenta-pagina-2-390');
  expect(refused, 'llamadas rechazadas (403)').toEqual([]);
});

test('un pedido aprobado sobre el límite queda «Retenido por crédito» y el operador lo libera en Surtido', async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  const w = await creditWorld(browser, 'Oficinas Nava', {
    niveles: 1,
    limite: 1_000,
    dias: 30,
    politica: 'retener',
  });
  const pedido = await buyerOrders(page, w, 1);
  expect(pedido.status).toBe('pendiente');

  // The approver is told before approving; the approval still goes.
  await signIn(page, w.autorizador, PASSWORD);
  await expectHome(page, 2);
  await page.goto(`/autorizador/orden/${pedido.id}`);
  const alerta = page.getByTestId('alerta-credito');
  await expect(alerta).toContainText('El pedido quedará retenido por crédito');
  await expect(alerta).toContainText(MSG.creditoRetendra);
  await screenshot(page, 'autorizador-aviso-credito');
  await apiPost(page, '/api/update/compra', { id: pedido.id, orden: [{ id: w.producto, cantidad: 1 }] });
  await signOut(page);

  await signInAdminApi(page);
  // The distributor's aging lists the client with its held order, and links to its statement.
  await page.goto(`/administrador/credito?q=${encodeURIComponent(w.nombre)}`);
  const cliente = page.getByTestId('credito-fila').filter({ visible: true });
  await expect(cliente).toHaveCount(1);
  await expect(cliente).toContainText('1 retenido');
  await screenshot(page, 'admin-credito-antiguedad');
  await cliente.getByRole('link', { name: w.nombre }).click();
  await expect(page).toHaveURL(new RegExp(`/administrador/credito/${w.idCliente}$`));
  await expect(page.getByTestId('estado-saldo')).toHaveText(formatMXN(0));
  await expect(page.getByRole('status').filter({ hasText: 'retenido' })).toContainText(
    '1 pedido aprobado está retenido por crédito',
  );

  // «Surtido», held orders only: the badge and why; «Liberar» after a confirmation.
  const row = await surtidoRows(page, { cliente: String(w.idCliente), retenido: 'si' });
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId('surtido-retenido')).toHaveText('Retenido por crédito');
  await expect(row.getByTestId('surtido-retenido-motivo')).toContainText('rebasa su límite de crédito');
  await screenshot(page, 'surtido-retenido-credito');

  await row.getByRole('button', { name: 'Liberar el pedido' }).click();
  const dialog = page.getByRole('dialog', { name: /Liberar el pedido/ });
  await expect(dialog).toContainText('Está retenido por crédito');
  await dialog.getByRole('button', { name: 'Liberar' }).click();
  await expect(page.getByText(MSG.pedidoLiberado)).toBeVisible();
  await expect(row).toHaveCount(0);
  const freed = await surtidoRows(page, { cliente: String(w.idCliente) });
  await expect(freed).toHaveCount(1);
  await expect(freed.getByTestId('surtido-retenido')).toHaveCount(0);
  await expect(freed.getByRole('button', { name: /Cambiar el estado de surtido/ })).toBeVisible();
  await page.setViewportSize({ width: PHONE_WIDTH, height: 844 });
  await checkPhone(page, 'surtido-liberado');
});
