import { readFileSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { MSG } from '../../server/src/messages';
import { checkA11y, expect, expectHome, screenshot, signIn, signOut, test } from './fixtures';
import {
  apiPost,
  checkPhone,
  clientId,
  confirm,
  expectNotice,
  runSuffix,
  signInAdmin,
  signInAdminApi,
  toggleSwitch,
  xsrfHeaders,
} from './helpers';
import { waitForMail } from './mailbox';
import { e2eBaseUrl } from './ports';
import { codeAt, manualKey, shownBackupCodes } from './totp';

/**
 * "Verificación en dos pasos" end to end: an authorizer of its own turns it on from Seguridad (the code
 * computed from the key shown on screen, as an authenticator app would), signs in with a fresh code and
 * with a backup code, and the administrator resets it; then a client that requires it sends its new
 * authorizer through the forced password change and the enrolment before anything else. Serial: each test
 * continues from the previous one.
 */
test.describe.configure({ mode: 'serial' });

/** This attempt's users and client (a retry creates its own under new names). */
const AUTORIZADOR = () => `gerardo.trevino.${runSuffix()}`;
const CORREO = () => `${AUTORIZADOR()}@demo-industrial.mx`;
const OBLIGADO = () => `elena.vargas.${runSuffix()}`;
const CORREO_OBLIGADO = () => `${OBLIGADO()}@seguridad-del-norte.mx`;
const CLIENTE = () => `Seguridad del Norte ${runSuffix()}`;
const PASSWORD = 'DosPasos#2026';
const OBLIGADO_PASSWORD = 'Obligado#2026';

/** What a test leaves for the next: the key read from the screen, the last step used, the backup codes. */
const state = { secret: '', lastStep: 0, backupCodes: [] as string[] };

const STEP_MS = 30_000;
const stepAt = (ms: number) => Math.floor(ms / STEP_MS);

/**
 * A code of the step after `used` (a code never works twice). The server also takes the code of the step
 * next to its current one (an authenticator whose clock runs up to 30 s ahead), so the test waits only
 * while that step is more than one ahead of the clock, never for a whole step to pass.
 */
async function freshCode(page: Page, secret: string, used: number): Promise<{ code: string; step: number }> {
  const step = Math.max(used + 1, stepAt(Date.now()));
  const wait = (step - 1) * STEP_MS - Date.now();
  if (wait > 0) await page.waitForTimeout(wait + 300);
  return { code: codeAt(secret, step * STEP_MS), step };
}

/** Six digits the app does not show now (the current code with its last digit changed). */
function wrongCode(secret: string): string {
  const code = codeAt(secret, Date.now());
  return `${code.slice(0, 5)}${(Number(code[5]) + 1) % 10}`;
}

async function openSecurity(page: Page): Promise<Locator> {
  await page.getByTestId('profile-menu').click();
  await page.getByRole('menuitem', { name: 'Seguridad' }).click();
  const dialog = page.getByRole('dialog', { name: 'Seguridad' });
  await expect(dialog.getByRole('heading', { name: 'Verificación en dos pasos' })).toBeVisible();
  return dialog;
}

async function closeDialog(page: Page, dialog: Locator): Promise<void> {
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
}

/** The second step of the sign-in, after a right password. */
async function expectSecondStep(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Verificación en dos pasos' })).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
}

/** A user of a client, created by the administrator through the API; returns its id. */
async function createAuthorizer(page: Page, idCliente: number, usuario: string, correo: string) {
  const { usuario: created } = await apiPost<{ usuario: { id: number } }>(page, '/api/usuarios', {
    id_cliente: idCliente,
    usuario,
    user_id: correo,
    nombre: `Autorizador ${usuario}`,
    rol: 2,
    direccion_entrega: 'Av. Seguridad 2026, Monterrey',
    active_week: 1,
    entrega_week: 1,
  });
  return created.id;
}

// ---------------------------------------------------------------------------------------------------------

test('un autorizador activa la verificación en dos pasos desde Seguridad', async ({ page }) => {
  test.setTimeout(120_000);
  await signInAdminApi(page);
  await createAuthorizer(page, await clientId(page, 'Demo Industrial'), AUTORIZADOR(), CORREO());
  // The new authorizer's link opens in a browser without the administrator's session.
  await page.context().clearCookies();

  // The welcome e-mail's link: the new authorizer chooses a password.
  const mail = await waitForMail(
    (m) => m.to.includes(CORREO()) && m.subject === 'Bienvenido al Portal de Compras',
  );
  const link = mail.text.match(new RegExp(`${e2eBaseUrl()}/restablecer/[A-Za-z0-9_-]+`))?.[0];
  expect(link, 'enlace de bienvenida').toBeTruthy();
  await page.goto(link as string);
  await page.getByLabel('Nueva contraseña', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirmar nueva contraseña').fill(PASSWORD);
  await page.getByRole('button', { name: 'Guardar contraseña' }).click();
  await expect(page).toHaveURL(/\/login$/);

  await signIn(page, AUTORIZADOR(), PASSWORD);
  await expectHome(page, 2);
  const dialog = await openSecurity(page);
  await expect(dialog.getByText('Desactivada')).toBeVisible();
  await dialog.getByRole('button', { name: 'Activar verificación en dos pasos' }).click();
  // The current password first: a session alone cannot put an authenticator on the account.
  await dialog.getByLabel('Contraseña actual').fill('Equivocada#2026');
  await dialog.getByRole('button', { name: 'Continuar' }).click();
  await expect(dialog.getByText(MSG.passwordActualIncorrecta)).toBeVisible();
  await dialog.getByLabel('Contraseña actual').fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Continuar' }).click();

  await expect(
    dialog.getByRole('img', { name: 'Código QR para tu aplicación de autenticación' }),
  ).toBeVisible();
  const secret = await manualKey(dialog);
  await expect(dialog.getByLabel('Código de 6 dígitos')).toBeFocused();
  await screenshot(page, 'dos-pasos-activar');
  await checkPhone(page, 'dos-pasos-activar');

  // A wrong code is refused on the field; the enrolment stays open.
  await dialog.getByLabel('Código de 6 dígitos').fill(wrongCode(secret));
  await dialog.getByRole('button', { name: 'Activar' }).click();
  await expect(dialog.getByText('Código incorrecto')).toBeVisible();

  const now = Date.now();
  await dialog.getByLabel('Código de 6 dígitos').fill(codeAt(secret, now));
  await dialog.getByRole('button', { name: 'Activar' }).click();
  await expect(dialog.getByText('No se volverán a mostrar')).toBeVisible();
  const codes = await shownBackupCodes(dialog);
  expect(new Set(codes).size).toBe(10);

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    dialog.getByRole('button', { name: 'Descargar .txt' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`codigos-respaldo-${AUTORIZADOR()}.txt`);
  const text = readFileSync(await download.path(), 'utf8');
  for (const code of codes) expect(text).toContain(code);
  await screenshot(page, 'dos-pasos-codigos');

  await dialog.getByRole('button', { name: 'Listo' }).click();
  await expect(dialog.getByText('Activada', { exact: true })).toBeVisible();
  await expect(dialog.getByTestId('codigos-restantes')).toContainText('10 de 10');
  await expect(dialog.getByRole('button', { name: 'Desactivar' })).toBeEnabled();
  await screenshot(page, 'seguridad-dos-pasos');
  await closeDialog(page, dialog);
  await signOut(page);

  state.secret = secret;
  state.lastStep = stepAt(now);
  state.backupCodes = codes;
});

test('al entrar pide un código nuevo de la aplicación; uno equivocado se queda en el paso', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page, AUTORIZADOR(), PASSWORD);
  await expectSecondStep(page);
  await expect(page.getByLabel('Código de 6 dígitos')).toBeFocused();
  await screenshot(page, 'login-dos-pasos');
  await checkPhone(page, 'login-dos-pasos');

  await page.getByLabel('Código de 6 dígitos').fill(wrongCode(state.secret));
  await page.getByRole('button', { name: 'Verificar' }).click();
  await expect(page.getByText('Código incorrecto')).toBeVisible();
  await expectSecondStep(page);

  // 'Cancelar' goes back to the password (the usuario stays typed).
  await page.getByRole('button', { name: 'Cancelar' }).click();
  await expect(page.getByRole('heading', { name: 'Bienvenido' })).toBeVisible();
  await expect(page.getByLabel('Usuario')).toHaveValue(AUTORIZADOR());
  await expect(page.getByLabel('Contraseña', { exact: true })).toHaveValue('');
  await page.getByLabel('Contraseña', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Acceso' }).click();
  await expectSecondStep(page);

  const fresh = await freshCode(page, state.secret, state.lastStep);
  await page.getByLabel('Código de 6 dígitos').fill(fresh.code);
  await page.getByRole('button', { name: 'Verificar' }).click();
  await expectHome(page, 2);
  state.lastStep = fresh.step;
  await signOut(page);
});

test('código de respaldo, códigos nuevos, desactivar y volver a activar', async ({ page }) => {
  test.setTimeout(120_000);
  const [backup, unused] = state.backupCodes;
  await signIn(page, AUTORIZADOR(), PASSWORD);
  await expectSecondStep(page);
  await page.getByRole('button', { name: 'Usar un código de respaldo' }).click();
  await expect(page.getByLabel('Código de respaldo')).toBeFocused();
  await checkA11y(page, 'código de respaldo');
  await page.getByLabel('Código de respaldo').fill(backup!.toUpperCase());
  await page.getByRole('button', { name: 'Verificar' }).click();
  await expectHome(page, 2);

  // A backup code works once: 9 are left. New ones replace them all (a current code of the app asked).
  const dialog = await openSecurity(page);
  await expect(dialog.getByTestId('codigos-restantes')).toContainText('9 de 10');
  await dialog.getByRole('button', { name: 'Regenerar códigos de respaldo' }).click();
  await expect(dialog.getByLabel('Código de 6 dígitos')).toBeFocused();
  const fresh = await freshCode(page, state.secret, state.lastStep);
  await dialog.getByLabel('Código de 6 dígitos').fill(fresh.code);
  await dialog.getByRole('button', { name: 'Generar códigos nuevos' }).click();
  await expect(dialog.getByRole('heading', { name: 'Códigos de respaldo nuevos' })).toBeVisible();
  const renewed = await shownBackupCodes(dialog);
  expect(renewed).not.toContain(unused);
  await dialog.getByRole('button', { name: 'Listo' }).click();
  await expect(dialog.getByTestId('codigos-restantes')).toContainText('10 de 10');

  // Turning it off asks for the password and a code (here a backup code).
  await dialog.getByRole('button', { name: 'Desactivar' }).click();
  await dialog.getByLabel('Contraseña actual').fill('NoEsLaMia#2026');
  await dialog.getByLabel('Código de la aplicación o de respaldo').fill(renewed[0]!);
  await dialog.getByRole('button', { name: 'Desactivar' }).click();
  await expect(dialog.getByText(MSG.passwordActualIncorrecta)).toBeVisible();
  await dialog.getByLabel('Contraseña actual').fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Desactivar' }).click();
  await expectNotice(page, 'Verificación en dos pasos desactivada');
  await expect(dialog.getByText('Desactivada', { exact: true })).toBeVisible();

  // And on again, with a new key.
  await dialog.getByRole('button', { name: 'Activar verificación en dos pasos' }).click();
  await dialog.getByLabel('Contraseña actual').fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Continuar' }).click();
  const secret = await manualKey(dialog);
  expect(secret).not.toBe(state.secret);
  const now = Date.now();
  await dialog.getByLabel('Código de 6 dígitos').fill(codeAt(secret, now));
  await dialog.getByRole('button', { name: 'Activar' }).click();
  const codes = await shownBackupCodes(dialog);
  await dialog.getByRole('button', { name: 'Listo' }).click();
  await expect(dialog.getByText('Activada', { exact: true })).toBeVisible();
  await closeDialog(page, dialog);
  await signOut(page);

  // The old backup codes no longer open the account.
  await signIn(page, AUTORIZADOR(), PASSWORD);
  await expectSecondStep(page);
  await page.getByRole('button', { name: 'Usar un código de respaldo' }).click();
  await page.getByLabel('Código de respaldo').fill(unused!);
  await page.getByRole('button', { name: 'Verificar' }).click();
  await expect(page.getByText('Código incorrecto')).toBeVisible();
  await expectSecondStep(page);

  state.secret = secret;
  state.lastStep = stepAt(now);
  state.backupCodes = codes;
});

test('el administrador restablece la verificación en dos pasos del autorizador', async ({ page }) => {
  await signInAdminApi(page);
  const idCliente = await clientId(page, 'Demo Industrial');
  await page.goto(`/administrador/usuarios?cliente=${idCliente}`);
  await page.getByRole('searchbox', { name: 'Buscar usuario' }).fill(AUTORIZADOR());
  const row = page.getByTestId(`usuario-${AUTORIZADOR()}`).filter({ visible: true });
  await expect(row).toContainText('Dos pasos');
  await row
    .getByRole('button', { name: `Restablecer verificación en dos pasos de ${AUTORIZADOR()}` })
    .click();
  const question = page.getByRole('dialog', { name: '¿Estás seguro?' });
  await expect(question).toContainText(AUTORIZADOR());
  await screenshot(page, 'admin-restablecer-dos-pasos');
  await confirm(page, 'Restablecer');
  await expectNotice(page, 'Verificación en dos pasos restablecida');
  await expect(row).not.toContainText('Dos pasos');
  await expect(
    row.getByRole('button', { name: `Restablecer verificación en dos pasos de ${AUTORIZADOR()}` }),
  ).toHaveCount(0);
  await waitForMail(
    (m) =>
      m.to.includes(CORREO()) && m.subject === 'El administrador restableció tu verificación en dos pasos',
  );
  await signOut(page);

  // The password alone opens the account again.
  await signIn(page, AUTORIZADOR(), PASSWORD);
  await expectHome(page, 2);
});

test('un cliente que la exige: cambio de contraseña, luego la activación, antes que todo', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signInAdmin(page);
  const created = await page.request.post('/api/clientes', {
    headers: await xsrfHeaders(page),
    multipart: {
      nombre: CLIENTE(),
      presupuesto_default: '5000',
      limite_de_compras: '-1',
      modo_presupuesto: 'regular',
      cantidad_autorizadores: '1',
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const idCliente = ((await created.json()) as { cliente: { id: number } }).cliente.id;

  // The administrator turns the requirement on in the client's form.
  await page.goto('/administrador/clientes');
  await page.getByRole('searchbox', { name: 'Buscar cliente' }).fill(CLIENTE());
  const row = page.getByTestId(`cliente-${idCliente}`).filter({ visible: true });
  await row.getByRole('button', { name: `Editar ${CLIENTE()}` }).click();
  const form = page.getByRole('dialog', { name: 'Editar cliente' });
  const requirement = form.getByRole('switch', { name: 'Exigir verificación en dos pasos a autorizadores' });
  await expect(requirement).not.toBeChecked();
  await toggleSwitch(requirement);
  await expect(requirement).toBeChecked();
  await form.getByRole('button', { name: 'Guardar cambios' }).click();
  await expectNotice(page, MSG.modificadoCorrectamente);
  await expect(form).toBeHidden();
  await row.getByRole('button', { name: `Editar ${CLIENTE()}` }).click();
  await expect(requirement).toBeChecked();
  await form.getByRole('button', { name: 'Cancelar' }).click();

  // Its new authorizer gets a temporary password (which forces a change first).
  const idUsuario = await createAuthorizer(page, idCliente, OBLIGADO(), CORREO_OBLIGADO());
  await apiPost(page, `/api/recuperar/password/${idUsuario}`, {});
  const mail = await waitForMail(
    (m) => m.to.includes(CORREO_OBLIGADO()) && m.subject.includes('contraseña temporal'),
  );
  const temporary = mail.text.match(/Contraseña temporal: (\S+)/)?.[1];
  expect(temporary, 'contraseña temporal en el correo').toBeTruthy();
  await signOut(page);

  await signIn(page, OBLIGADO(), temporary!);
  await expect(page).toHaveURL(/\/cambiar-password$/);
  await page.getByLabel('Contraseña actual').fill(temporary!);
  await page.getByLabel('Nueva contraseña', { exact: true }).fill(OBLIGADO_PASSWORD);
  await page.getByLabel('Confirmar nueva contraseña').fill(OBLIGADO_PASSWORD);
  await page.getByRole('button', { name: 'Guardar y continuar' }).click();
  await expect(page).toHaveURL(/\/activar-verificacion$/);
  await expect(page.getByRole('heading', { name: 'Activa la verificación en dos pasos' })).toBeVisible();

  // Nothing else opens before the enrolment.
  await page.goto('/autorizador/principal');
  await expect(page).toHaveURL(/\/activar-verificacion\?volver=%2Fautorizador%2Fprincipal$/);
  await page.getByLabel('Contraseña actual').fill(OBLIGADO_PASSWORD);
  await page.getByRole('button', { name: 'Continuar' }).click();
  await expect(
    page.getByRole('img', { name: 'Código QR para tu aplicación de autenticación' }),
  ).toBeVisible();
  await expect(page.getByText(MSG.dosPasosRequerida)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Cerrar sesión' })).toBeVisible();
  await screenshot(page, 'dos-pasos-obligatoria');
  await checkPhone(page, 'dos-pasos-obligatoria');

  const secret = await manualKey(page);
  await page.getByLabel('Código de 6 dígitos').fill(codeAt(secret, Date.now()));
  await page.getByRole('button', { name: 'Activar' }).click();
  await shownBackupCodes(page);
  await page.getByRole('button', { name: 'Listo' }).click();
  await expectHome(page, 2);

  // Mandatory: it cannot be turned off.
  const dialog = await openSecurity(page);
  await expect(dialog.getByText('Activada', { exact: true })).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Desactivar' })).toBeDisabled();
  await expect(dialog.getByText(MSG.dosPasosObligatoria)).toBeVisible();
  await closeDialog(page, dialog);
});
