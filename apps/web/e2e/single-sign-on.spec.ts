import type { Browser, Page } from '@playwright/test';
import { MSG } from '../../server/src/messages';
import { startTestProvider } from '../../server/src/test/oidc-provider';
import { DEMO_PASSWORD, expect, expectHome, PHONE_WIDTH, screenshot, signIn, test } from './fixtures';
import {
  asAdmin,
  createAccount,
  createClient,
  expectNotice,
  openAccessWeek,
  runSuffix,
  scrollDialogTop,
  signInAdminApi,
  xsrfHeaders,
} from './helpers';
import { e2eBaseUrl } from './ports';

/**
 * Single sign-on per client (issue 40 item 4, decision 0120) against a real OpenID Connect provider on this
 * machine (apps/server/src/test/oidc-provider.ts; the e2e server runs with SSO_ALLOW_PRIVATE): the
 * administrator sets a client's provider in its dialog, a buyer of that client types their e-mail on the
 * sign-in screen and enters through the provider's own sign-in page; with «Obligatorio» the password is
 * refused. The client and the buyer are this attempt's own, made through the API.
 */

const CLIENT_ID = 'portal-compras-e2e';
const CLIENT_SECRET = 'secreto-de-prueba-del-proveedor';

let provider: Awaited<ReturnType<typeof startTestProvider>>;

test.beforeAll(async () => {
  provider = await startTestProvider({
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    redirectUri: `${e2eBaseUrl()}/api/sso/retorno`,
  });
});

test.afterAll(async () => {
  await provider?.close();
});

interface World {
  cliente: string;
  idCliente: number;
  dominio: string;
  usuario: string;
  correo: string;
}

const worlds = new Map<string, World>();

/**
 * This attempt's client (with an open access week) and its buyer, who has chosen a password; the provider
 * knows the buyer by their e-mail, verified.
 */
async function world(browser: Browser): Promise<World> {
  const suffix = runSuffix();
  let w = worlds.get(suffix);
  if (!w) {
    const dominio = `ferreteria-bajio-${suffix}.com.mx`;
    const usuario = `lucia.ramos.${suffix}`;
    const correo = `lucia.ramos@${dominio}`;
    const cliente = `Ferretería del Bajío ${suffix}`;
    const idCliente = await asAdmin(browser, async (admin) => {
      const id = await createClient(admin, {
        nombre: cliente,
        presupuesto_default: 5000,
        limite_de_compras: -1,
      });
      await openAccessWeek(admin, id);
      await createAccount(
        admin,
        { id_cliente: id, usuario, correo, nombre: `Lucía Ramos ${suffix}`, rol: 1 },
        DEMO_PASSWORD,
      );
      return id;
    });
    provider.setAccount(correo, {
      email: correo,
      email_verified: true,
      name: `Lucía Ramos ${suffix}`,
    });
    w = { cliente, idCliente, dominio, usuario, correo };
    worlds.set(suffix, w);
  }
  return w;
}

/** The provider's sign-in page loads a web font from the internet: the test machine answers it empty. */
async function offline(page: Page): Promise<void> {
  await page.route(/^https:\/\/fonts\.(googleapis|gstatic)\.com\//, (route) =>
    route.fulfill({ status: 200, contentType: 'text/css', body: '' }),
  );
}

