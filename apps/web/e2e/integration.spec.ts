import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, screenshot, signIn, test } from './fixtures';
import {
  apiPost,
  asAdmin,
  assignAll,
  businessToday,
  choose,
  createAccount,
  createCategory,
  createClient,
  createProduct,
  openAccessWeek,
  runSuffix,
  signInAdmin,
} from './helpers';
import { e2eBaseUrl } from './ports';

/**
 * Integraciones (issue 16, items 4 and 5): the operator creates a token, sees its value once, uses it on
 * the v1 API and revokes it; registers a webhook to a receiver on this machine, sees the signing secret
 * once, and follows a purchase's delivery in the log, then resends it. Client, buyer and order are this
 * attempt's own.
 */

const PASSWORD = 'Integra#2026';

interface Hook {
  headers: http.IncomingHttpHeaders;
  body: string;
}

test('tokens and webhooks: shown once, revoked, delivered, signed and resent', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const hooks: Hook[] = [];
  const receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      hooks.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const port = (receiver.address() as AddressInfo).port;
  try {
    const suffix = runSuffix();
    const cliente = `Almacenes Integra ${suffix}`;
    const usuario = `compras.integra.${suffix}`;
    const made = await asAdmin(browser, async (admin) => {
      const idCliente = await createClient(admin, {
        nombre: cliente,
        presupuesto_default: 5000,
        limite_de_compras: -1,
      });
      await openAccessWeek(admin, idCliente);
      const categoria = await createCategory(admin, idCliente, 'Empaque', 'IconBox');
      const producto = await createProduct(admin, {
        id_cliente: idCliente,
        id_categoria: categoria,
        clave_interna: 'EM-01',
        nombre: 'Caja de cartón',
        precio: 120,
        unidad_de_medida: 'Pieza',
      });
      const idUser = await createAccount(
        admin,
        {
          id_cliente: idCliente,
          usuario,
          correo: `${usuario}@integra.mx`,
          nombre: `Compras Integra ${suffix}`,
          rol: 1,
          presupuesto_default: 5000,
          limite_de_compras: -1,
        },
        PASSWORD,
      );
      await assignAll(admin, idUser, 10);
      return { idCliente, producto };
    });

    await signInAdmin(page);
    await page.getByRole('link', { name: 'Integraciones' }).first().click();
    await expect(page.getByRole('heading', { name: 'Integraciones', level: 1 })).toBeVisible();

    // A token: its value once.
    const nombre = `ERP ${suffix}`;
    await page.getByLabel('Nombre').fill(nombre);
    await page.getByRole('button', { name: 'Crear token' }).click();
    const shown = page.getByTestId('valor-una-vez');
    await expect(shown).toHaveText(/^pdc_[\w-]{43}$/);
    const token = (await shown.textContent())!;
    const row = page
      .getByRole('table', { name: 'Tokens de integración' })
      .getByRole('row')
      .filter({ hasText: nombre });
    await expect(row).toContainText(token.slice(0, 12));
    await expect(row).toContainText('Nunca');
    await screenshot(page, 'admin-integraciones-token');
    const v1 = () =>
      request.get(`${e2eBaseUrl()}/api/v1/pedidos?limite=1`, {
        headers: { authorization: `Bearer ${token}` },
      });
    expect((await v1()).status()).toBe(200);
    await page.reload();
    await expect(page.getByTestId('valor-una-vez')).toHaveCount(0);
    await expect(page.getByText(token)).toHaveCount(0);
    await expect(row).not.toContainText('Nunca');
    await row.getByRole('button', { name: `Revocar ${nombre}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revocar', exact: true }).click();
    await expect(row).toContainText('Revocado');
    expect((await v1()).status()).toBe(401);

    // A webhook: its secret once; a purchase delivered, signed; Reenviar sends it again.
    await page.getByRole('tab', { name: 'Webhooks' }).click();
    const url = `http://127.0.0.1:${port}/eventos-${suffix}`;
    await page.getByLabel('URL').fill(url);
    await choose(page, 'Cliente', cliente, cliente);
    await page.getByRole('checkbox', { name: 'pedido.creado' }).check();
    await page.getByRole('button', { name: 'Registrar webhook' }).click();
    await expect(page.getByTestId('valor-una-vez')).toHaveText(/^whsec_[\w-]{43}$/);
    const secret = (await page.getByTestId('valor-una-vez').textContent())!;

    const context = await browser.newContext({
      baseURL: e2eBaseUrl(),
      locale: 'es-MX',
      timezoneId: 'America/Mexico_City',
    });
    let idPedido: number;
    try {
      const buyer = await context.newPage();
      await signIn(buyer, usuario, PASSWORD);
      await expect(buyer).toHaveURL(/\/usuario\/principal$/, { timeout: 60_000 });
      await apiPost(buyer, '/api/carrito/nuevo_item', { item: { id: made.producto, cantidad: 2 } });
      const compra = await apiPost<{ pedido: { id: number } }>(buyer, '/api/compra', {
        orden: [{ id: made.producto, cantidad: 2 }],
        fecha: businessToday(),
      });
      idPedido = compra.pedido.id;
    } finally {
      await context.close();
    }
    await expect.poll(() => hooks.length, { timeout: 20_000 }).toBe(1);
    const first = hooks[0]!;
    const body = JSON.parse(first.body) as { id: string; tipo: string; pedido: { id: number } };
    expect(body).toMatchObject({ tipo: 'pedido.creado', pedido: { id: idPedido } });
    const [t, v1sig] = String(first.headers['x-portal-firma'])
      .split(',')
      .map((p) => p.split('=')[1]);
    expect(createHmac('sha256', secret).update(`${t}.${first.body}`).digest('hex')).toBe(v1sig);

    const log = page.getByRole('table', { name: 'Bitácora de entregas' });
    const delivery = log.getByRole('row').filter({ hasText: 'pedido.creado' });
    await expect(delivery).toContainText('Entregado', { timeout: 15_000 });
    await expect(delivery).toContainText(`#${String(idPedido).padStart(5, '0')}`);
    await page.getByRole('button', { name: 'Ocultar' }).click();
    await expect(page.getByText(secret)).toHaveCount(0);
    await screenshot(page, 'admin-integraciones-webhooks');
    await delivery.getByRole('button', { name: /^Reenviar/ }).click();
    await expect.poll(() => hooks.length, { timeout: 20_000 }).toBe(2);
    expect(JSON.parse(hooks[1]!.body).id).toBe(body.id);
    await expect(delivery).toContainText('Entregado');
    await expect(delivery.getByRole('cell').nth(3)).toHaveText('2', { timeout: 15_000 });
  } finally {
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  }
});
