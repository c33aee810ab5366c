import type { Browser, Page } from '@playwright/test';
import { expect, expectHome, screenshot, signIn, test } from './fixtures';
import {
  apiPost,
  asAdmin,
  assignAll,
  businessToday,
  createAccount,
  createCategory,
  createClient,
  createProduct,
  type NewUser,
  openAccessWeek,
  runSuffix,
  xsrfHeaders,
} from './helpers';
import { e2eBaseUrl } from './ports';

/**
 * Bulk approval from the order list (issue 14, items 2 and 3): three pendiente orders, one of whose buyer
 * had the budget lowered after buying (flagged "Excede presupuesto", never sent for approval); the
 * authorizer selects the page, confirms the count and the sum, and reads the per-order summary. The client,
 * its product, the buyers and the authorizer are this attempt's own.
 */

const PASSWORD = 'Lote#2026';

interface Data {
  autorizador: string;
  /** Two orders that fit and one over budget. */
  pedidos: { caben: number[]; excede: number };
}

const data = new Map<string, Data>();

async function buy(browser: Browser, usuario: string, producto: number, cantidades: number[]) {
  const context = await browser.newContext({
    baseURL: e2eBaseUrl(),
    locale: 'es-MX',
    timezoneId: 'America/Mexico_City',
  });
  const ids: number[] = [];
  try {
    const page = await context.newPage();
    await signIn(page, usuario, PASSWORD);
    // Signing in hashes a password: on a busy machine it takes its time.
    await expect(page).toHaveURL(/\/usuario\/principal$/, { timeout: 60_000 });
    for (const cantidad of cantidades) {
      await apiPost(page, '/api/carrito/nuevo_item', { item: { id: producto, cantidad } });
      const compra = await apiPost<{ pedido: { id: number } }>(page, '/api/compra', {
        orden: [{ id: producto, cantidad }],
        fecha: businessToday(),
      });
      ids.push(compra.pedido.id);
    }
  } finally {
    await context.close();
  }
  return ids;
}

async function ensureData(browser: Browser): Promise<Data> {
  const suffix = runSuffix();
  const known = data.get(suffix);
  if (known) return known;
  const autorizador = `rosa.ibarra.${suffix}`;
  const compradora = `ana.leal.${suffix}`;
  const comprador = `luis.vega.${suffix}`;
  const made = await asAdmin(browser, async (admin) => {
    const idCliente = await createClient(admin, {
      nombre: `Papelera Ibarra ${suffix}`,
      presupuesto_default: 5000,
      limite_de_compras: -1,
    });
    await openAccessWeek(admin, idCliente);
    const oficina = await createCategory(admin, idCliente, 'Oficina', 'IconPaperclip');
    const hojas = await createProduct(admin, {
      id_cliente: idCliente,
      id_categoria: oficina,
      clave_interna: 'OF-20',
      nombre: 'Hojas carta, caja',
      precio: 450,
      unidad_de_medida: 'Caja',
    });
    const buyer = (usuario: string, nombre: string, presupuesto: number): NewUser => ({
      id_cliente: idCliente,
      usuario,
      correo: `${usuario}@ibarra.mx`,
      nombre,
      rol: 1,
      presupuesto_default: presupuesto,
      limite_de_compras: -1,
    });
    const ana = buyer(compradora, 'Ana Leal Ruiz', 5000);
    const luis = buyer(comprador, 'Luis Vega Soto', 2000);
    const idAna = await createAccount(admin, ana, PASSWORD);
    const idLuis = await createAccount(admin, luis, PASSWORD);
    await assignAll(admin, idAna, 10);
    await assignAll(admin, idLuis, 10);
    await createAccount(
      admin,
      {
        id_cliente: idCliente,
        usuario: autorizador,
        correo: `${autorizador}@ibarra.mx`,
        nombre: 'Rosa Ibarra Paz',
        rol: 2,
      },
      PASSWORD,
    );
    return { hojas, idLuis, luis };
  });
  const caben = await buy(browser, compradora, made.hojas, [1, 2]);
  const [excede] = await buy(browser, comprador, made.hojas, [3]);
  // Luis's budget is lowered after he bought: $1,566 of orders on a $1,000 budget.
  await asAdmin(browser, async (admin) => {
    const { correo, ...fields } = made.luis;
    const res = await admin.request.put(`/api/usuarios/${made.idLuis}`, {
      headers: await xsrfHeaders(admin),
      data: {
        ...fields,
        user_id: correo,
        presupuesto_default: 1000,
        direccion_entrega: 'Av. Constitución 120, Monterrey',
        active_week: 1,
        entrega_week: 1,
      },
    });
    expect(res.ok(), await res.text()).toBe(true);
  });
  const entry = { autorizador, pedidos: { caben, excede: excede! } };
  data.set(suffix, entry);
  return entry;
}

const numero = (id: number) => `#${String(id).padStart(5, '0')}`;
const row = (page: Page, id: number) =>
  page.getByRole('row').filter({ has: page.getByText(numero(id), { exact: true }) });