test('el administrador configura el inicio de sesión de la empresa y el comprador entra con su cuenta', async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  const w = await world(browser);
  await signInAdminApi(page);
  await page.goto(`/administrador/clientes?q=${encodeURIComponent(w.cliente)}`);
  await expect(page.getByText('Mostrando 1–1 de 1 cliente')).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: `Pantallas de ${w.cliente}` }).click();
  await page.getByRole('menuitem', { name: 'Inicio de sesión de la empresa' }).click();
  const dialog = page.getByRole('dialog', { name: 'Inicio de sesión de la empresa' });
  await expect(dialog.getByLabel('Emisor (issuer)')).toBeVisible();
  // The return address to register at the provider is there before anything is saved.
  await expect(dialog.getByRole('textbox', { name: 'Dirección de retorno' })).toHaveValue(
    `${e2eBaseUrl()}/api/sso/retorno`,
  );

  // Nothing filled: each field says what it needs, the secret included (there is none yet).
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(dialog.getByText(MSG.ssoEmisorInvalido)).toBeVisible();
  await expect(dialog.getByText(MSG.ssoSecretoRequerido)).toBeVisible();
  await expect(dialog.getByText(MSG.ssoDominiosInvalidos)).toBeVisible();

  await dialog.getByLabel('Emisor (issuer)').fill(provider.issuer);
  await dialog.getByLabel('Identificador de cliente').fill(CLIENT_ID);
  await dialog.getByLabel('Secreto de cliente').fill(CLIENT_SECRET);
  await dialog.getByRole('textbox', { name: 'Dominios' }).fill(`${w.dominio}, bajio-${runSuffix()}.mx`);
  await expect(dialog.getByText(MSG.ssoEmisorInvalido)).toBeHidden();
  await scrollDialogTop(page);
  await screenshot(page, 'admin-cliente-sso');
  const size = page.viewportSize();
  await page.setViewportSize({ width: PHONE_WIDTH, height: 844 });
  await scrollDialogTop(page);
  await screenshot(page, 'admin-cliente-sso-390');
  if (size) await page.setViewportSize(size);
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expectNotice(page, MSG.ssoGuardado);
  await expect(dialog).toBeHidden();

  // Opened again: what was saved, and the secret kept without being shown.
  await page.getByRole('button', { name: `Pantallas de ${w.cliente}` }).click();
  await page.getByRole('menuitem', { name: 'Inicio de sesión de la empresa' }).click();
  await expect(dialog.getByLabel('Emisor (issuer)')).toHaveValue(provider.issuer);
  await expect(dialog.getByRole('textbox', { name: 'Dominios' })).toHaveValue(
    `${w.dominio}, bajio-${runSuffix()}.mx`,
  );
  await expect(dialog.getByLabel('Secreto de cliente')).toHaveValue('');
  await expect(dialog.getByLabel('Secreto de cliente')).toHaveAttribute(
    'placeholder',
    'Guardado — déjalo vacío para conservarlo',
  );
  await expect(dialog.getByRole('button', { name: 'Quitar' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancelar' }).click();
  await expect(dialog).toBeHidden();

  // The buyer, in a browser that has no session: the e-mail shows the company's button.
  await page.context().clearCookies();
  await offline(page);
  await page.goto('/login');
  await page.getByLabel('Usuario').fill(w.correo);
  const sso = page.getByRole('button', { name: 'Entrar con tu cuenta de la empresa' });
  await expect(sso).toBeVisible();
  await screenshot(page, 'login-sso');
  await page.setViewportSize({ width: PHONE_WIDTH, height: 844 });
  await expect(sso).toBeVisible();
  await screenshot(page, 'login-sso-390');
  if (size) await page.setViewportSize(size);
  // Another address: no button.
  await page.getByLabel('Usuario').fill(`lucia.ramos@otra-empresa-${runSuffix()}.mx`);
  await expect(sso).toBeHidden();
  await page.getByLabel('Usuario').fill(w.correo);
  await sso.click();

  // The provider's own sign-in page (oidc-provider's development pages), then its consent.
  await page.waitForURL((url) => url.href.startsWith(provider.issuer));
  await page.locator('input[name="login"]').fill(w.correo);
  await page.locator('input[name="password"]').fill('cualquiera');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  // The provider asks for consent unless the test provider grants it by itself.
  const consent = page.getByRole('button', { name: 'Continue' });
  const home = page.getByRole('heading', { name: 'Panel Usuario' });
  await expect(consent.or(home)).toBeVisible({ timeout: 30_000 });
  if (await consent.isVisible()) await consent.click();

  // Back in the portal, signed in as the buyer.
  await expectHome(page, 1);
  await expect(page.getByTestId('profile-menu')).toContainText(w.usuario);
});

test('con «Obligatorio» el comprador ya no entra con contraseña; los rechazos del proveedor se explican', async ({
  page,
  browser,
}) => {
  const w = await world(browser);
  await asAdmin(browser, async (admin) => {
    const res = await admin.request.put(`/api/clients/${w.idCliente}/sso`, {
      headers: await xsrfHeaders(admin),
      data: {
        emisor: provider.issuer,
        id_cliente: CLIENT_ID,
        secreto: CLIENT_SECRET,
        dominios: [w.dominio],
        obligatorio: true,
        alta_automatica: false,
        activo: true,
      },
    });
    expect(res.status(), await res.text()).toBe(200);
  });

  // The password is right, and refused: the company signs in with its own account.
  await signIn(page, w.usuario, DEMO_PASSWORD);
  await expect(page.getByRole('alert')).toContainText(MSG.ssoObligatorio);
  await expect(
    page.getByText('Para entrar con tu cuenta de la empresa, escribe tu correo de trabajo en «Usuario».'),
  ).toBeVisible();
  await page.getByLabel('Usuario').fill(w.correo);
  const sso = page.getByRole('button', { name: 'Entrar con tu cuenta de la empresa' });
  await expect(sso).toBeVisible();
  await screenshot(page, 'login-sso-obligatorio');
  await expect(page).toHaveURL(/\/login/);

  // Before any try, the e-mail alone says it.
  await page.goto('/login');
  await page.getByLabel('Usuario').fill(w.correo);
  await expect(page.getByText('Tu empresa inicia sesión con su propia cuenta.')).toBeVisible();
  await expect(sso).toBeVisible();

  // A sign-in that came back from the provider refused: the reason, in words.
  await page.goto('/login?sso=sin_cuenta');
  await expect(page.getByRole('alert')).toContainText(MSG.ssoSinCuenta);
  await page.goto('/login?sso=desconocido');
  await expect(page.getByRole('alert')).toContainText(MSG.ssoRechazado);
});
