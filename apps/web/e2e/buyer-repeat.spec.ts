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
  openAccessWeek,
  runSuffix,
} from './helpers';
import { e2eBaseUrl } from './ports';

/**
 * The buyer's month in minutes (issue 13, items 1, 2 and 5): repeat an order with a product deactivated
 * since (what was added, what was skipped and why, 'Ir al carrito'), save the cart as a list, send it with a
 * note for the approvers, the authorizer reads the note, and the buyer withdraws the pendiente order. The
 * client (an access week), its products, the buyer and the authorizer are this attempt's own. Serial: each
 * test continues with the orders and the cart of the previous one.
 */
test.describe.configure({ mode: 'serial' });

const PASSWORD = 'Repetir#2026';
const NOTA = 'Entregar en el almacén 2 antes del viernes.\nPreguntar por Lucía en recepción.';

interface Data {
  comprador: string;
  autorizador: string;
  productos: { jabon: number; toallas: number; guantes: number };
  /** The first order (repeated) and the one sent with the note (withdrawn). */
  pedidos: { primero?: number; conNota?: number };
  apagar: () => Promise<void>;
}

const data = new Map<string, Data>();

async function ensureData(browser: Browser): Promise<Data> {
  const suffix = runSuffix();
  const known = data.get(suffix);
  if (known) return known;
  const comprador = `mario.quintero.${suffix}`;
  const autorizador = `elena.salas.${suffix}`;
  const created = await asAdmin(browser, async (admin) => {
    const idCliente = await createClient(admin, {
      nombre: `Distribuidora Quintero ${suffix}`,
      presupuesto_default: 5000,
      limite_de_compras: -1,
    });
    await openAccessWeek(admin, idCliente);
    const limpieza = await createCategory(admin, idCliente, 'Limpieza', 'IconSpray');
    const producto = (clave_interna: string, nombre: string, precio: number) =>
      createProduct(admin, {
        id_cliente: idCliente,
        id_categoria: limpieza,
        clave_interna,
        nombre,
        precio,
        unidad_de_medida: 'Caja',
      });
    const jabon = await producto('LIM-10', 'Jabón líquido 5 L', 120);
    const toallas = await producto('LIM-11', 'Toallas de papel', 85);
    const guantes = await producto('LIM-12', 'Guantes de nitrilo', 60);
    const idComprador = await createAccount(
      admin,
      {
        id_cliente: idCliente,
        usuario: comprador,
        correo: `${comprador}@quintero.mx`,
        nombre: 'Mario Quintero Luna',
        rol: 1,
        presupuesto_default: 5000,
      },
      PASSWORD,
    );
    await assignAll(admin, idComprador, 10);
    await createAccount(
      admin,
      {
        id_cliente: idCliente,
        usuario: autorizador,
        correo: `${autorizador}@quintero.mx`,
        nombre: 'Elena Salas Ortiz',
        rol: 2,
      },
      PASSWORD,
    );
    return { idCliente, limpieza, productos: { jabon, toallas, guantes } };
  });
  const entry: Data = {
    comprador,
    autorizador,
    productos: created.productos,
    pedidos: {},
    // The toallas are deactivated after the first order: the repeat must skip them.
    apagar: () =>
      asAdmin(browser, async (admin) => {
        await apiPost(admin, `/api/productos/actualizar/${created.productos.toallas}`, {
          id: created.productos.toallas,
          id_cliente: created.idCliente,
          id_categoria: created.limpieza,
          clave_interna: 'LIM-11',
          nombre: 'Toallas de papel',
          precio: 85,
          activo: 0,
        });
      }),
  };
  data.set(suffix, entry);
  return entry;
}

async function signInBuyer(page: Page, browser: Browser): Promise<Data> {
  const d = await ensureData(browser);
  await signIn(page, d.comprador, PASSWORD);
  await expectHome(page, 1);
  return d;
}

