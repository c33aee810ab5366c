import { cfdiXml } from '../../server/src/test/cfdi-documents';
import { expect, expectHome, PHONE_WIDTH, screenshot, signIn, test } from './fixtures';
import { placeOrder, reviewWorld, runSuffix, signInAdminApi, testFile } from './helpers';

/**
 * CFDI invoices received (decision 0131): on an approved order's page the operator uploads a stamped CFDI
 * whose receptor is another RFC (the server's refusal shows in its words), then the right one with its PDF:
 * «Facturas» lists it with its serie-folio, UUID, total, saldo and state, the XML downloads as uploaded and the
 * order's history says so. The client, its buyer and the order are this attempt's own.
 */
const PASSWORD = 'Facturas#2026';
const RFC = 'EKU9003173C9';

test('el operador sube un CFDI: el de otro RFC se rechaza con el motivo; el bueno queda en «Facturas»', async ({
  page,
  browser,
}) => {
  test.slow();
  const suffix = runSuffix();
  const comprador = `olga.fierro.${suffix}`;
  const { producto } = await reviewWorld(browser, {
    cliente: `Ferretería Fierro ${suffix}`,
    niveles: 0,
    presupuesto: 50_000,
    rfc: RFC,
    categoria: { nombre: 'Ferretería', icono: 'IconTool' },
    producto: {
      clave_interna: 'FER-01',
      nombre: 'Clavos 2 pulgadas',
      precio: 500,
      unidad_de_medida: 'Caja',
      existencia: 100,
    },
    comprador: {
      usuario: comprador,
      correo: `${comprador}@ferreteria-fierro.mx`,
      nombre: 'Olga Fierro Luna',
    },
    password: PASSWORD,
    cantidadLimite: 50,
  });

  // The buyer's purchase, approved at once (no approval levels).
  await signIn(page, comprador, PASSWORD);
  await expectHome(page, 1);
  const pedido = await placeOrder(page, producto, 2);
  expect(pedido.status).toBe('aprobado');

  await page.context().clearCookies();
  await signInAdminApi(page);
  await page.goto(`/administrador/pedidos/${pedido.id}`);
  const section = page.getByRole('region', { name: 'Facturas' });
  await expect(section.getByText('Este pedido no tiene facturas registradas.')).toBeVisible({
    timeout: 30_000,
  });

  // A CFDI issued to público en general: refused, the server's words above the button.
  const otro = cfdiXml({ receptorRfc: 'XAXX010101000' });
  await section.getByLabel('XML del CFDI').setInputFiles({
    name: 'publico.xml',
    mimeType: 'application/xml',
    buffer: Buffer.from(otro.xml),
  });
  await section.getByRole('button', { name: 'Registrar CFDI' }).click();
  const refusal = section.getByRole('alert');
  await expect(refusal).toContainText(`El RFC del receptor (XAXX010101000) no es el del cliente (${RFC}).`);
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, 'operador-facturas-rechazo');

  // The right one, with its PDF: listed, downloadable, in the order's history.
  const buena = cfdiXml({ receptorRfc: RFC, serie: 'F', folio: '2031' });
  await section.getByLabel('XML del CFDI').setInputFiles({
    name: 'factura.xml',
    mimeType: 'application/xml',
    buffer: Buffer.from(buena.xml),
  });
  await section.getByLabel('PDF de la factura').setInputFiles({
    name: 'factura.pdf',
    mimeType: 'application/pdf',
    buffer: testFile('manual.pdf'),
  });
  await section.getByRole('button', { name: 'Registrar CFDI' }).click();
  const row = section.getByTestId('factura-fila');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('F-2031');
  await expect(row).toContainText(buena.uuid);
  await expect(row).toContainText('01/12/2026');
  await expect(row).toContainText('$1,160.00');
  await expect(row).not.toContainText('MXN');
  await expect(row).toContainText('Por pagar');
  await expect(refusal).toHaveCount(0);
  const xml = await page.request.get(`/api/surtido/${pedido.id}/facturas/${buena.uuid}/xml`);
  expect(await xml.text()).toBe(buena.xml);
  await expect(row.getByRole('link', { name: 'PDF' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Historial del pedido' })).toContainText(
    'CFDI registrado: Ingreso F-2031',
  );
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, 'operador-facturas');

  await page.setViewportSize({ width: PHONE_WIDTH, height: 844 });
  await expect(row).toContainText('F-2031');
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, 'operador-facturas-telefono');
});
