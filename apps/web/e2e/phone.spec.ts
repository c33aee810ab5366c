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