test('repetir un pedido con un producto desactivado: agregados, omitidos con su motivo e Ir al carrito', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const d = await signInBuyer(page, browser);
  const { jabon, toallas, guantes } = d.productos;

  // The first order, placed through the API as the buyer.
  for (const [id, cantidad] of [
    [jabon, 2],
    [toallas, 1],
    [guantes, 3],
  ] as const) {
    await apiPost(page, '/api/carrito/nuevo_item', { item: { id, cantidad } });
  }
  const compra = await apiPost<{ pedido: { id: number } }>(page, '/api/compra', {
    orden: [
      { id: jabon, cantidad: 2 },
      { id: toallas, cantidad: 1 },
      { id: guantes, cantidad: 3 },
    ],
    fecha: businessToday(),
  });
  d.pedidos.primero = compra.pedido.id;
  await d.apagar();

  // Repetir pedido is in each row of the history too.
  await page.goto('/usuario/historial');
  await expect(page.getByRole('button', { name: /^Repetir pedido #/ })).toHaveCount(1);

  await page.goto(`/usuario/historial/${compra.pedido.id}`);
  await expect(page.getByTestId('estatus-pedido')).toHaveText('Pendiente');
  await page.getByRole('button', { name: /^Repetir pedido #/ }).click();

  const dialog = page.getByRole('dialog', { name: /^Repetir pedido/ });
  await expect(dialog.getByTestId('resultado-resumen')).toHaveText(
    'Se agregaron 2 productos al carrito; 1 no se pudo agregar.',
  );
  const agregados = dialog.getByTestId('resultado-agregados').getByRole('listitem');
  // Each with the product's maximum per order.
  await expect(agregados).toHaveText(['Jabón líquido 5 L × 2 · máx. 10', 'Guantes de nitrilo × 3 · máx. 10']);
  const omitidos = dialog.getByTestId('resultado-omitidos').getByRole('listitem');
  await expect(omitidos).toHaveCount(1);
  await expect(omitidos).toContainText('Toallas de papel');
  await expect(omitidos).toContainText('Este producto no está disponible por el momento.');
  await screenshot(page, 'usuario-repetir-resultado');

  await dialog.getByRole('link', { name: 'Ir al carrito' }).click();
  await expect(page).toHaveURL(/\/usuario\/carrito$/);
  await expect(dialog).toBeHidden();
  const carrito = page.getByRole('table', { name: 'Productos del carrito' });
  await expect(carrito.getByTestId(`carrito-${jabon}`).getByTestId('cantidad')).toHaveText('2');
  await expect(carrito.getByTestId(`carrito-${guantes}`).getByTestId('cantidad')).toHaveText('3');
  await expect(carrito.getByTestId(`carrito-${toallas}`)).toHaveCount(0);
});

test('guardar el carrito como lista y enviarlo con una nota que el autorizador ve', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const d = await signInBuyer(page, browser);
  await page.goto('/usuario/carrito');
  await expect(page.getByRole('table', { name: 'Productos del carrito' })).toBeVisible();

  // Guardar como lista: the name is checked by the shared schema before the call.
  await page.getByRole('button', { name: 'Guardar como lista' }).click();
  const guardar = page.getByRole('dialog', { name: 'Guardar como lista' });
  await guardar.getByRole('button', { name: 'Guardar lista' }).click();
  await expect(guardar.getByText('Escribe un nombre para la lista.')).toBeVisible();
  await guardar.getByLabel('Nombre de la lista').fill('Limpieza mensual');
  await guardar.getByRole('button', { name: 'Guardar lista' }).click();
  await expect(guardar.getByTestId('lista-guardada')).toContainText('Guardaste la lista Limpieza mensual.');
  await expect(guardar.getByRole('link', { name: 'Ver mis listas' })).toHaveAttribute(
    'href',
    '/usuario/listas',
  );
  await screenshot(page, 'usuario-guardar-lista');
  await guardar.getByRole('button', { name: 'Cerrar' }).first().click();
  await expect(guardar).toBeHidden();

  // The note, with its characters counted against the shared limit.
  const nota = page.getByLabel('Nota para el autorizador (opcional)');
  await nota.fill(NOTA);
  await expect(page.getByTestId('nota-contador')).toHaveText(`${NOTA.length} / 500 caracteres`);
  await expect(nota).toHaveAttribute('maxlength', '500');
  await screenshot(page, 'usuario-carrito-nota');

  await page.getByRole('button', { name: 'Confirmar compra' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Enviar pedido' }).click();
  await expect(page.getByText('Compra enviada correctamente')).toBeVisible();
  const historial = await page.request.get('/api/historial?page=1');
  const { pedidos } = (await historial.json()) as { pedidos: { id: number }[] };
  const id = pedidos[0]?.id;
  expect(id).toBeDefined();
  expect(id).not.toBe(d.pedidos.primero);
  d.pedidos.conNota = id;

  // The authorizer of the client reads the note at the top of the order.
  const context = await browser.newContext({
    baseURL: e2eBaseUrl(),
    locale: 'es-MX',
    timezoneId: 'America/Mexico_City',
  });
  try {
    const autorizador = await context.newPage();
    await signIn(autorizador, d.autorizador, PASSWORD);
    await expectHome(autorizador, 2);
    await autorizador.goto(`/autorizador/orden/${id}`);
    const alerta = autorizador.getByTestId('nota-pedido');
    await expect(alerta).toContainText('Nota del comprador');
    await expect(alerta).toContainText('Entregar en el almacén 2 antes del viernes.');
    await expect(alerta).toContainText('Preguntar por Lucía en recepción.');
    await screenshot(autorizador, 'autorizador-orden-nota');
  } finally {
    await context.close();
  }
});

test('retirar un pedido pendiente: queda Cancelado, Retirado por el comprador', async ({ page, browser }) => {
  test.setTimeout(90_000);
  const d = await signInBuyer(page, browser);
  const id = d.pedidos.conNota;
  expect(id, 'the previous test sends the order').toBeDefined();
  await page.goto(`/usuario/historial/${id}`);
  await expect(page.getByTestId('estatus-pedido')).toHaveText('Pendiente');
  await expect(page.getByTestId('nota-pedido')).toContainText('Preguntar por Lucía en recepción.');

  await page.getByRole('button', { name: 'Retirar pedido' }).click();
  const confirmar = page.getByRole('dialog', { name: /^¿Retirar el pedido/ });
  // The way out of withdrawing (which cancels the order) is 'Volver', not a second 'Cancelar'.
  await expect(confirmar.getByRole('button', { name: 'Volver' })).toBeVisible();
  await confirmar.getByRole('button', { name: 'Retirar pedido' }).click();
  await expect(confirmar).toBeHidden();
  await expect(page.getByTestId('estatus-pedido')).toHaveText('Cancelado');
  await expect(page.getByRole('alert').filter({ hasText: 'Pedido cancelado' })).toContainText(
    'Motivo: Retirado por el comprador',
  );
  await expect(page.getByRole('button', { name: 'Retirar pedido' })).toHaveCount(0);
  await expect(page.getByText('Pedido retirado por el comprador')).toBeVisible();
  await screenshot(page, 'usuario-retirar');
});
