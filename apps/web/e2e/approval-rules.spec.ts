import type { Browser } from '@playwright/test';
import { MSG } from '../../server/src/messages';
import { expect, expectHome, screenshot, signIn, test } from './fixtures';
import { apiPost, expectNotice, placeOrder, reviewWorld, runSuffix, signInAdminApi } from './helpers';

/**
 * Approval rules by amount (decision 0049): the administrator sets them on the client form, which says
 * them in a sentence and refuses a clash on its field; a small order is approved at purchase ('Aprobado
 * automáticamente'); a level-1 approval below the second-level amount completes the order, and the
 * approve dialog says so first. The client, products, buyer and approvers are this attempt's own.
 */
test.describe.configure({ mode: 'serial' });

const PASSWORD = 'Reglas#2026';

interface Data {
  cliente: string;
  idCliente: number;
  comprador: string;
  autorizador: string;
  /** $200 + IVA = $232 a unit. */
  producto: number;
}

const data = new Map<string, Data>();

async function ensureData(browser: Browser): Promise<Data> {
  const suffix = runSuffix();
  const known = data.get(suffix);
  if (known) return known;
  const cliente = `Constructora Arriaga ${suffix}`;
  const comprador = `ines.arriaga.${suffix}`;
  const autorizador = `tomas.rivas.${suffix}`;
  const { idCliente, producto } = await reviewWorld(browser, {
    cliente,
    niveles: 2,
    presupuesto: 20000,
    categoria: { nombre: 'Obra', icono: 'IconHammer' },
    producto: { clave_interna: 'OBR-01', nombre: 'Casco de seguridad', precio: 200 },
    comprador: { usuario: comprador, correo: `${comprador}@arriaga.mx`, nombre: 'Inés Arriaga Peña' },
    autorizador: { usuario: autorizador, correo: `${autorizador}@arriaga.mx`, nombre: 'Tomás Rivas Ochoa' },
    password: PASSWORD,
    cantidadLimite: 20,
  });
  const entry = { cliente, idCliente, comprador, autorizador, producto };
  data.set(suffix, entry);
  return entry;
}

test('el administrador fija las reglas por monto: la frase, un choque rechazado en su campo y guardar', async ({
  page,
  browser,
}) => {
  const d = await ensureData(browser);
  await signInAdminApi(page);
  await page.goto('/administrador/clientes');
  await page.getByRole('searchbox', { name: 'Buscar cliente' }).fill(d.cliente.toLowerCase());
  const row = page
    .getByTestId(/^cliente-/)
    .filter({ visible: true })
    .filter({ hasText: d.cliente });
  await row.getByRole('button', { name: `Editar ${d.cliente}` }).click();
  const edit = page.getByRole('dialog', { name: 'Editar cliente' });
  const resumen = edit.getByTestId('reglas-resumen');
  await expect(resumen).toHaveText('Sin reglas por monto: cada pedido sigue los niveles de autorización.');

  // A clash: the automatic amount must be below the second-level one; the server says so on the field.
  await edit.getByLabel('Aprobación automática hasta').fill('1000');
  await edit.getByLabel('Super Autorizador desde').fill('1000');
  await edit.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(edit.getByText(MSG.reglaAutomaticaNoMenor).first()).toBeVisible();

  await edit.getByLabel('Aprobación automática hasta').fill('300');
  // The buyer's orders of the last 24 hours add up (the default window, decision 0100).
  await expect(resumen).toHaveText(
    'Pedidos hasta $300.00 MXN se aprueban solos; desde $1,000.00 MXN requieren Super Autorizador. Se suman los pedidos del mismo comprador de las últimas 24 horas.',
  );
  await edit.getByLabel('Sumar pedidos (horas)').fill('0');
  await expect(resumen).toHaveText(
    'Pedidos hasta $300.00 MXN se aprueban solos; desde $1,000.00 MXN requieren Super Autorizador.',
  );
  await edit.getByLabel('Sumar pedidos (horas)').fill('12');
  // Escalation (decision 0113): off by default; an order waiting more than 48 h escalates.
  await expect(edit.getByLabel('Escalar después de (horas)')).toHaveValue('0');
  await edit.getByLabel('Escalar después de (horas)').fill('48');
  await screenshot(page, 'admin-cliente-reglas');
  await edit.getByRole('button', { name: 'Guardar cambios' }).click();
  await expectNotice(page, MSG.modificadoCorrectamente);

  // Reopened, the form shows what was saved.
  await row.getByRole('button', { name: `Editar ${d.cliente}` }).click();
  await expect(edit.getByLabel('Aprobación automática hasta')).toHaveValue('$300.00');
  await expect(edit.getByLabel('Super Autorizador desde')).toHaveValue('$1,000.00');
  await expect(edit.getByLabel('Sumar pedidos (horas)')).toHaveValue('12');
  await expect(edit.getByLabel('Escalar después de (horas)')).toHaveValue('48');
});

