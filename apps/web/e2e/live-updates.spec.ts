import type { Browser, Page } from '@playwright/test';
import { expect, PHONE_WIDTH, screenshot, test } from './fixtures';
import {
  apiPost,
  apiSignIn,
  asAdmin,
  asUser,
  createAccount,
  ownBrowserPage,
  placeOrder,
  reviewWorld,
  runSuffix,
} from './helpers';

/**
 * Live updates (issue 43 item 6, decision 0116): three people with the portal open in their own browsers —
 * the buyer on her order, two approvers of the client on their list of orders to attend. One approver
 * approves; without a reload the buyer's order says Aprobado (and her bell counts the notice), and the other
 * approver's list loses the order. Nothing on these screens polls: only the server's events can bring it.
 * The client, its people and the order are this attempt's own.
 */
const PASSWORD = 'EnVivo#2026';

/** A browser context of its own for `usuario`, signed in through the API, with the suite's settings. */
const personPage = (browser: Browser, usuario: string) => ownBrowserPage(browser, usuario, PASSWORD);

/** Marks the document: a reload would drop the mark. */
const markDocument = (page: Page) =>
  page.evaluate(() => {
    (window as unknown as { sinRecargar: boolean }).sinRecargar = true;
  });
const stillSameDocument = (page: Page) =>
  page.evaluate(() => (window as unknown as { sinRecargar?: boolean }).sinRecargar === true);

/** Resolves once the page's live-updates stream has answered (the app opens it as the shell mounts). */
const streamOpened = (page: Page) =>
  page.waitForResponse((res) => new URL(res.url()).pathname === '/api/eventos' && res.status() === 200);

/** A budget card's figure on the buyer's home, as shown ("$348.00 MXN"). */
const budgetStat = (page: Page, label: string) =>
  page.getByRole('group', { name: label, exact: true }).getByTestId('valor');

test('una aprobación llega sin recargar a la orden del comprador y a la lista del otro autorizador', async ({
  page,
  browser,
}) => {
  const suffix = runSuffix();
  const comprador = `sara.nieto.${suffix}`;
  const autorizador = `ivan.rojas.${suffix}`;
  const otroAutorizador = `rosa.leal.${suffix}`;
  const { idCliente, producto } = await reviewWorld(browser, {
    cliente: `Ferretería Nieto ${suffix}`,
    niveles: 1,
    presupuesto: 20000,
    categoria: { nombre: 'Herramienta', icono: 'IconTool' },
    producto: { clave_interna: 'HER-01', nombre: 'Martillo de uña', precio: 180 },
    comprador: { usuario: comprador, correo: `${comprador}@nieto.mx`, nombre: 'Sara Nieto Ortiz' },
    autorizador: { usuario: autorizador, correo: `${autorizador}@nieto.mx`, nombre: 'Iván Rojas Peña' },
    password: PASSWORD,
    cantidadLimite: 10,
  });
  await asAdmin(browser, (admin) =>
    createAccount(
      admin,
      {
        id_cliente: idCliente,
        usuario: otroAutorizador,
        correo: `${otroAutorizador}@nieto.mx`,
        nombre: 'Rosa Leal Mena',
        rol: 2,
      },
      PASSWORD,
    ),
  );

  // The buyer orders through the API and opens her order: it waits for the approver.
  await apiSignIn(page.request, comprador, PASSWORD);
  const pedido = await placeOrder(page, producto, 2);
  const numero = `#${String(pedido.id).padStart(5, '0')}`;
  const buyerStream = streamOpened(page);
  await page.goto(`/usuario/historial/${pedido.id}`);
  await expect(page.getByRole('heading', { name: `Pedido ${numero}`, level: 1 })).toBeVisible();
  await expect(page.getByTestId('estatus-pedido')).toHaveText('Pendiente');
  await buyerStream;
  const bell = page.getByRole('button', { name: /^Avisos/ });
  await expect(bell).toHaveAccessibleName('Avisos');

  // Both approvers have their list of orders to attend open, with the order in it.
  const first = await personPage(browser, autorizador);
  const second = await personPage(browser, otroAutorizador);
  try {
    for (const { page: p } of [first, second]) {
      const opened = streamOpened(p);
      await p.goto('/autorizador/principal');
      await expect(p.getByRole('row', { name: new RegExp(numero) })).toBeVisible();
      await opened;
    }
    await screenshot(second.page, 'en-vivo-lista-antes');
    for (const p of [page, first.page, second.page]) await markDocument(p);

    // The first approver approves from the order's screen.
    await first.page
      .getByRole('row', { name: new RegExp(numero) })
      .getByRole('link', { name: `Ver pedido ${numero}` })
      .click();
    await expect(first.page).toHaveURL(new RegExp(`/autorizador/orden/${pedido.id}`));
    await first.page.getByRole('button', { name: 'Aprobar pedido' }).click();
    const confirm = first.page.getByRole('dialog', { name: `¿Aprobar el pedido ${numero}?` });
    await confirm.getByRole('button', { name: 'Aprobar' }).click();
    await expect(first.page.getByTestId('estatus-pedido')).toHaveText('Aprobado');

    // The buyer's order says so, and her bell counts the notice, in the same document.
    await expect(page.getByTestId('estatus-pedido')).toHaveText('Aprobado');
    await expect(page.getByText('Pedido aprobado', { exact: true }).first()).toBeVisible();
    await expect(bell).toHaveAccessibleName('Avisos, 1 sin leer');
    expect(await stillSameDocument(page)).toBe(true);
    await screenshot(page, 'en-vivo-pedido-aprobado');
    await page.setViewportSize({ width: PHONE_WIDTH, height: 844 });
    await screenshot(page, 'en-vivo-pedido-aprobado-390');

    // The other approver's list no longer holds it: nothing left to attend.
    await expect(second.page.getByRole('row', { name: new RegExp(numero) })).toHaveCount(0);
    expect(await stillSameDocument(second.page)).toBe(true);
    await screenshot(second.page, 'en-vivo-lista-despues');
    expect([...first.errors, ...second.errors]).toEqual([]);
  } finally {
    await first.page.context().close();
    await second.page.context().close();
  }
});