test('aprobar en lote tres pedidos con uno que excede el presupuesto: marcado, no se envía, resumen por pedido', async ({
  page,
  browser,
}) => {
  test.setTimeout(300_000);
  const d = await ensureData(browser);
  await signIn(page, d.autorizador, PASSWORD);
  await expect(page).toHaveURL(/\/autorizador\/principal$/, { timeout: 60_000 });
  await expectHome(page, 2);
  const [a, b] = d.pedidos.caben as [number, number];

  // The list: the sum of the filter, each row's budget after it, the over-budget row flagged.
  await expect(page.getByText('Mostrando 1–3 de 3 pedidos')).toBeVisible();
  await expect(page.getByTestId('suma-filtro')).toHaveText('Suma: $3,132.00 MXN');
  await expect(row(page, d.pedidos.excede).getByText('Excede presupuesto')).toBeVisible();
  await expect(row(page, d.pedidos.excede).getByText('-$566.00')).toBeVisible();
  await expect(row(page, a).getByText('Excede presupuesto')).toHaveCount(0);
  await expect(row(page, a).getByText('$3,434.00')).toBeVisible();

  // Seleccionar página: three selected, two to approve, the third only for cancelling.
  await page.getByLabel('Seleccionar página').check();
  const bar = page.getByTestId('barra-lote');
  await expect(bar).toContainText('3 pedidos seleccionados');
  await expect(bar).toContainText('1 excede el presupuesto de su usuario: solo se puede cancelar.');
  await expect(bar.getByRole('button', { name: 'Cancelar (3)' })).toBeVisible();
  const aprobar = bar.getByRole('button', { name: 'Aprobar (2) · $1,566.00' });
  await expect(aprobar).toBeVisible();
  await screenshot(page, 'autorizador-lote-seleccion');

  await aprobar.click();
  const dialog = page.getByRole('dialog', { name: /^¿Aprobar 2 pedidos por \$1,566\.00/ });
  // In the list's order (newest first).
  await expect(dialog).toContainText(`${numero(b)}, ${numero(a)}`);
  await expect(dialog).toContainText('Quedarán aprobados y se avisará a cada usuario por correo.');
  await screenshot(page, 'autorizador-lote-confirmar');
  await dialog.getByRole('button', { name: 'Aprobar 2' }).click();
  await expect(dialog).toBeHidden();

  // The summary, order by order; the list now holds only the over-budget order.
  const summary = page.getByTestId('resumen-lote');
  await expect(summary).toContainText('2 pedidos aprobados');
  await expect(summary.getByRole('listitem')).toHaveText([
    new RegExp(`${numero(b)}\\s*Aprobado`),
    new RegExp(`${numero(a)}\\s*Aprobado`),
  ]);
  await expect(page.getByText('Mostrando 1–1 de 1 pedido')).toBeVisible();
  await expect(page.getByTestId('suma-filtro')).toHaveText('Suma: $1,566.00 MXN');
  await expect(bar).toBeHidden();
  await screenshot(page, 'autorizador-lote-resumen');

  // The over-budget order can still be cancelled in bulk, with a reason.
  await row(page, d.pedidos.excede).getByRole('checkbox').check();
  await bar.getByRole('button', { name: 'Cancelar (1)' }).click();
  const cancel = page.getByRole('dialog', { name: /^¿Cancelar 1 pedido por \$1,566\.00/ });
  await cancel.getByLabel('Motivo (opcional)').fill('Excede presupuesto');
  await cancel.getByRole('button', { name: 'Cancelar 1' }).click();
  await expect(summary).toContainText('1 pedido cancelado');
  await expect(page.getByText('No tienes pedidos por atender')).toBeVisible();

  // Sorting and a date range live in the URL.
  await page.getByRole('button', { name: 'Ver todos los pedidos' }).click();
  // The Total header sorts (from the largest first); its aria-sort says so.
  const totalHeader = page.getByRole('columnheader', { name: 'Total', exact: true });
  await totalHeader.getByRole('button').click();
  await expect(page).toHaveURL(/orden=total_desc/);
  await expect(totalHeader).toHaveAttribute('aria-sort', 'descending');
  const url = new URL(page.url());
  url.searchParams.set('desde', businessToday());
  url.searchParams.set('hasta', businessToday());
  await page.goto(url.toString());
  const [y, m, dd] = businessToday().split('-');
  await expect(page.getByRole('button', { name: 'Periodo' })).toContainText(`${dd}/${m}/${y}`);
  await expect(page.getByText('Mostrando 1–3 de 3 pedidos')).toBeVisible();
  await expect(page.getByTestId('suma-filtro')).toHaveText('Suma: $3,132.00 MXN');
  await page.reload();
  await expect(page.getByRole('columnheader', { name: 'Total', exact: true })).toHaveAttribute(
    'aria-sort',
    'descending',
  );
  await expect(page.getByRole('row').nth(1)).toContainText(numero(d.pedidos.excede));
});
