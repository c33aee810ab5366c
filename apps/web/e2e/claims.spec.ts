import type { Page } from '@playwright/test';
import { expect, expectHome, PHONE_WIDTH, screenshot, signIn, test } from './fixtures';
import {
  apiPost,
  asAdmin,
  assignAll,
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
  signInAdmin,
  testFile,
} from './helpers';

/**
 * Receipts per shipment and claims (issue 41 items 4–5, decision 0127): the buyer's approved order is
 * shipped; the buyer confirms the shipment with one toner damaged (a photo uploaded through the dialog) and
 * asks for a credit, which opens claim 1 «Abierto»; the operator finds it in «Reclamos» and accepts it with
 * the credit; the buyer sees it «Aceptado» with the amount, the line's credited unit, and the month's budget
 * with that amount released. Then a claim by hand, refused with a reason the buyer reads. The client has no
 * approval levels (its purchases are approved at once); its data is this attempt's own.
 */
const PASSWORD = 'Reclamos#2026';
/** 2 toners at $500 and 5 packs of paper at $120, with IVA: $1,856.00; one toner with IVA: $580.00. */
const TOTAL = 185_600;
const TONER = 58_000;
const BUDGET = 1_000_000;

const numero = (id: number) => `#${String(id).padStart(5, '0')}`;