test('un pedido hasta el monto se aprueba al enviarse; el comprador lo ve «Aprobado automáticamente»', async ({
  page,
  browser,
}) => {
  const d = await ensureData(browser);
  await signIn(page, d.comprador, PASSWORD);
  await expectHome(page, 1);
  // Bought through the cart: the confirmation says the rule (with the client's 12-hour window), and the
  // success dialog says the order is already approved.
  await apiPost(page, '/api/carrito/nuevo_item', { item: { id: d.producto, cantidad: 1 } });
  await page.goto('/usuario/carrito');
  await page.getByRole('button', { name: 'Confirmar compra' }).click();
  const confirm = page.getByRole('dialog', { name: MSG.confirmarCompraTitulo });
  await expect(confirm).toContainText(MSG.confirmarCompraAutomaticaVentana(12, '$300.00 MXN'));
  const answer = page.waitForResponse(
    (r) => r.url().endsWith('/api/compra') && r.request().method() === 'POST',
  );
  await confirm.getByRole('button', { name: 'Enviar pedido' }).click();
  const pedido = ((await (await answer).json()) as { pedido: { id: number; status: string } }).pedido;
  expect(pedido.status).toBe('aprobado');
  await expect(page.getByRole('dialog').filter({ hasText: MSG.pedidoAprobadoAutomaticamente })).toBeVisible();
  await screenshot(page, 'usuario-compra-aprobada-por-regla');
  await page.goto(`/usuario/historial/${pedido.id}`);
  await expect(page.getByText('Aprobado automáticamente')).toBeVisible();
  await expect(
    page.getByText('Regla del cliente: pedidos hasta $300.00 MXN se aprueban solos.'),
  ).toBeVisible();
  await screenshot(page, 'usuario-aprobado-por-regla');
});

test('bajo el monto del Super Autorizador, el Autorizador aprueba en definitiva y el diálogo lo dice antes', async ({
  page,
  browser,
}) => {
  const d = await ensureData(browser);
  await signIn(page, d.comprador, PASSWORD);
  await expectHome(page, 1);
  // Three helmets: $696, over the automatic $300 and under the Super Autorizador's $1,000 even with the
  // $232 helmet approved before it within the client's 12 hours ($928).
  const pedido = await placeOrder(page, d.producto, 3);
  expect(pedido.status).toBe('pendiente');

  await page.context().clearCookies();
  await signIn(page, d.autorizador, PASSWORD);
  await expectHome(page, 2);
  await page.goto(`/autorizador/orden/${pedido.id}`);
  await page.getByRole('button', { name: 'Aprobar pedido' }).click();
  const dialog = page.getByRole('dialog', { name: /¿Aprobar el pedido/ });
  await expect(dialog).toContainText(
    'El pedido quedará Aprobado: con los pedidos de Inés Arriaga Peña de las 12 horas anteriores ($232.00 MXN) suma $928.00 MXN, menos que $1,000.00 MXN, el monto que requiere Super Autorizador.',
  );
  await screenshot(page, 'autorizador-aprobar-regla');
  await dialog.getByRole('button', { name: 'Aprobar', exact: true }).click();
  await expectNotice(page, MSG.pedidoAprobado);
  await expect(
    page.getByText(
      'Regla del cliente: un total menor a $1,000.00 MXN no requiere Super Autorizador. Se sumaron $232.00 MXN de pedidos anteriores del comprador.',
    ),
  ).toBeVisible();
});

test('la lista del Autorizador marca los pedidos que por su monto pasarán al Super Autorizador', async ({
  page,
  browser,
}) => {
  const d = await ensureData(browser);
  await signIn(page, d.comprador, PASSWORD);
  await expectHome(page, 1);
  // Five helmets: $1,160, over the Super Autorizador's $1,000 on its own.
  const pedido = await placeOrder(page, d.producto, 5);
  expect(pedido.status).toBe('pendiente');
  const numero = `#${String(pedido.id).padStart(5, '0')}`;

  await page.context().clearCookies();
  await signIn(page, d.autorizador, PASSWORD);
  await expectHome(page, 2);
  const row = page.getByRole('row').filter({ hasText: numero });
  await expect(row.getByTestId('va-a-segundo-nivel')).toHaveText('Va a 2.º nivel');
  await screenshot(page, 'autorizador-lista-segundo-nivel');
  // An order already approved is past the question: no mark on its row.
  await page.goto('/autorizador/principal?estatus=aprobado');
  await expect(page.getByRole('row').nth(1)).toBeVisible();
  await expect(page.getByTestId('va-a-segundo-nivel')).toHaveCount(0);
  // On a phone the card says it too.
  await page.goto('/autorizador/principal');
  await page.setViewportSize({ width: 390, height: 844 });
  const card = page.getByRole('listitem').filter({ hasText: numero });
  await expect(card.getByTestId('va-a-segundo-nivel')).toBeVisible();
  await screenshot(page, 'autorizador-lista-segundo-nivel-390');
});
