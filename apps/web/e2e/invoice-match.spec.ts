import type { Browser, Page } from '@playwright/test';
import { cfdiXml } from '../../server/src/test/cfdi-documents';
import { expect, expectHome, PHONE_WIDTH, screenshot, signIn, test } from './fixtures';
import {
  apiPost,
  asAdmin,
  asUser,
  choose,
  placeOrder,
  reviewWorld,
  runSuffix,
  signInAdminApi,
  uploadCfdi,
} from './helpers';

/**
 * The three-way match of invoices and the invoice on the order (decision 0133): the buyer sees her order's
 * invoice, conciliada against what she received, with its XML and the SAT's verification link (on a phone
 * too), and so does her approver; the operator accepts an invoice that bills more than was shipped, with a reason. Each test makes
 * its own client, buyer, order, shipment and CFDI.
 */
const PASSWORD = 'Cotejo#2026';
const RFC = 'EKU9003173C9';

/**
 * A client with an RFC, a product «COT-01» at $100.00 and a buyer whose orders are approved at once; `tag`
 * tells the tests of one attempt (which share its suffix) apart.
 */
async function world(browser: Browser, tag: string) {
  const suffix = runSuffix();
  const comprador = `rosa.${tag}.${suffix}`;
  const autorizador = `${comprador}.aut`;
  const { producto } = await reviewWorld(browser, {
    cliente: `Papelería Cotejo ${tag} ${suffix}`,
    niveles: 0,
    presupuesto: 50_000,
    rfc: RFC,
    categoria: { nombre: 'Papelería', icono: 'IconPencil' },
    producto: { clave_interna: 'COT-01', nombre: 'Carpeta de argollas', precio: 100, existencia: 100 },
    comprador: {
      usuario: comprador,
      correo: `${comprador}@papeleria-cotejo.mx`,
      nombre: 'Rosa Cotejo Ibarra',
    },
    autorizador: {
      usuario: autorizador,
      correo: `${autorizador}@papeleria-cotejo.mx`,
      nombre: 'Héctor Cotejo Salas',
    },
    password: PASSWORD,
    cantidadLimite: 50,
  });
  return { comprador, autorizador, producto };
}

/** The operator ships every unit of the order in one shipment; answers the order's line id. */
async function shipAll(browser: Browser, id: number): Promise<number> {
  return asAdmin(browser, async (admin) => {
    const res = await admin.request.get(`/api/admin/pedidos/${id}`);
    const { pedido } = (await res.json()) as { pedido: { lineas: { id: number; cantidad: number }[] } };
    await apiPost(admin, `/api/surtido/${id}/envios`, {
      lineas: pedido.lineas.map((l) => ({ id: l.id, cantidad: l.cantidad })),
      paqueteria: 'Estafeta',
      guia: '5566778899',
    });
    return pedido.lineas[0]!.id;
  });
}

/** The operator registers an ingreso of `cantidad` carpetas at $100.00 (+ IVA) for the order. */
async function invoice(page: Page, id: number, cantidad: number, folio: string) {
  const importe = cantidad * 100;
  const cfdi = cfdiXml({
    receptorRfc: RFC,
    serie: 'F',
    folio,
    subtotal: importe.toFixed(2),
    traslados: (importe * 0.16).toFixed(2),
    total: (importe * 1.16).toFixed(2),
    conceptos: [
      {
        noIdentificacion: 'COT-01',
        cantidad: String(cantidad),
        valorUnitario: '100.00',
        importe: importe.toFixed(2),
        descripcion: 'Carpeta de argollas',
      },
    ],
  });
  await uploadCfdi(page, id, 'factura.xml', cfdi.xml);
  return cfdi.uuid;
}

