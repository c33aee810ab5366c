import { readFile } from 'node:fs/promises';
import type { Browser, Page } from '@playwright/test';
import { MSG } from '../../server/src/messages';
import { expect, expectHome, signIn, test } from './fixtures';
import { expectNotice, placeOrder, reviewWorld, runSuffix } from './helpers';

/**
 * The purchase-order PDF (decision 0056): no download while the order waits; once the authorizer approves
 * it, "Descargar orden de compra" downloads OC-<número>.pdf on the authorizer's page and on the buyer's
 * order detail. The client, product, buyer and approver are this attempt's own.
 */
test.describe.configure({ mode: 'serial' });

const PASSWORD = 'Compras#2026';

interface Data {
  comprador: string;
  autorizador: string;
  producto: number;
}

const data = new Map<string, Data>();

async function ensureData(browser: Browser): Promise<Data> {
  const suffix = runSuffix();
  const known = data.get(suffix);
  if (known) return known;
  const comprador = `lucia.ordonez.${suffix}`;
  const autorizador = `andres.nunez.${suffix}`;
  const { producto } = await reviewWorld(browser, {
    cliente: `Papelera Ordóñez ${suffix}`,
    niveles: 1,
    presupuesto: 20000,
    categoria: { nombre: 'Oficina', icono: 'IconPencil' },
    producto: { clave_interna: 'OFI-01', nombre: 'Cuaderno pequeño', precio: 45.5 },
    comprador: { usuario: comprador, correo: `${comprador}@ordonez.mx`, nombre: 'Lucía Ordóñez' },
    autorizador: { usuario: autorizador, correo: `${autorizador}@ordonez.mx`, nombre: 'Andrés Núñez' },
    password: PASSWORD,
    cantidadLimite: 20,
  });
  const entry = { comprador, autorizador, producto };
  data.set(suffix, entry);
  return entry;
}

/** Clicks the download button and returns the file's name and first bytes. */
async function download(page: Page): Promise<{ name: string; head: string }> {
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Descargar orden de compra' }).click(),
  ]);
  const path = await file.path();
  const bytes = await readFile(path);
  return { name: file.suggestedFilename(), head: bytes.subarray(0, 5).toString('latin1') };
}

test('la orden de compra se descarga del lado del autorizador y del comprador, solo si está aprobado', async ({
  page,
  browser,
}) => {
  const d = await ensureData(browser);
  await signIn(page, d.comprador, PASSWORD);
  await expectHome(page, 1);
  const pedido = await placeOrder(page, d.producto, 2);
  expect(pedido.status).toBe('pendiente');
  const numero = String(pedido.id).padStart(5, '0');
  await page.goto(`/usuario/historial/${pedido.id}`);
  await expect(page.getByTestId('estatus-pedido')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Descargar orden de compra' })).toHaveCount(0);

  await page.context().clearCookies();
  await signIn(page, d.autorizador, PASSWORD);
  await expectHome(page, 2);
  await page.goto(`/autorizador/orden/${pedido.id}`);
  await expect(page.getByRole('link', { name: 'Descargar orden de compra' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Aprobar pedido' }).click();
  await page
    .getByRole('dialog', { name: /¿Aprobar el pedido/ })
    .getByRole('button', { name: 'Aprobar', exact: true })
    .click();
  await expectNotice(page, MSG.pedidoAprobado);
  expect(await download(page)).toEqual({ name: `OC-${numero}.pdf`, head: '%PDF-' });

  await page.context().clearCookies();
  await signIn(page, d.comprador, PASSWORD);
  await expectHome(page, 1);
  await page.goto(`/usuario/historial/${pedido.id}`);
  expect(await download(page)).toEqual({ name: `OC-${numero}.pdf`, head: '%PDF-' });
});
