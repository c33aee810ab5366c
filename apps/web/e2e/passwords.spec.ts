import {
  ADMIN_PASSWORD,
  DEMO_PASSWORD,
  expect,
  expectHome,
  screenshot,
  signIn,
  signOut,
  test,
} from './fixtures';
import { waitForMail } from './mailbox';
import { E2E_BASE_URL } from './ports';

/**
 * Own password change (profile dialog), the forced change, and access recovery end to end through a
 * real SMTP server (the e2e server sends to 127.0.0.1:2526). One serial file for `usuario2`, so the
 * change and the recovery never race.
 */
test.describe.configure({ mode: 'serial' });

const CHANGED = 'Cambiada#2026';
const RECOVERED = 'Recuperada#2026';

test('usuario2 cambia su contraseña desde el menú de perfil', async ({ page }) => {
  await signIn(page, 'usuario2', DEMO_PASSWORD);
  await expectHome(page, 1);
  await page.getByTestId('profile-menu').click();
  await page.getByRole('menuitem', { name: 'Cambiar contraseña' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cambiar contraseña' });
  await expect(dialog).toBeVisible();
  const submit = dialog.getByRole('button', { name: 'Cambiar contraseña' });

  await submit.click();
  await expect(dialog.getByText('Todos los campos son requeridos')).toBeVisible();

  await dialog.getByLabel('Contraseña actual').fill(DEMO_PASSWORD);
  await dialog.getByLabel('Nueva contraseña', { exact: true }).fill('corta');
  await dialog.getByLabel('Confirmar nueva contraseña').fill('corta');
  await submit.click();
  await expect(
    dialog.getByText(
      'La nueva contraseña debe contener al menos una mayuscula, un simbolo, un numero y ser de una longitud de 8 letras',
    ),
  ).toBeVisible();

  await dialog.getByLabel('Nueva contraseña', { exact: true }).fill(CHANGED);
  await dialog.getByLabel('Confirmar nueva contraseña').fill(`${CHANGED}x`);
  await submit.click();
  await expect(dialog.getByText('Las nuevas contraseñas no coinciden')).toBeVisible();
  await screenshot(page, 'cambiar-password');

  await dialog.getByLabel('Contraseña actual').fill('NoEsLaActual#1');
  await dialog.getByLabel('Confirmar nueva contraseña').fill(CHANGED);
  await submit.click();
  await expect(dialog.getByText('La contraseña actual es incorrecta')).toBeVisible();

  await dialog.getByLabel('Contraseña actual').fill(DEMO_PASSWORD);
  await submit.click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Contraseña actualizada')).toBeVisible();
  await expect(
    page.getByText('Se ha establecido tu nueva contraseña y se ha enviado a tu email.'),
  ).toBeVisible();

  await signOut(page);
  await signIn(page, 'usuario2', CHANGED);
  await expectHome(page, 1);
});

test('recuperar acceso: un usuario desconocido ve el aviso del spec', async ({ page }) => {
  await page.goto('/recuperar-acceso');
  await page.getByRole('button', { name: 'Enviar' }).click();
  await expect(page.getByRole('dialog').getByText('Debes llenar todos los datos')).toBeVisible();
  await page.getByRole('dialog').getByRole('button', { name: 'Aceptar' }).click();

  await page.getByLabel('Usuario').fill('nadie-por-aqui');
  await page.getByRole('button', { name: 'Enviar' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText('Error', { exact: true })).toBeVisible();
  await expect(dialog.getByText('Este usuario no se ha encontrado en el sistema.')).toBeVisible();
});

test('recuperar acceso de punta a punta: correo, enlace, contraseña nueva y acceso', async ({ page }) => {
  await page.goto('/recuperar-acceso');
  await page.getByLabel('Usuario').fill('usuario2');
  await page.getByRole('button', { name: 'Enviar' }).click();
  await expect(page.getByText('Correo enviado')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);

  const mail = await waitForMail((m) => m.subject.includes('Recupera tu acceso'));
  const link = mail.text.match(new RegExp(`${E2E_BASE_URL}/restablecer/[A-Za-z0-9_-]+`))?.[0];
  expect(link, 'enlace de restablecimiento en el correo').toBeTruthy();

  await page.goto(link as string);
  await expect(page.getByRole('heading', { name: 'Restablece tu contraseña' })).toBeVisible();
  await expect(page.getByText('usuario2')).toBeVisible();
  await page.getByLabel('Nueva contraseña', { exact: true }).fill(RECOVERED);
  await page.getByLabel('Confirmar nueva contraseña').fill('Otra#20266');
  await page.getByRole('button', { name: 'Guardar contraseña' }).click();
  await expect(page.getByText('Las nuevas contraseñas no coinciden')).toBeVisible();
  await screenshot(page, 'restablecer');

  await page.getByLabel('Confirmar nueva contraseña').fill(RECOVERED);
  await page.getByRole('button', { name: 'Guardar contraseña' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('status').filter({ hasText: 'Tu contraseña fue establecida' })).toBeVisible();
  await screenshot(page, 'login-aviso');

  // The link works once.
  await page.goto(link as string);
  await expect(page.getByRole('heading', { name: 'Enlace no válido' })).toBeVisible();
  await screenshot(page, 'restablecer-invalido');

  await signIn(page, 'usuario2', RECOVERED);
  await expectHome(page, 1);
});

test('un cambio de contraseña obligatorio va antes que todo lo demás', async ({ page, browser }) => {
  // The administrator resets usuario2's password: the e-mail brings a temporary one, which forces a change.
  const admin = await browser.newContext();
  const adminPage = await admin.newPage();
  await signIn(adminPage, 'admin', ADMIN_PASSWORD);
  await expectHome(adminPage, 4);
  const xsrf = (await admin.cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  const clientes = await (await adminPage.request.get('/api/clientes?q=Demo%20Industrial')).json();
  const idCliente = clientes.clientes[0].id as number;
  const usuarios = await (
    await adminPage.request.get(`/api/usuarios?id_cliente=${idCliente}&q=usuario2`)
  ).json();
  const target = usuarios.usuarios.find((u: { usuario: string }) => u.usuario === 'usuario2');
  const reset = await adminPage.request.post(`/api/recuperar/password/${target.id}`, {
    headers: { 'X-XSRF-TOKEN': decodeURIComponent(xsrf) },
  });
  expect(reset.status()).toBe(200);
  await admin.close();
  const mail = await waitForMail((m) => m.subject.includes('contraseña temporal'));
  const temporary = mail.text.match(/Contraseña temporal: (\S+)/)?.[1];
  expect(temporary).toBeTruthy();

  await signIn(page, 'usuario2', temporary!);
  await expect(page).toHaveURL(/\/cambiar-password$/);
  await expect(page.getByRole('heading', { name: 'Cambia tu contraseña' })).toBeVisible();
  await page.goto('/usuario/historial');
  await expect(page).toHaveURL(/\/cambiar-password$/);
  await screenshot(page, 'cambiar-password-obligatorio');

  await page.getByLabel('Contraseña actual').fill(temporary!);
  await page.getByLabel('Nueva contraseña', { exact: true }).fill('Temporal#2026');
  await page.getByLabel('Confirmar nueva contraseña').fill('Temporal#2026');
  await page.getByRole('button', { name: 'Guardar y continuar' }).click();
  await expect(page.getByText('Contraseña actualizada')).toBeVisible();
  await expectHome(page, 1);
});
