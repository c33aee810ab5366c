import type { Page } from '@playwright/test';
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
  xsrfHeaders,
} from './helpers';
import { waitForMail } from './mailbox';
import { e2eBaseUrl } from './ports';

/**
 * Comments on orders (issue 14, item 5): the buyer asks on its order, the authorizer sees the count in the
 * list and the thread on the order (and the e-mail that led there), replies, approves with a comment, and
 * the buyer reads both; an order is cancelled with a preset reason ("Otro…" asks for its text). The
 * client, its products and both people are this attempt's own.
 */
const PASSWORD = 'Comentarios#2026';

/** The whole page, dialogs included, whatever their height. */
async function tallScreenshot(page: Page, name: string): Promise<void> {
  const size = page.viewportSize() ?? { width: 1366, height: 860 };
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width: size.width, height: Math.max(size.height, height) });
  await screenshot(page, name);
  await page.setViewportSize(size);
}

test('el comprador comenta su pedido, el autorizador responde y cancela con un motivo predefinido', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const suffix = runSuffix();
  const comprador = `lucia.mena.${suffix}`;
  const autorizador = `jorge.salas.${suffix}`;
  const correoAutorizador = `${autorizador}@mena.mx`;
  const { tinta, hojas } = await asAdmin(browser, async (admin) => {
    const idCliente = await createClient(admin, {
      nombre: `Imprenta Mena ${suffix}`,
      presupuesto_default: 9000,
      limite_de_compras: -1,
      cantidad_autorizadores: 1,
    });
    await openAccessWeek(admin, idCliente);
    const insumos = await createCategory(admin, idCliente, 'Insumos', 'IconPrinter');
    const producto = (clave_interna: string, nombre: string, precio: number) =>
      createProduct(admin, {
        id_cliente: idCliente,
        id_categoria: insumos,
        clave_interna,
        nombre,
        precio,
        unidad_de_medida: 'Pieza',
      });
    const tinta = await producto('INS-40', 'Tinta negra 1 L', 380);
    const hojas = await producto('INS-41', 'Papel bond carta 5000 hojas', 520);
    const idComprador = await createAccount(
      admin,
      {
        id_cliente: idCliente,
        usuario: comprador,
        correo: `${comprador}@mena.mx`,
        nombre: 'Lucía Mena Robles',
        rol: 1,
        presupuesto_default: 9000,
      },
      PASSWORD,
    );
    await assignAll(admin, idComprador, 10);
    await createAccount(
      admin,
      {
        id_cliente: idCliente,
        usuario: autorizador,
        correo: correoAutorizador,
        nombre: 'Jorge Salas Ortiz',
        rol: 2,
      },
      PASSWORD,
    );
    return { tinta, hojas };
  });

  await signIn(page, comprador, PASSWORD);
  await expect(page).toHaveURL(/\/usuario\/principal$/, { timeout: 60_000 });
  await expectHome(page, 1);
  const buy = async (id: number, cantidad: number) => {
    await apiPost(page, '/api/carrito/nuevo_item', { item: { id, cantidad } });
    const res = await apiPost<{ pedido: { id: number } }>(page, '/api/compra', {
      orden: [{ id, cantidad }],
      fecha: businessToday(),
    });
    return res.pedido.id;
  };
  const conComentario = await buy(tinta, 2);
  const aCancelar = await buy(hojas, 1);
  const numero = (id: number) => `#${String(id).padStart(5, '0')}`;

  // The buyer asks on its order; an empty comment is explained on the field and not sent.
  await page.goto(`/usuario/historial/${conComentario}`);
  const hilo = page.getByRole('region', { name: 'Comentarios' });
  await expect(hilo.getByText('Aún no hay comentarios.', { exact: false })).toBeVisible();
  await hilo.getByRole('button', { name: 'Comentar' }).click();
  await expect(hilo.getByText('Escribe el comentario.')).toBeVisible();
  const pregunta =
    '¿Pueden surtir la tinta antes del viernes?\nLa necesitamos para el tiraje del lunes. <b>Gracias</b>';
  await hilo.getByLabel('Agregar un comentario').fill(pregunta);
  await hilo.getByRole('button', { name: 'Comentar' }).click();
  const comentarios = hilo.getByTestId('comentario');
  await expect(comentarios).toHaveCount(1);
  // Plain text: the tags are shown as typed, never rendered.
  await expect(comentarios.first()).toContainText('<b>Gracias</b>');
  await expect(comentarios.first()).toContainText('Lucía Mena Robles');
  await expect(hilo.getByLabel('Agregar un comentario')).toHaveValue('');

  // The authorizer is e-mailed a link to the order.
  const aviso = await waitForMail(
    (m) =>
      m.to.includes(correoAutorizador) &&
      m.subject === `Nuevo comentario en el pedido ${numero(conComentario)}`,
  );
  expect(aviso.text).toContain(`/autorizador/orden/${conComentario}`);
  expect(aviso.text).not.toContain('tiraje');

  const context = await browser.newContext({
    baseURL: e2eBaseUrl(),
    locale: 'es-MX',
    timezoneId: 'America/Mexico_City',
  });
  try {
    const revisor = await context.newPage();
    await signIn(revisor, autorizador, PASSWORD);
    await expect(revisor).toHaveURL(/\/autorizador\/principal$/, { timeout: 60_000 });
    await expectHome(revisor, 2);
    // The count in the list: one on the commented order, none on the other.
    const fila = revisor.getByRole('row', { name: new RegExp(numero(conComentario)) });
    await expect(fila.getByTestId('comentarios-cuenta')).toHaveAccessibleName('1 comentario');
    await expect(
      revisor.getByRole('row', { name: new RegExp(numero(aCancelar)) }).getByTestId('comentarios-cuenta'),
    ).toHaveCount(0);
    await screenshot(revisor, 'autorizador-lista-comentarios');

    // The thread on the order, and the reply.
    await fila.getByRole('link', { name: `Ver pedido ${numero(conComentario)}` }).click();
    const hiloRevisor = revisor.getByRole('region', { name: 'Comentarios' });
    await expect(hiloRevisor.getByTestId('comentario')).toHaveCount(1);
    await expect(hiloRevisor.getByTestId('comentario').first()).toContainText('tiraje del lunes');
    const respuesta = 'Sí: se aprueba hoy y el proveedor entrega el jueves.';
    await hiloRevisor.getByLabel('Agregar un comentario').fill(respuesta);
    await hiloRevisor.getByRole('button', { name: 'Comentar' }).click();
    await expect(hiloRevisor.getByTestId('comentario')).toHaveCount(2);
    await expect(hiloRevisor.getByTestId('comentario').last()).toContainText('Jorge Salas Ortiz');
    await expect(hiloRevisor.getByTestId('comentarios-total')).toHaveText('2');
    await hiloRevisor.scrollIntoViewIfNeeded();
    await tallScreenshot(revisor, 'autorizador-orden-comentarios');

    // Approve with a comment: it joins the thread with the approval.
    await revisor.getByRole('button', { name: 'Aprobar pedido' }).click();
    const aprobar = revisor.getByRole('dialog', { name: `¿Aprobar el pedido ${numero(conComentario)}?` });
    await aprobar.getByLabel('Comentario (opcional)').fill('Aprobado; confirma de recibido el jueves.');
    await aprobar.getByRole('button', { name: 'Aprobar', exact: true }).click();
    await expect(aprobar).toBeHidden();
    await expect(revisor.getByTestId('estatus-pedido')).toHaveText('Aprobado');
    await expect(hiloRevisor.getByTestId('comentario')).toHaveCount(3);
    await expect(hiloRevisor.getByTestId('comentario').last()).toContainText('confirma de recibido');

    // Cancel the other order: "Otro…" requires its text; a preset is sent as it reads.
    await revisor.goto(`/autorizador/orden/${aCancelar}`);
    await revisor.getByRole('button', { name: 'Cancelar pedido' }).click();
    const dialogo = revisor.getByRole('dialog', { name: `Cancelar el pedido ${numero(aCancelar)}` });
    for (const preset of ['Duplicado', 'Excede presupuesto', 'Producto equivocado', 'Otro…']) {
      await expect(dialogo.getByRole('radio', { name: preset })).toBeVisible();
    }
    await dialogo.getByRole('radio', { name: 'Otro…' }).check();
    await dialogo.getByRole('button', { name: 'Cancelar pedido' }).click();
    await expect(dialogo.getByText('Escribe el motivo de la cancelación.')).toBeVisible();
    await dialogo.getByRole('radio', { name: 'Duplicado' }).check();
    await tallScreenshot(revisor, 'autorizador-cancelar-motivos');
    await dialogo.getByRole('button', { name: 'Cancelar pedido' }).click();
    await expect(dialogo).toBeHidden();
    await expect(revisor.getByTestId('estatus-pedido')).toHaveText('Cancelado');
    await expect(revisor.getByRole('alert', { name: 'Pedido cancelado' })).toContainText('Duplicado');
  } finally {
    await context.close();
  }

  // The buyer reads the reply (and the count in the history); the cancelled order shows its reason.
  await page.goto('/usuario/historial');
  await expect(
    page
      .getByRole('table', { name: 'Pedidos' })
      .getByRole('row', { name: new RegExp(numero(conComentario)) })
      .getByTestId('comentarios-cuenta'),
  ).toHaveAccessibleName('3 comentarios');
  await page.goto(`/usuario/historial/${conComentario}`);
  await expect(hilo.getByTestId('comentario')).toHaveCount(3);
  await expect(hilo.getByTestId('comentario').nth(1)).toContainText('el proveedor entrega el jueves');
  await expect(hilo.getByTestId('comentario').last()).toContainText('confirma de recibido');
  await tallScreenshot(page, 'usuario-pedido-comentarios');
  await page.goto(`/usuario/historial/${aCancelar}`);
  await expect(page.getByText('Motivo: Duplicado').first()).toBeVisible();
});

