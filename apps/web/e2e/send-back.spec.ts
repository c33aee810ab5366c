import { MSG } from '@portal/shared/messages';
import { checkA11y, expect, expectHome, screenshot, signIn, test } from './fixtures';
import {
  apiPost,
  apiSignIn,
  asAdmin,
  checkPhone,
  createAccount,
  expectNotice,
  placeOrder,
  reviewWorld,
  runSuffix,
} from './helpers';
import { waitForMail } from './mailbox';

/**
 * Sending an order back to level 1 (decision 0111): the Super Autorizador returns an order that waits for
 * the final approval with what to correct; the Autorizador is e-mailed, corrects it and approves it again.
 * The client, its people and the order are this attempt's own.
 */
const PASSWORD = 'Devolver#2026';

test('el Super Autorizador devuelve un pedido al primer nivel con un comentario y el Autorizador lo corrige', async ({
  page,
  browser,
}) => {
  const suffix = runSuffix();
  const comprador = `lia.mora.${suffix}`;
  const autorizador = `raul.cano.${suffix}`;
  const superAutorizador = `elena.vega.${suffix}`;
  const { idCliente, producto } = await reviewWorld(browser, {
    cliente: `Imprenta Vega ${suffix}`,
    niveles: 2,
    presupuesto: 20000,
    categoria: { nombre: 'Papel', icono: 'IconPencil' },
    producto: { clave_interna: 'PAP-01', nombre: 'Resma carta', precio: 100 },
    comprador: { usuario: comprador, correo: `${comprador}@vega.mx`, nombre: 'Lía Mora Ruiz' },
    autorizador: { usuario: autorizador, correo: `${autorizador}@vega.mx`, nombre: 'Raúl Cano Díaz' },
    password: PASSWORD,
    cantidadLimite: 10,
  });
  await asAdmin(browser, (admin) =>
    createAccount(
      admin,
      {
        id_cliente: idCliente,
        usuario: superAutorizador,
        correo: `${superAutorizador}@vega.mx`,
        nombre: 'Elena Vega Soto',
        rol: 3,
      },
      PASSWORD,
    ),
  );
  // Six reams, through the API; the Autorizador gives level 1, also through the API.
  await apiSignIn(page.request, comprador, PASSWORD);
  const pedido = await placeOrder(page, producto, 6);
  const numero = String(pedido.id).padStart(5, '0');
  await page.context().clearCookies();
  await apiSignIn(page.request, autorizador, PASSWORD);
  const first = await apiPost<{ nuevo_estatus: string }>(page, '/api/update/compra', {
    id: pedido.id,
    orden: [{ id: producto, cantidad: 6 }],
  });
  expect(first.nuevo_estatus).toBe('espera');
  await page.context().clearCookies();

  // The Super Autorizador opens it and sends it back; an empty comment is refused on its field.
  await signIn(page, superAutorizador, PASSWORD);
  await expectHome(page, 3);
  await page.goto(`/autorizador/orden/${pedido.id}`);
  await page.getByRole('button', { name: 'Devolver al primer nivel' }).click();
  const dialog = page.getByRole('dialog', { name: `Devolver el pedido #${numero} al primer nivel` });
  await dialog.getByRole('button', { name: 'Devolver al primer nivel' }).click();
  await expect(dialog.getByText(MSG.comentarioVacio)).toBeVisible();
  await dialog
    .getByLabel('Qué debe corregirse')
    .fill('Son muchas resmas: deja cuatro, hay dos en el almacén.');
  await checkA11y(page, 'devolver al primer nivel');
  await screenshot(page, 'autorizador-devolver');
  await dialog.getByRole('button', { name: 'Devolver al primer nivel' }).click();
  await expectNotice(page, 'Pedido devuelto al primer nivel');
  await expect(page.getByText('Devuelto al primer nivel', { exact: true })).toBeVisible();
  await expect(
    page.getByText('Motivo: Son muchas resmas: deja cuatro, hay dos en el almacén.'),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Aprobar pedido' })).toHaveCount(0);

  // The Autorizador is told by e-mail, with the comment and the order's address.
  const mail = await waitForMail(
    (m) =>
      m.to.includes(`${autorizador}@vega.mx`) && m.subject === `Pedido #${numero} devuelto al primer nivel`,
  );
  expect(mail.text).toContain('Comentario: Son muchas resmas: deja cuatro, hay dos en el almacén.');
  expect(mail.text).toContain(`/autorizador/orden/${pedido.id}`);

  // The Autorizador finds it pendiente again, reads why, lowers it to four and approves it to level 2.
  await page.context().clearCookies();
  await signIn(page, autorizador, PASSWORD);
  await expectHome(page, 2);
  await page.goto(`/autorizador/orden/${pedido.id}`);
  await expect(
    page.getByText('Son muchas resmas: deja cuatro, hay dos en el almacén.').first(),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Devolver al primer nivel' })).toHaveCount(0);
  await screenshot(page, 'autorizador-pedido-devuelto');
  await checkPhone(page, 'autorizador-pedido-devuelto');
  await page.getByRole('button', { name: 'Editar cantidad de Resma carta' }).click();
  const qty = page.getByRole('textbox', { name: 'Cantidad de Resma carta' });
  await qty.fill('4');
  await qty.press('Enter');
  await expect(qty).toBeHidden();
  await page.getByRole('button', { name: 'Guardar cambios y aprobar' }).click();
  await page
    .getByRole('dialog', { name: /¿Aprobar el pedido/ })
    .getByRole('button', { name: 'Aprobar', exact: true })
    .click();
  await expectNotice(page, 'Pedido autorizado; queda en espera de la aprobación final.');
  await expect(page.getByText('Resma carta: 6 → 4')).toBeVisible();
});
