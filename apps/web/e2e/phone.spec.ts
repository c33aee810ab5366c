import {
  ADMIN_PASSWORD,
  DEMO_PASSWORD,
  expect,
  expectHome,
  PHONE_WIDTH,
  screenshot,
  signIn,
  test,
} from './fixtures';
import { placeOrder, reviewWorld, runSuffix } from './helpers';

/**
 * Every role's list screens on a phone (390 px): each is pictured as docs/screenshots/<name>-390.png, which
 * also runs axe-core and checks that nothing scrolls sideways (fixtures.ts `screenshot`). Only reads.
 */
test.use({ viewport: { width: PHONE_WIDTH, height: 844 } });

const AREAS = [
  {
    usuario: 'usuario',
    password: DEMO_PASSWORD,
    rol: 1,
    screens: [{ path: '/usuario/historial', name: 'usuario-historial-390' }],
  },
  {
    usuario: 'autorizador',
    password: DEMO_PASSWORD,
    rol: 2,
    screens: [{ path: '/autorizador/principal', name: 'autorizador-principal-390' }],
  },
  {
    usuario: 'admin',
    password: ADMIN_PASSWORD,
    rol: 4,
    screens: [
      { path: '/administrador/principal', name: 'administrador-principal-390' },
      { path: '/administrador/usuarios', name: 'admin-usuarios-390' },
      { path: '/administrador/semanas', name: 'admin-semanas-390' },
      { path: '/administrador/logs', name: 'admin-logs-390' },
    ],
  },
] as const;

test('recuperar acceso en un teléfono', async ({ page }) => {
  await page.goto('/recuperar-acceso');
  await expect(page.getByRole('button', { name: 'Enviar' })).toBeVisible();
  await screenshot(page, 'recuperar-acceso-390');
});

for (const { usuario, password, rol, screens } of AREAS) {
  test(`${usuario}: sus pantallas en un teléfono`, async ({ page }) => {
    await signIn(page, usuario, password);
    await expectHome(page, rol);
    for (const { path, name } of screens) {
      await page.goto(path);
      await expect(page).toHaveURL(new RegExp(`${path}$`));
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await screenshot(page, name);
    }
  });
}

test('el autorizador abre un pedido desde el final de su lista: la orden empieza arriba, con su número, estatus y presupuesto', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const suffix = runSuffix();
  const password = 'Telefono#2026';
  const comprador = `lidia.mar.${suffix}`;
  const autorizador = `tomas.rey.${suffix}`;
  const { producto } = await reviewWorld(browser, {
    cliente: `Papelera Mar ${suffix}`,
    niveles: 1,
    presupuesto: 500000,
    categoria: { nombre: 'Papelería', icono: 'IconPencil' },
    producto: { clave_interna: 'PAP-01', nombre: 'Block de notas', precio: 45 },
    comprador: { usuario: comprador, correo: `${comprador}@papeleramar.mx`, nombre: 'Lidia Mar Soto' },
    autorizador: { usuario: autorizador, correo: `${autorizador}@papeleramar.mx`, nombre: 'Tomás Rey Gil' },
    password,
    cantidadLimite: 10,
  });
  // Enough orders for a list longer than the phone's screen; the oldest is at the bottom.
  const buyerContext = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  const buyer = await buyerContext.newPage();
  await signIn(buyer, comprador, password);
  await expectHome(buyer, 1);
  const placed: number[] = [];
  for (let i = 0; i < 12; i++) placed.push((await placeOrder(buyer, producto, 1)).id);
  await buyerContext.close();
  const oldest = `#${String(placed[0]).padStart(5, '0')}`;

  await signIn(page, autorizador, password);
  await expectHome(page, 2);
  const link = page.getByRole('link', { name: `Ver pedido ${oldest}` }).filter({ visible: true });
  await link.scrollIntoViewIfNeeded();
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(300);
  await link.click();

  await expect(page).toHaveURL(new RegExp(`/autorizador/orden/${placed[0]}$`));
  const heading = page.getByRole('heading', { name: `Pedido ${oldest}`, level: 1 });
  await expect(heading).toBeVisible();
  // The new screen opens at its top (issue 37, item 3): number, status and budget on the first screen.
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  await expect(heading).toBeInViewport();
  await expect(page.getByTestId('estatus-pedido')).toBeInViewport();
  await expect(
    page.getByLabel('Presupuesto del usuario').getByText('Presupuesto disponible'),
  ).toBeInViewport();
  await screenshot(page, 'autorizador-orden-desde-lista-390');
});