test('la compradora ve la factura de su pedido, conciliada, con su XML y el enlace del SAT', async ({
  page,
  browser,
}) => {
  test.slow();
  const w = await world(browser, 'compra');
  await signIn(page, w.comprador, PASSWORD);
  await expectHome(page, 1);
  const pedido = await placeOrder(page, w.producto, 2);
  expect(pedido.status).toBe('aprobado');
  const line = await shipAll(browser, pedido.id);
  // She received both carpetas.
  await apiPost(page, `/api/historial/${pedido.id}/envios/1/recepcion`, {
    lineas: [{ id: line, recibido: 2 }],
  });
  const uuid = await asAdmin(browser, (admin) => invoice(admin, pedido.id, 2, '501'));

  await page.goto(`/usuario/historial/${pedido.id}`);
  const section = page.getByRole('region', { name: 'Facturas' });
  const row = section.getByTestId('factura-fila');
  await expect(row).toHaveCount(1, { timeout: 30_000 });
  await expect(row).toContainText('F-501');
  await expect(row).toContainText(uuid);
  await expect(row).toContainText('$232.00');
  await expect(row.getByTestId('factura-cotejo')).toHaveText('Conciliada');
  const sat = row.getByRole('link', { name: /Verificar en el SAT/ });
  await expect(sat).toHaveAttribute(
    'href',
    `https://verificacfdi.facturaelectronica.sat.gob.mx/default.aspx?id=${uuid}&re=${RFC}&rr=${RFC}&tt=232.0&fe=cHJ1ZWJh`,
  );
  await expect(sat).toHaveAttribute('target', '_blank');
  const xml = await page.request.get(`/api/historial/${pedido.id}/facturas/${uuid}/xml`);
  expect(xml.status()).toBe(200);
  expect(await xml.text()).toContain(uuid);
  await expect(row.getByRole('link', { name: 'XML' })).toHaveAttribute(
    'href',
    `/api/historial/${pedido.id}/facturas/${uuid}/xml`,
  );
  await section.scrollIntoViewIfNeeded();
  await screenshot(page, 'comprador-factura');

  await page.setViewportSize({ width: PHONE_WIDTH, height: 844 });
  await expect(row.getByTestId('factura-cotejo')).toBeVisible();
  // The table takes its phone layout after the resize: the link ends inside the screen once it has.
  await expect
    .poll(async () => {
      const box = await sat.boundingBox();
      return box ? box.x + box.width : Number.POSITIVE_INFINITY;
    })
    .toBeLessThanOrEqual(PHONE_WIDTH);
  await section.scrollIntoViewIfNeeded();
  await screenshot(page, 'comprador-factura-telefono');

  // Her approver sees it on the order too, with the files under the approvers' routes.
  await asUser(browser, w.autorizador, PASSWORD, async (approver) => {
    await approver.goto(`/autorizador/orden/${pedido.id}`);
    const fila = approver.getByRole('region', { name: 'Facturas' }).getByTestId('factura-fila');
    await expect(fila).toContainText(uuid, { timeout: 30_000 });
    await expect(fila.getByTestId('factura-cotejo')).toHaveText('Conciliada');
    await expect(fila.getByRole('link', { name: 'XML' })).toHaveAttribute(
      'href',
      `/api/pedidos/${pedido.id}/facturas/${uuid}/xml`,
    );
  });
});

test('el operador acepta con un motivo la diferencia de una factura que cobra más de lo enviado', async ({
  page,
  browser,
}) => {
  test.slow();
  const w = await world(browser, 'operador');
  await signIn(page, w.comprador, PASSWORD);
  await expectHome(page, 1);
  const pedido = await placeOrder(page, w.producto, 2);
  await shipAll(browser, pedido.id);
  await page.context().clearCookies();
  await signInAdminApi(page);
  // Three carpetas billed, two shipped and not yet received.
  await invoice(page, pedido.id, 3, '502');

  await page.goto(`/administrador/pedidos/${pedido.id}`);
  const section = page.getByRole('region', { name: 'Facturas' });
  const row = section.getByTestId('factura-fila');
  await expect(row).toHaveCount(1, { timeout: 30_000 });
  await expect(row.getByTestId('factura-cotejo')).toHaveText('Con diferencias');
  await expect(row.getByTestId('factura-diferencias')).toContainText('COT-01 Factura 3 piezas, enviadas 2');
  await expect(page.getByRole('region', { name: 'Historial del pedido' })).toContainText(
    'CFDI registrado: Ingreso F-502, con diferencias',
  );

  await row.getByRole('button', { name: 'Aceptar diferencia' }).click();
  const dialog = page.getByRole('dialog', { name: 'Aceptar la diferencia de la factura F-502' });
  await expect(dialog).toContainText('COT-01: Factura 3 piezas, enviadas 2');
  await dialog.getByRole('button', { name: 'Aceptar diferencia' }).click();
  await expect(dialog.getByText('Escribe el motivo por el que aceptas la diferencia.')).toBeVisible();
  await dialog
    .getByRole('textbox', { name: 'Motivo' })
    .fill('La tercera carpeta sale en el siguiente envío; el cliente lo pidió así.');
  await screenshot(page, 'operador-aceptar-diferencia');
  await dialog.getByRole('button', { name: 'Aceptar diferencia' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(row.getByTestId('factura-cotejo')).toHaveText('Diferencia aceptada');
  await expect(row).toContainText('Diferencia aceptada: La tercera carpeta sale en el siguiente envío');
  await expect(row.getByRole('button', { name: 'Aceptar diferencia' })).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Historial del pedido' })).toContainText(
    'Diferencia de la factura F-502 aceptada',
  );
  await section.scrollIntoViewIfNeeded();
  await screenshot(page, 'operador-factura-diferencia-aceptada');

  // An invoice of the shipment alone, uploaded here: matched against what that shipment carried.
  const deEnvio = cfdiXml({
    receptorRfc: RFC,
    serie: 'F',
    folio: '503',
    subtotal: '200.00',
    traslados: '32.00',
    total: '232.00',
    conceptos: [
      {
        noIdentificacion: 'COT-01',
        cantidad: '2',
        valorUnitario: '100.00',
        importe: '200.00',
        descripcion: 'Carpeta de argollas',
      },
    ],
  });
  await choose(page, 'Factura de', /^Envío 1 · /);
  await section.getByLabel('XML del CFDI').setInputFiles({
    name: 'envio-1.xml',
    mimeType: 'application/xml',
    buffer: Buffer.from(deEnvio.xml),
  });
  await section.getByRole('button', { name: 'Registrar CFDI' }).click();
  const second = row.filter({ hasText: 'F-503' });
  await expect(second).toContainText('Ingreso · Envío 1');
  await expect(second.getByTestId('factura-cotejo')).toHaveText('Conciliada');
  await expect(section.getByLabel('Factura de')).toHaveValue('');
});