test('el presupuesto del comprador vuelve sin recargar cuando el autorizador cancela su pedido', async ({
  page,
  browser,
}) => {
  const suffix = runSuffix();
  const comprador = `ana.ruiz.${suffix}`;
  const autorizador = `luis.pena.${suffix}`;
  const { producto } = await reviewWorld(browser, {
    cliente: `Papelería Ruiz ${suffix}`,
    niveles: 1,
    presupuesto: 5000,
    categoria: { nombre: 'Papel', icono: 'IconPencil' },
    producto: { clave_interna: 'PAP-01', nombre: 'Caja de hojas carta', precio: 150 },
    comprador: { usuario: comprador, correo: `${comprador}@ruiz.mx`, nombre: 'Ana Ruiz Solís' },
    autorizador: { usuario: autorizador, correo: `${autorizador}@ruiz.mx`, nombre: 'Luis Peña Gil' },
    password: PASSWORD,
    cantidadLimite: 10,
  });

  // The buyer orders two boxes ($348.00 with IVA) and stays on her home, whose cards count the order.
  await apiSignIn(page.request, comprador, PASSWORD);
  const pedido = await placeOrder(page, producto, 2);
  const stream = streamOpened(page);
  await page.goto('/usuario/principal');
  await expect(budgetStat(page, 'Utilizado')).toHaveText('$348.00 MXN');
  await expect(budgetStat(page, 'Restante')).toHaveText('$4,652.00 MXN');
  await stream;
  await markDocument(page);

  // The approver cancels it: the cards give the amount back in the same document.
  await asUser(browser, autorizador, PASSWORD, (p) =>
    apiPost(p, `/api/cancelar/compra/${pedido.id}`, { motivo: 'Ya no se necesita' }),
  );
  await expect(budgetStat(page, 'Utilizado')).toHaveText('$0.00 MXN');
  await expect(budgetStat(page, 'Restante')).toHaveText('$5,000.00 MXN');
  expect(await stillSameDocument(page)).toBe(true);
});
