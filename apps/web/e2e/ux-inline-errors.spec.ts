import { MSG } from '@portal/shared/messages';
import { expect, screenshot, test } from './fixtures';
import { asAdmin, createAccount, createClient, createUser, runSuffix, signInAdminApi } from './helpers';

/**
 * Decision 0070 across the product: a refusal shows where the user acted (at the top of the form, or in
 * the dialog above its buttons), never in a blocking 'Error' window; a confirmation says what will happen,
 * with the server's counts where they matter.
 */

test('una confirmación cuenta lo que pasará y el rechazo del servidor se queda en el diálogo', async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  const nombre = `Papelera del Bajío ${runSuffix()}`;
  await asAdmin(browser, async (admin) => {
    const idCliente = await createClient(admin, { nombre, presupuesto_default: 3000, limite_de_compras: 2 });
    // One user who signed in (their session is still open) and one who never did.
    await createAccount(
      admin,
      {
        id_cliente: idCliente,
        usuario: `rosa.ibarra.${runSuffix()}`,
        correo: `rosa.ibarra.${runSuffix()}@papelera-bajio.mx`,
        nombre: 'Rosa Ibarra Quintero',
        rol: 2,
      },
      'Papelera#2026',
    );
    await createUser(admin, {
      id_cliente: idCliente,
      usuario: `tomas.rangel.${runSuffix()}`,
      correo: `tomas.rangel.${runSuffix()}@papelera-bajio.mx`,
      nombre: 'Tomás Rangel Soto',
      rol: 1,
    });
  });

  await signInAdminApi(page);
  await page.goto('/administrador/clientes');
  await page.getByRole('searchbox', { name: 'Buscar cliente' }).fill(nombre.toLowerCase());
  const row = page
    .getByTestId(/^cliente-/)
    .filter({ visible: true })
    .filter({ hasText: nombre });
  await expect(row).toContainText('Activo');

  // The server refuses once: the reason stays in the dialog, above its buttons; nothing else opens.
  await page.route('**/api/clientes/update/*', (route) =>
    route.fulfill({
      status: 409,
      contentType: 'application/json',
      body: JSON.stringify({
        code: 'CONFLICT',
        msg: 'El cliente cambió mientras lo veías. Recarga la página.',
      }),
    }),
  );
  await row.getByRole('button', { name: `Desactivar ${nombre}` }).click();
  const ask = page.getByRole('dialog', { name: MSG.confirmarTitulo });
  await expect(ask).toContainText(MSG.clienteDesactivarConsecuencia(nombre, 2, 1));
  await expect(ask).toContainText('sus 2 usuarios activos no podrán entrar');
  await expect(ask).toContainText('Se cerrará la sesión abierta de 1 usuario.');
  await screenshot(page, 'confirmacion-con-conteo');

  await ask.getByRole('button', { name: 'Desactivar', exact: true }).click();
  await expect(ask.getByRole('alert')).toContainText('El cliente cambió mientras lo veías.');
  await expect(page.getByRole('dialog')).toHaveCount(1);
  await screenshot(page, 'confirmacion-rechazada');
  await page.unroute('**/api/clientes/update/*');

  // The second try goes through: the dialog closes, a notice says so and the row changes.
  await ask.getByRole('button', { name: 'Desactivar', exact: true }).click();
  await expect(ask).toBeHidden();
  await expect(page.getByText(MSG.modificadoCorrectamente).last()).toBeVisible();
  await expect(row).toContainText('Inactivo');
});

test('una contraseña incorrecta se dice arriba del formulario, sin ventana', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Usuario').fill(`nadie.${runSuffix()}`);
  await page.getByLabel('Contraseña', { exact: true }).fill('Equivocada#1');
  await page.getByRole('button', { name: 'Acceso' }).click();
  const refusal = page.getByRole('alert').filter({ hasText: MSG.credencialesIncorrectas });
  await expect(refusal).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  // The form stays as it was: the user corrects the password where they typed it.
  await expect(page.getByLabel('Usuario')).toHaveValue(`nadie.${runSuffix()}`);
  await refusal.getByRole('button', { name: 'Cerrar aviso' }).click();
  await expect(refusal).toHaveCount(0);
});
