import { MSG } from '@portal/shared/messages';
import { expect, PHONE_WIDTH, screenshot, signIn, test } from './fixtures';
import {
  apiPost,
  apiSignIn,
  asAdmin,
  createClient,
  placeOrder,
  reviewWorld,
  runSuffix,
  scrollDialogTop,
  signInAdminApi,
} from './helpers';

/**
 * SCIM provisioning per client (issue 40 item 5, decision 0121): the administrator generates a client's
 * token in «Aprovisionamiento (SCIM)», shown once; with it the client's identity provider creates a user
 * through /scim/v2 (its own request, as Microsoft Entra ID would make it); revoked, the token opens nothing.
 * The client is this attempt's own, made through the API.
 */
test('el administrador genera el token SCIM de un cliente, el proveedor da de alta a un usuario y el token revocado ya no sirve', async ({
  browser,
  page,
}) => {
  test.setTimeout(120_000);
  const suffix = runSuffix();
  const cliente = `Textiles Norte ${suffix}`;
  const idCliente = await asAdmin(browser, (admin) =>
    createClient(admin, { nombre: cliente, presupuesto_default: 3000, limite_de_compras: -1 }),
  );
  await signInAdminApi(page);
  await page.goto(`/administrador/clientes?q=${encodeURIComponent(cliente)}`);
  await expect(page.getByText('Mostrando 1–1 de 1 cliente')).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: `Pantallas de ${cliente}` }).click();
  await page.getByRole('menuitem', { name: 'Aprovisionamiento (SCIM)' }).click();
  const dialog = page.getByRole('dialog', { name: 'Aprovisionamiento (SCIM)' });
  await expect(dialog.getByText('Sin token: el aprovisionamiento está apagado.')).toBeVisible();
  const url = await dialog.getByRole('textbox', { name: 'URL de SCIM' }).inputValue();
  expect(url).toMatch(/\/scim\/v2$/);

  await dialog.getByRole('button', { name: 'Generar token' }).click();
  const shown = dialog.getByTestId('valor-una-vez');
  await expect(shown).toHaveText(/^scim_[\w-]+$/);
  const token = (await shown.textContent())!;
  await expect(dialog.getByText(/Token activo: scim_/)).toBeVisible();
  await scrollDialogTop(page);
  await screenshot(page, 'admin-cliente-scim');
  const size = page.viewportSize();
  await page.setViewportSize({ width: PHONE_WIDTH, height: 844 });
  await scrollDialogTop(page);
  await screenshot(page, 'admin-cliente-scim-390');
  if (size) await page.setViewportSize(size);

  // The provider's own request: a new user of this client, as RFC 7644 §3.3 shows it.
  const usuario = `mario.leal.${suffix}`;
  const created = await page.request.post(`${url}/Users`, {
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/scim+json' },
    data: {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      userName: usuario,
      name: { givenName: 'Mario', familyName: 'Leal Ortiz' },
      emails: [{ value: `mario.leal@textiles-${suffix}.mx`, type: 'work', primary: true }],
      active: true,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  expect((await created.json()).userName).toBe(usuario);

  // The user is the client's, in the administrator's users list.
  await page.goto(`/administrador/usuarios?cliente=${idCliente}&q=${encodeURIComponent(usuario)}`);
  await expect(page.getByText('Mario Leal Ortiz').first()).toBeVisible({ timeout: 30_000 });

  // Revoked: the provider's next request is refused.
  await page.goto(`/administrador/clientes?q=${encodeURIComponent(cliente)}`);
  await page.getByRole('button', { name: `Pantallas de ${cliente}` }).click();
  await page.getByRole('menuitem', { name: 'Aprovisionamiento (SCIM)' }).click();
  await dialog.getByRole('button', { name: 'Revocar' }).click();
  await page
    .getByRole('dialog', { name: 'Revocar el token' })
    .getByRole('button', { name: 'Revocar' })
    .click();
  await expect(dialog.getByText('Sin token: el aprovisionamiento está apagado.')).toBeVisible();
  const refused = await page.request.get(`${url}/Users`, { headers: { authorization: `Bearer ${token}` } });
  expect(refused.status()).toBe(401);
  expect((await refused.json()).detail).toBe('Token de acceso inválido.');
});

/**
 * A leaver (issue 40 item 5): the client's provider deactivates a buyer through SCIM while the buyer has the
 * portal open and an order waiting; the buyer's next step lands on the sign-in page, the password no longer
 * opens anything, and the order is withdrawn with 'Usuario dado de baja' (the distributor reads why).
 */
test('una baja por SCIM cierra la sesión abierta del comprador y retira su pedido pendiente', async ({
  browser,
  page,
}) => {
  test.setTimeout(120_000);
  const suffix = runSuffix();
  const password = 'Baja#Scim2026';
  const comprador = `elena.vera.${suffix}`;
  const { idCliente, producto } = await reviewWorld(browser, {
    cliente: `Textiles Sur ${suffix}`,
    niveles: 1,
    presupuesto: 5000,
    categoria: { nombre: `Telas ${suffix}`, icono: 'IconShirt' },
    producto: { clave_interna: `TEL-${suffix}`, nombre: 'Rollo de manta cruda', precio: 480 },
    comprador: { usuario: comprador, correo: `${comprador}@textiles-sur.mx`, nombre: 'Elena Vera Luna' },
    autorizador: {
      usuario: `hugo.mora.${suffix}`,
      correo: `hugo.mora.${suffix}@textiles-sur.mx`,
      nombre: 'Hugo Mora Paz',
    },
    password,
    cantidadLimite: 5,
  });
  const scim = await asAdmin(browser, (admin) =>
    apiPost<{ token: string; url: string }>(admin, `/api/clients/${idCliente}/scim/token`, {}),
  );
  const headers = { authorization: `Bearer ${scim.token}`, 'content-type': 'application/scim+json' };

  // The buyer has an order waiting and the portal open on it.
  await apiSignIn(page.request, comprador, password);
  const pedido = await placeOrder(page, producto, 2);
  await page.goto(`/usuario/historial/${pedido.id}`);
  await expect(page.getByTestId('estatus-pedido')).toHaveText('Pendiente');

  // The provider finds the buyer by userName and deactivates it, as Microsoft Entra ID does.
  const found = await page.request.get(
    `${scim.url}/Users?filter=${encodeURIComponent(`userName eq "${comprador}"`)}`,
    { headers },
  );
  const { Resources } = (await found.json()) as { Resources: { id: string }[] };
  expect(Resources).toHaveLength(1);
  const patched = await page.request.patch(`${scim.url}/Users/${Resources[0]!.id}`, {
    headers,
    data: {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'replace', path: 'active', value: false }],
    },
  });
  expect(patched.status(), await patched.text()).toBe(200);
  expect((await patched.json()).active).toBe(false);

  // The open session is over: the next page is the sign-in, and the password opens nothing.
  await page.goto('/usuario/principal');
  await expect(page).toHaveURL(/\/login/);
  await signIn(page, comprador, password);
  await expect(page.getByRole('alert').filter({ hasText: MSG.usuarioInactivo })).toBeVisible();
  await expect(page).toHaveURL(/\/login/);

  // The order was withdrawn, and the distributor reads why.
  await asAdmin(browser, async (admin) => {
    await admin.goto(`/administrador/pedidos/${pedido.id}`);
    await expect(admin.getByText('Usuario dado de baja').first()).toBeVisible({ timeout: 30_000 });
    // Withdrawn because the account was closed, not by the buyer's hand.
    await expect(admin.getByText('Pedido retirado: el comprador fue dado de baja')).toBeVisible();
    await expect(admin.getByText('Pedido retirado por el comprador')).toHaveCount(0);
    await screenshot(admin, 'admin-pedido-baja-scim');
  });
});
