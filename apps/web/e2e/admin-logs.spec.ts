import { createHash } from 'node:crypto';
import {
  clearNotifications,
  createCategory,
  createClient,
  createProduct,
  runSuffix,
  signInAdmin,
} from './admin-support';
import { expect, screenshot, signIn, test } from './fixtures';
import { E2E_BASE_URL } from './ports';

/**
 * The system log's filters, end to end: the entries it looks for are this run's own (a failed sign-in of
 * an unknown name, a product created through the API); other specs write entries meanwhile.
 */

const CLAVE = () => `TOR-${runSuffix()}-01`;

test('logs: filtros, N/A sin usuario y «Copy Metadata»', async ({ page, browser }) => {
  test.setTimeout(180_000);
  // A failed sign-in of an unknown user leaves an entry without a user id.
  const stranger = await browser.newContext({ baseURL: E2E_BASE_URL, locale: 'es-MX' });
  const strangerPage = await stranger.newPage();
  await signIn(strangerPage, `nadie-${runSuffix()}`, 'NoExiste#2026');
  await expect(strangerPage.getByRole('dialog')).toBeVisible();
  await stranger.close();

  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: E2E_BASE_URL });
  await signInAdmin(page);
  // A product of this run's own, created by the administrator: the entry the filters look for.
  const idCliente = await createClient(page, {
    nombre: `Tornillería Robles ${runSuffix()}`,
    presupuesto_default: 5000,
    limite_de_compras: -1,
  });
  await createProduct(page, {
    id_cliente: idCliente,
    id_categoria: await createCategory(page, idCliente, 'Tornillería', 'IconTool'),
    clave_interna: CLAVE(),
    nombre: 'Tornillo hexagonal 1/4 x 2"',
    precio: 3.5,
  });
  // More than a page of entries of its own, whichever specs ran before on this server.
  for (let i = 1; i <= 12; i++) await createCategory(page, idCliente, `Herrajes ${i}`, 'IconTool');
  await page.goto('/administrador/logs');
  await expect(page.getByRole('heading', { name: 'Registros del sistema', level: 1 })).toBeVisible();
  const table = page.getByRole('table', { name: 'Registros del sistema' });
  for (const column of ['#', 'ID de usuario', 'Tipo de evento', 'Descripción', 'Metadatos']) {
    await expect(table.getByRole('columnheader', { name: column, exact: true })).toBeVisible();
  }
  await expect(page.getByTestId('log-row')).toHaveCount(15);
  // Newest first.
  const ids = await page.getByTestId('log-row').locator('td:first-child').allTextContents();
  const numbers = ids.map(Number);
  expect([...numbers].sort((a, b) => b - a)).toEqual(numbers);

  // By event type.
  await page.getByRole('combobox', { name: 'Tipo de evento', exact: true }).click();
  await page.getByRole('option', { name: 'login_fallido', exact: true }).click();
  await expect(page).toHaveURL(/tipo=login_fallido/);
  // A name that is no user is logged as a fingerprint (what was typed may be a password), never as typed.
  const fingerprint = createHash('sha256').update(`nadie-${runSuffix()}`).digest('hex').slice(0, 12);
  const stranded = page.getByTestId('log-row').filter({ hasText: `huella ${fingerprint}` });
  await expect(stranded.first()).toBeVisible();
  await expect(page.getByTestId('log-row').filter({ hasText: `nadie-${runSuffix()}` })).toHaveCount(0);
  await expect(stranded.first().locator('td').nth(1)).toHaveText('N/A');

  // By type and user: the products this run created, by the administrator.
  await page.getByRole('combobox', { name: 'Tipo de evento', exact: true }).fill('producto_creado');
  await page.getByRole('option', { name: 'producto_creado', exact: true }).click();
  const created = page.getByTestId('log-row').filter({ hasText: CLAVE() });
  await expect(created).toHaveCount(1);
  const adminId = (await created.locator('td').nth(1).locator('p').first().textContent())!.trim();
  expect(adminId).toMatch(/^\d+$/);
  await page.getByLabel('ID de usuario').fill(adminId);
  await expect(page).toHaveURL(new RegExp(`usuario=${adminId}`));
  for (const cell of await page
    .getByTestId('log-row')
    .locator('td:nth-child(2) p:first-child')
    .allTextContents()) {
    expect(cell.trim()).toBe(adminId);
  }

  // By date range (today, in the business zone): the entry is still there; a range in the past empties it.
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Mexico_City' }).format(new Date());
  const url = new URL(page.url());
  url.searchParams.set('desde', today);
  url.searchParams.set('hasta', today);
  await page.goto(url.toString());
  await expect(created).toHaveCount(1);
  const [y, m, d] = today.split('-');
  await expect(page.getByRole('button', { name: 'Periodo' })).toContainText(`${d}/${m}/${y}`);
  url.searchParams.set('desde', '2020-01-01');
  url.searchParams.set('hasta', '2020-01-31');
  await page.goto(url.toString());
  await expect(page.getByText('Ningún registro coincide con los filtros')).toBeVisible();
  url.searchParams.set('desde', today);
  url.searchParams.set('hasta', today);
  await page.goto(url.toString());

  // Copy Metadata.
  await created.getByRole('button', { name: /Copy Metadata/ }).click();
  await expect(page.getByText('Metadata copiada al portapapeles!')).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  const metadata = JSON.parse(copied) as Record<string, unknown>;
  expect(metadata.clave_interna).toBe(CLAVE());
  expect(metadata.id_cliente).toBe(idCliente);

  await page.getByRole('button', { name: 'Limpiar filtros' }).click();
  await expect(page).not.toHaveURL(/tipo=/);
  await expect(page.getByTestId('log-row')).toHaveCount(15);
  await clearNotifications(page);
  await screenshot(page, 'admin-logs');
});
