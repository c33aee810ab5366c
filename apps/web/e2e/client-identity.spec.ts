import { MSG } from '../../server/src/messages';
import { expect, PHONE_WIDTH, screenshot, test } from './fixtures';
import {
  asAdmin,
  clearNotifications,
  createAccount,
  createClient,
  expectNotice,
  runSuffix,
  scrollDialogTop,
} from './helpers';
import { signInClientAdmin } from './totp';

/**
 * A client administrator (rol 5) whose client allows `identidad` (decisions 0120, 0121, 0122) sets its own
 * company's sign-in and provisioning from «Mi empresa», in the distributor's own dialogs: «Inicio de sesión
 * de la empresa» refuses a domain that is not its company's and saves its own; «Aprovisionamiento (SCIM)»
 * generates the token, shown once, which the provider's request then uses. The client and its administrator
 * are this attempt's own, made through the API; nothing of the screens calls a route it is refused (403).
 */
test('el administrador de cliente configura el inicio de sesión de su empresa y genera su token SCIM', async ({
  browser,
  page,
}) => {
  test.setTimeout(180_000);
  const suffix = runSuffix();
  const cliente = `Textiles del Golfo ${suffix}`;
  const dominio = `textiles-golfo-${suffix}.com.mx`;
  const administradora = `rosa.medina.${suffix}`;
  const password = 'MiEmpresa#2026';
  await asAdmin(browser, async (admin) => {
    const id = await createClient(admin, {
      nombre: cliente,
      presupuesto_default: 2000,
      limite_de_compras: -1,
      permisos_cliente: 'usuarios,identidad',
    });
    await createAccount(
      admin,
      {
        id_cliente: id,
        usuario: administradora,
        correo: `rosa.medina@${dominio}`,
        nombre: 'Rosa Medina Castro',
        rol: 5,
      },
      password,
    );
  });

  const refused = await signInClientAdmin(page, administradora, password);
  await expect(page.getByTestId('permisos-cliente')).toContainText(
    'Puedes administrar: Inicio de sesión de la empresa (SSO) y aprovisionamiento (SCIM)',
  );
  const section = page.getByRole('region', { name: 'Inicio de sesión y aprovisionamiento' });
  await expect(section).toBeVisible();
  await section.scrollIntoViewIfNeeded();
  await screenshot(page, 'cliente-identidad');

  // Its company's sign-in: another company's domain is the distributor's to add; its own is saved.
  await section.getByRole('button', { name: 'Inicio de sesión de la empresa' }).click();
  const sso = page.getByRole('dialog', { name: 'Inicio de sesión de la empresa' });
  await expect(sso.getByText(`Los usuarios de ${cliente} entran con la cuenta de su empresa`)).toBeVisible();
  await sso.getByLabel('Emisor (issuer)').fill(`http://127.0.0.1:9/realms/textiles-${suffix}`);
  await sso.getByLabel('Identificador de cliente').fill('portal-de-compras');
  await sso.getByLabel('Secreto de cliente').fill('secreto-de-textiles-del-golfo');
  const ajeno = `otra-empresa-${suffix}.mx`;
  await sso.getByRole('textbox', { name: 'Dominios' }).fill(`${dominio}, ${ajeno}`);
  await sso.getByRole('button', { name: 'Guardar' }).click();
  await expect(sso.getByText(MSG.ssoDominioNoPermitido([ajeno])).first()).toBeVisible();
  await sso.getByRole('textbox', { name: 'Dominios' }).fill(dominio);
  await scrollDialogTop(page);
  await screenshot(page, 'cliente-identidad-sso');
  await sso.getByRole('button', { name: 'Guardar' }).click();
  await expectNotice(page, MSG.ssoGuardado);
  await expect(sso).toBeHidden();
  await clearNotifications(page);
  await section.getByRole('button', { name: 'Inicio de sesión de la empresa' }).click();
  await expect(sso.getByRole('textbox', { name: 'Dominios' })).toHaveValue(dominio);
  await expect(sso.getByLabel('Secreto de cliente')).toHaveAttribute(
    'placeholder',
    'Guardado — déjalo vacío para conservarlo',
  );
  await sso.getByRole('button', { name: 'Cancelar' }).click();
  await expect(sso).toBeHidden();

  // Its SCIM token: shown once, it provisions the company; opened again, only its prefix.
  await section.getByRole('button', { name: 'Aprovisionamiento (SCIM)' }).click();
  const scim = page.getByRole('dialog', { name: 'Aprovisionamiento (SCIM)' });
  await expect(scim.getByText('Sin token: el aprovisionamiento está apagado.')).toBeVisible();
  const url = await scim.getByRole('textbox', { name: 'URL de SCIM' }).inputValue();
  await scim.getByRole('button', { name: 'Generar token' }).click();
  const shown = scim.getByTestId('valor-una-vez');
  await expect(shown).toHaveText(/^scim_[\w-]+$/);
  const token = (await shown.textContent())!;
  await expect(scim.getByText(/Token activo: scim_/)).toBeVisible();
  await scrollDialogTop(page);
  await screenshot(page, 'cliente-identidad-scim');
  const size = page.viewportSize();
  await page.setViewportSize({ width: PHONE_WIDTH, height: 844 });
  await scrollDialogTop(page);
  await screenshot(page, 'cliente-identidad-scim-390');
  if (size) await page.setViewportSize(size);
  const users = await page.request.get(`${url}/Users`, { headers: { authorization: `Bearer ${token}` } });
  expect(users.status(), await users.text()).toBe(200);
  // Its own account is not the provider's: SCIM lists none of the client's administrators.
  expect((await users.json()).totalResults).toBe(0);
  await scim.getByRole('button', { name: 'Cerrar' }).click();
  await expect(scim).toBeHidden();
  await section.getByRole('button', { name: 'Aprovisionamiento (SCIM)' }).click();
  await expect(scim.getByText(/Token activo: scim_/)).toBeVisible();
  await expect(scim.getByTestId('valor-una-vez')).toHaveCount(0);

  expect(refused).toEqual([]);
});