test('una conversación larga: el pedido trae los últimos 50 comentarios y «Ver comentarios anteriores» el resto', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const suffix = runSuffix();
  const comprador = `rosa.vidal.${suffix}`;
  const autorizador = `omar.pinto.${suffix}`;
  const { papel } = await asAdmin(browser, async (admin) => {
    const idCliente = await createClient(admin, {
      nombre: `Papelera Vidal ${suffix}`,
      presupuesto_default: 9000,
      limite_de_compras: -1,
      cantidad_autorizadores: 1,
    });
    await openAccessWeek(admin, idCliente);
    const insumos = await createCategory(admin, idCliente, 'Insumos', 'IconPrinter');
    const papel = await createProduct(admin, {
      id_cliente: idCliente,
      id_categoria: insumos,
      clave_interna: 'VID-10',
      nombre: 'Papel bond carta',
      precio: 120,
      unidad_de_medida: 'Paquete',
    });
    const idComprador = await createAccount(
      admin,
      {
        id_cliente: idCliente,
        usuario: comprador,
        correo: `${comprador}@vidal.mx`,
        nombre: 'Rosa Vidal',
        rol: 1,
      },
      PASSWORD,
    );
    await assignAll(admin, idComprador, 10);
    await createAccount(
      admin,
      {
        id_cliente: idCliente,
        usuario: autorizador,
        correo: `${autorizador}@vidal.mx`,
        nombre: 'Omar Pinto',
        rol: 2,
      },
      PASSWORD,
    );
    return { papel };
  });

  // 55 comments: 30 of the buyer (its cap in an hour) and 25 of the authorizer, through the API.
  await signIn(page, comprador, PASSWORD);
  await expectHome(page, 1);
  await apiPost(page, '/api/carrito/nuevo_item', { item: { id: papel, cantidad: 1 } });
  const { pedido } = await apiPost<{ pedido: { id: number } }>(page, '/api/compra', {
    orden: [{ id: papel, cantidad: 1 }],
    fecha: businessToday(),
  });
  for (let i = 1; i <= 30; i++)
    await apiPost(page, `/api/historial/${pedido.id}/comentarios`, { texto: `Pregunta ${i}` });
  const refused = await page.request.post(`/api/historial/${pedido.id}/comentarios`, {
    headers: await xsrfHeaders(page),
    data: { texto: 'Una más' },
  });
  expect(refused.status()).toBe(429);
  const context = await browser.newContext({
    baseURL: e2eBaseUrl(),
    locale: 'es-MX',
    timezoneId: 'America/Mexico_City',
  });
  try {
    const revisor = await context.newPage();
    await signIn(revisor, autorizador, PASSWORD);
    await expectHome(revisor, 2);
    for (let i = 1; i <= 25; i++)
      await apiPost(revisor, `/api/pedidos/${pedido.id}/comentarios`, { texto: `Respuesta ${i}` });
    await revisor.goto(`/autorizador/orden/${pedido.id}`);
    const hilo = revisor.getByRole('region', { name: 'Comentarios' });
    await expect(hilo.getByTestId('comentarios-total')).toHaveText('55');
    await expect(hilo.getByTestId('comentario')).toHaveCount(50);
    await expect(hilo.getByTestId('comentario').first()).toContainText('Pregunta 6');
    await screenshot(revisor, 'autorizador-comentarios-anteriores');
    await hilo.getByRole('button', { name: 'Ver comentarios anteriores (5)' }).click();
    await expect(hilo.getByTestId('comentario')).toHaveCount(55);
    await expect(hilo.getByTestId('comentario').first()).toContainText('Pregunta 1');
    await expect(hilo.getByRole('button', { name: /Ver comentarios anteriores/ })).toHaveCount(0);
  } finally {
    await context.close();
  }
  // The buyer's page pages the same way.
  await page.goto(`/usuario/historial/${pedido.id}`);
  const hilo = page.getByRole('region', { name: 'Comentarios' });
  await expect(hilo.getByTestId('comentario')).toHaveCount(50);
  await hilo.getByRole('button', { name: 'Ver comentarios anteriores (5)' }).click();
  await expect(hilo.getByTestId('comentario')).toHaveCount(55);
});