/** centavos → '$1,234.50' as the screens show money (before ' MXN'). */
function pesos(centavos: number): string {
  const entero = Math.trunc(centavos / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `$${entero}.${String(centavos % 100).padStart(2, '0')}`;
}

/** A stat card's figure on the buyer's home, in centavos. */
async function stat(page: Page, label: string): Promise<number> {
  const text = await page.getByRole('group', { name: label, exact: true }).getByTestId('valor').innerText();
  return Math.round(Number(text.replace(/[^\d.-]/g, '')) * 100);
}

test('el comprador recibe un envío con un producto dañado y pide crédito; el operador lo acepta y el presupuesto lo devuelve; un reclamo rechazado', async ({
  page,
  browser,
}) => {
  test.slow();
  const suffix = runSuffix();
  const comprador = `lucia.salinas.${suffix}`;
  const ids = await asAdmin(browser, async (admin) => {
    const idCliente = await createClient(admin, {
      nombre: `Refacciones Salinas ${suffix}`,
      presupuesto_default: BUDGET / 100,
      limite_de_compras: -1,
      cantidad_autorizadores: 0,
    });
    await openAccessWeek(admin, idCliente);
    const categoria = await createCategory(admin, idCliente, 'Oficina', 'IconPrinter');
    const product = (clave_interna: string, nombre: string, precio: number) =>
      createProduct(admin, {
        id_cliente: idCliente,
        id_categoria: categoria,
        clave_interna,
        nombre,
        precio,
        unidad_de_medida: 'Pieza',
        existencia: 50,
      });
    const toner = await product('OF-01', 'Tóner negro', 500);
    const hojas = await product('OF-02', 'Hojas carta', 120);
    const idUser = await createAccount(
      admin,
      {
        id_cliente: idCliente,
        usuario: comprador,
        correo: `${comprador}@refacciones-salinas.mx`,
        nombre: 'Lucía Salinas Ortega',
        rol: 1,
        presupuesto_default: BUDGET / 100,
      },
      PASSWORD,
    );
    await assignAll(admin, idUser, 20);
    return { toner, hojas };
  });

  // The buyer's purchase, approved at once: 2 toners and 5 packs of paper.
  await signIn(page, comprador, PASSWORD);
  await expectHome(page, 1);
  const orden = [
    { id: ids.toner, cantidad: 2 },
    { id: ids.hojas, cantidad: 5 },
  ];
  for (const item of orden) await apiPost(page, '/api/carrito/nuevo_item', { item });
  const { pedido } = await apiPost<{ pedido: { id: number; status: string } }>(page, '/api/compra', {
    orden,
    fecha: businessToday(),
  });
  expect(pedido.status).toBe('aprobado');
  const id = pedido.id;
  await page.goto('/usuario/principal');
  const usedBefore = await stat(page, 'Utilizado');
  const leftBefore = await stat(page, 'Restante');
  expect(usedBefore).toBe(TOTAL);
  expect(leftBefore).toBe(BUDGET - TOTAL);

  // The operator ships everything in one shipment (the shipment's screens have their own spec).
  await asAdmin(browser, async (admin) => {
    const res = await admin.request.get(`/api/admin/pedidos/${id}`);
    const { pedido: detail } = (await res.json()) as {
      pedido: { lineas: { id: number; cantidad: number }[] };
    };
    await apiPost(admin, `/api/surtido/${id}/envios`, {
      lineas: detail.lineas.map((l) => ({ id: l.id, cantidad: l.cantidad })),
      paqueteria: 'Estafeta',
      guia: '7788990011',
    });
  });

  // The buyer confirms the shipment: one toner arrived damaged, with a photo, asking for a credit.
  await page.goto(`/usuario/historial/${id}`);
  const envio = page.getByTestId('envio');
  await expect(envio).toHaveCount(1, { timeout: 30_000 });
  await envio.getByRole('button', { name: 'Confirmar recepción del envío 1' }).click();
  const receipt = page.getByRole('dialog', { name: 'Confirmar recepción del envío 1' });
  await expect(receipt.getByRole('textbox', { name: 'Recibidas en buen estado de Tóner negro' })).toHaveValue(
    '2',
  );
  await expect(receipt.getByText('Enviadas: 2 · Pieza')).toBeVisible();
  await expect(receipt.getByRole('radiogroup', { name: '¿Qué solicitas?' })).toHaveCount(0);
  await receipt.getByRole('textbox', { name: 'Recibidas en buen estado de Tóner negro' }).fill('1');
  await expect(receipt.getByText('Con las diferencias se abrirá un reclamo')).toBeVisible();
  // Sent without a reason or a resolution: both are asked for, in Spanish.
  await receipt.getByRole('button', { name: 'Confirmar y abrir reclamo' }).click();
  await expect(receipt.getByText('Elige el motivo: faltante, dañado o producto equivocado.')).toBeVisible();
  await expect(receipt.getByText('Elige qué solicitas: reposición o crédito.')).toBeVisible();
  await choose(page, 'Motivo de Tóner negro', 'Dañado');
  await receipt.getByRole('radio', { name: 'Crédito' }).check();
  await receipt
    .getByRole('textbox', { name: 'Nota (opcional)' })
    .fill('La caja del tóner llegó rota y manchada.');
  // A file that only claims to be a PNG: the server's refusal shows on its card, which is then removed.
  await receipt.getByLabel('Archivos de fotos').setInputFiles({
    name: 'falsa.png',
    mimeType: 'image/png',
    buffer: testFile('one-pixel.gif'),
  });
  const fake = receipt.getByTestId('foto-adjunta').filter({ hasText: 'falsa.png' });
  await expect(fake).toContainText('Solo se permiten fotos JPG, PNG o HEIC.');
  await fake.getByRole('button', { name: 'Quitar falsa.png' }).click();
  await expect(fake).toHaveCount(0);
  await receipt.getByLabel('Archivos de fotos').setInputFiles({
    name: 'toner-danado.png',
    mimeType: 'image/png',
    buffer: testFile('gradient-120.png'),
  });
  await expect(receipt.getByTestId('foto-adjunta')).toContainText('Lista');
  // Tall enough for the whole dialog, the photo included; then at phone width, full screen.
  await page.setViewportSize({ width: 1280, height: 1200 });
  await scrollDialogTop(page);
  await screenshot(page, 'reclamos-recepcion-dialogo');
  await page.setViewportSize({ width: PHONE_WIDTH, height: 844 });
  await scrollDialogTop(page);
  await screenshot(page, 'reclamos-recepcion-dialogo-390');
  await page.setViewportSize({ width: 1280, height: 800 });
  await receipt.getByRole('button', { name: 'Confirmar y abrir reclamo' }).click();
  await expect(receipt).toBeHidden();
  await expect(envio.getByTestId('envio-recibido')).toContainText('Recibido el');
  await expect(envio.getByTestId('envio-recibido')).toContainText('Lucía Salinas Ortega');
  await expect(envio.getByTestId('recepcion-diferencia')).toHaveText(
    'Tóner negro: recibidas 1 de 2 — Dañado',
  );
  await expect(envio).toContainText('La caja del tóner llegó rota y manchada.');
  await expectPhotosLoaded(envio);
  const reclamos = page.getByRole('region', { name: 'Reclamos' });
  const first = reclamos.getByRole('article', { name: 'Reclamo 1' });
  await expect(first.getByTestId('reclamo-estado')).toHaveText('Abierto');
  await expect(first.getByTestId('reclamo-linea')).toHaveText('1 × Tóner negro — Dañado');
  await expect(first).toContainText('Solicita: Crédito');
  await expect(first.getByTestId('foto').first()).toHaveAttribute(
    'href',
    new RegExp(`^/api/historial/${id}/fotos/\\d+$`),
  );
  await expect(page.getByRole('region', { name: 'Historial del pedido' })).toContainText('Recepción');
  await expect(envio.getByRole('button', { name: 'Confirmar recepción del envío 1' })).toHaveCount(0);

  // The operator: «Reclamos», the pending claim with its order, client, buyer and photo; accepted with credit.
  await page.context().clearCookies();
  await signInAdmin(page);
  await page
    .getByRole('navigation', { name: 'Menú principal' })
    .getByRole('link', { name: 'Reclamos' })
    .click();
  await expect(page.getByRole('heading', { name: 'Reclamos', level: 1 })).toBeVisible();
  const row = page.getByTestId('reclamo-fila').filter({ hasText: `Pedido ${numero(id)}` });
  await expect(row).toHaveCount(1, { timeout: 30_000 });
  await expect(row).toContainText(`Refacciones Salinas ${suffix} · Lucía Salinas Ortega`);
  await expect(row.getByTestId('reclamo-estado')).toHaveText('Abierto');
  await expect(row.getByTestId('foto').first()).toHaveAttribute(
    'href',
    new RegExp(`^/api/surtido/${id}/fotos/\\d+$`),
  );
  await expectPhotosLoaded(row);
  await screenshot(page, 'reclamos-operador');
  await page.setViewportSize({ width: PHONE_WIDTH, height: 844 });
  await expect(
    row.getByRole('button', { name: `Aceptar el reclamo 1 del pedido ${numero(id)}` }),
  ).toBeVisible();
  await screenshot(page, 'reclamos-operador-390');
  await page.setViewportSize({ width: 1280, height: 800 });
  await row.getByRole('button', { name: `Aceptar el reclamo 1 del pedido ${numero(id)}` }).click();
  const accept = page.getByRole('dialog', { name: `Aceptar: Reclamo 1 del pedido ${numero(id)}` });
  // What the buyer asked for comes chosen.
  await expect(accept.getByRole('radio', { name: 'Crédito' })).toBeChecked();
  await accept.getByRole('button', { name: 'Aceptar reclamo' }).click();
  await expect(accept).toBeHidden();
  await expectNotice(page, `Reclamo 1 del pedido ${numero(id)}`);
  // No longer pending; under «Todos» it is «Aceptado».
  await expect(row).toHaveCount(0);
  await choose(page, 'Estado', 'Todos');
  await expect(row.getByTestId('reclamo-estado')).toHaveText('Aceptado');
  await expect(row.getByTestId('reclamo-credito')).toContainText(pesos(TONER));
  await expect(row.getByRole('button', { name: /Aceptar el reclamo/ })).toHaveCount(0);

  // The buyer: claim 1 «Aceptado» with the credit, the line's credited unit, and the budget released.
  await page.context().clearCookies();
  await signIn(page, comprador, PASSWORD);
  await expectHome(page, 1);
  expect(await stat(page, 'Utilizado')).toBe(TOTAL - TONER);
  expect(await stat(page, 'Restante')).toBe(BUDGET - TOTAL + TONER);
  await page.goto(`/usuario/historial/${id}`);
  await expect(first.getByTestId('reclamo-estado')).toHaveText('Aceptado');
  await expect(first.getByTestId('reclamo-resolucion')).toHaveText('Se otorgó: Crédito');
  await expect(first.getByTestId('reclamo-credito')).toContainText(pesos(TONER));
  const toner = page.getByTestId('linea-pedido').filter({ hasText: 'Tóner negro' });
  await expect(toner.getByTestId('linea-acreditado')).toHaveText('1 acreditado por reclamo');
  await expect(page.getByTestId('detalle-total')).toContainText(pesos(TOTAL - TONER));

  // A claim by hand: nothing chosen is refused in Spanish; then one pack of paper missing, a replacement.
  await clearNotifications(page);
  await page.getByRole('button', { name: 'Abrir reclamo' }).click();
  const claim = page.getByRole('dialog', { name: `Abrir reclamo del pedido ${numero(id)}` });
  // Of the toner, the unit received in good condition is left to claim; the credited one is claimed.
  await expect(claim.getByTestId('reclamo-linea-campos').filter({ hasText: 'Tóner negro' })).toContainText(
    'Puedes reclamar hasta 1',
  );
  await claim.getByRole('button', { name: 'Abrir reclamo' }).click();
  await expect(claim.getByText('Indica al menos una unidad que reclamas.')).toBeVisible();
  await expect(claim.getByText('Elige qué solicitas: reposición o crédito.')).toBeVisible();
  await claim.getByRole('textbox', { name: 'Cantidad reclamada de Hojas carta' }).fill('1');
  await choose(page, 'Motivo de Hojas carta', 'Faltante');
  await claim.getByRole('radio', { name: 'Reposición' }).check();
  await claim.getByRole('button', { name: 'Abrir reclamo' }).click();
  await expect(claim).toBeHidden();
  const second = reclamos.getByRole('article', { name: 'Reclamo 2' });
  await expect(second.getByTestId('reclamo-estado')).toHaveText('Abierto');
  await expect(second.getByTestId('reclamo-linea')).toHaveText('1 × Hojas carta — Faltante');
  await clearNotifications(page);
  await screenshot(page, 'reclamos-pedido-comprador');
  await page.setViewportSize({ width: PHONE_WIDTH, height: 844 });
  await expect(second).toBeVisible();
  await screenshot(page, 'reclamos-pedido-comprador-390');
  await page.getByRole('button', { name: 'Abrir reclamo' }).click();
  await expect(claim).toBeVisible();
  await screenshot(page, 'reclamos-abrir-390');
  await claim.getByRole('button', { name: 'Cancelar' }).click();
  await page.setViewportSize({ width: 1280, height: 800 });

  // The operator refuses it from the order's page, with the reason.
  await page.context().clearCookies();
  await signInAdmin(page);
  await page.goto(`/administrador/pedidos/${id}`);
  const onOrder = page.getByRole('region', { name: 'Reclamos' }).getByRole('article', { name: 'Reclamo 2' });
  await onOrder.getByRole('button', { name: `Rechazar el reclamo 2 del pedido ${numero(id)}` }).click();
  const refuse = page.getByRole('dialog', { name: `Rechazar: Reclamo 2 del pedido ${numero(id)}` });
  await refuse.getByRole('button', { name: 'Rechazar reclamo' }).click();
  await expect(refuse.getByText('Escribe el motivo del rechazo (hasta 1000 caracteres).')).toBeVisible();
  await refuse
    .getByRole('textbox', { name: 'Motivo del rechazo' })
    .fill('La guía firmada registra los 5 paquetes completos.');
  await refuse.getByRole('button', { name: 'Rechazar reclamo' }).click();
  await expect(refuse).toBeHidden();
  await expect(onOrder.getByTestId('reclamo-estado')).toHaveText('Rechazado');

  // The buyer reads the refusal and its reason.
  await page.context().clearCookies();
  await signIn(page, comprador, PASSWORD);
  await expectHome(page, 1);
  await page.goto(`/usuario/historial/${id}`);
  await expect(second.getByTestId('reclamo-estado')).toHaveText('Rechazado');
  await expect(second.getByTestId('reclamo-respuesta')).toHaveText(
    'Motivo del rechazo: La guía firmada registra los 5 paquetes completos.',
  );
  await expect(page.getByRole('region', { name: 'Historial del pedido' })).toContainText(
    'Reclamo 2 rechazado',
  );

  // A third claim (by the API: its screens are above), accepted with a replacement: the shipments list
  // shows it as «Reposición», to be received like any other.
  const detail = await page.request.get(`/api/historial/${id}`);
  const { pedido: mine } = (await detail.json()) as { pedido: { lineas: { id: number; nombre: string }[] } };
  const hojas = mine.lineas.find((l) => l.nombre === 'Hojas carta');
  const { reclamo } = await apiPost<{ reclamo: { id: number } }>(page, `/api/historial/${id}/reclamos`, {
    lineas: [{ id: hojas?.id, cantidad: 2, motivo: 'equivocado' }],
    resolucion: 'reposicion',
  });
  await asAdmin(browser, (admin) =>
    apiPost(admin, `/api/surtido/reclamos/${reclamo.id}`, { accion: 'aceptar', resolucion: 'reposicion' }),
  );
  await page.reload();
  const third = reclamos.getByRole('article', { name: 'Reclamo 3' });
  await expect(third.getByTestId('reclamo-estado')).toHaveText('Aceptado');
  await expect(third.getByTestId('reclamo-reposicion')).toHaveText('Reposición: envío 2');
  await expect(envio).toHaveCount(2);
  await expect(envio.nth(1).getByTestId('envio-reposicion')).toHaveText('Reposición');
  await expect(envio.nth(1)).toContainText('2 × Hojas carta');
  await expect(envio.nth(1).getByRole('button', { name: 'Confirmar recepción del envío 2' })).toBeVisible();
  await expect(envio.nth(1).getByTestId('descargar-remision')).toHaveAttribute(
    'href',
    `/api/historial/${id}/envios/2/remision`,
  );
  // The replacement is not charged to the budget again.
  await page.goto('/usuario/principal');
  expect(await stat(page, 'Utilizado')).toBe(TOTAL - TONER);
});
