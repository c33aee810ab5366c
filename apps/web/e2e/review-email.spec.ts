import { expect, test } from './fixtures';
import { apiSignIn, expectNotice, placeOrder, reviewWorld, runSuffix } from './helpers';
import { waitForMail } from './mailbox';

/**
 * The review e-mail's buttons (decision 0112): «Aprobar» opens the order with the approval's confirmation
 * already open, through the sign-in; nothing is approved until the user confirms. The client, its people
 * and the order are this attempt's own.
 */
const PASSWORD = 'Correo#2026';

test('el botón «Aprobar» del correo abre el pedido con la confirmación, después de iniciar sesión', async ({
  page,
  browser,
}) => {
  const suffix = runSuffix();
  const comprador = `nora.paz.${suffix}`;
  const autorizador = `ivan.leon.${suffix}`;
  const { producto } = await reviewWorld(browser, {
    cliente: `Talleres Paz ${suffix}`,
    niveles: 1,
    presupuesto: 20000,
    categoria: { nombre: 'Taller', icono: 'IconTool' },
    producto: { clave_interna: 'TAL-01', nombre: 'Guantes de carnaza', precio: 150 },
    comprador: { usuario: comprador, correo: `${comprador}@paz.mx`, nombre: 'Nora Paz Gil' },
    autorizador: { usuario: autorizador, correo: `${autorizador}@paz.mx`, nombre: 'Iván León Mar' },
    password: PASSWORD,
    cantidadLimite: 10,
  });
  await apiSignIn(page.request, comprador, PASSWORD);
  const pedido = await placeOrder(page, producto, 3);
  const numero = String(pedido.id).padStart(5, '0');
  await page.context().clearCookies();

  // The e-mail says what the dialog will: the line, the total, what is left and what approving does.
  const mail = await waitForMail(
    (m) => m.to.includes(`${autorizador}@paz.mx`) && m.subject === `Pedido #${numero} por revisar`,
  );
  expect(mail.text).toContain('3 × Guantes de carnaza: $450.00 MXN');
  expect(mail.text).toContain('Total con IVA: $522.00 MXN');
  expect(mail.text).toContain('Queda después: $19,478.00 MXN del presupuesto del mes de Nora Paz Gil.');
  expect(mail.text).toContain('El pedido quedará Aprobado y se avisará a Nora Paz Gil por correo.');
  const approveUrl = /^Aprobar: (\S+)$/m.exec(mail.text)?.[1];
  expect(approveUrl).toMatch(new RegExp(`/autorizador/orden/${pedido.id}\\?accion=aprobar$`));

  // Signed out, the button goes through the sign-in and comes back to the order with the dialog open.
  await page.goto(approveUrl!);
  await expect(page).toHaveURL(/\/login\?volver=/);
  await page.getByLabel('Usuario').fill(autorizador);
  await page.getByLabel('Contraseña', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Acceso' }).click();
  const dialog = page.getByRole('dialog', { name: `¿Aprobar el pedido #${numero}?` });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('El pedido quedará Aprobado y se avisará a Nora Paz Gil por correo.');
  // The link only opened the dialog: the order still waits, and the parameter left the address.
  await expect(page).toHaveURL(new RegExp(`/autorizador/orden/${pedido.id}$`));
  await expect(page.getByText('Pendiente', { exact: true }).first()).toBeVisible();
  await dialog.getByRole('button', { name: 'Aprobar', exact: true }).click();
  await expectNotice(page, 'Pedido aprobado');

  // The «Cancelar» button of an order already approved opens no dialog: the screen says why.
  await page.goto(`/autorizador/orden/${pedido.id}?accion=cancelar`);
  await expect(page.getByTestId('sin-acciones')).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
});
