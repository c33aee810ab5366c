import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';

export { expect };

export const DEMO_PASSWORD = 'Demo#2026';
export const ADMIN_PASSWORD = 'Admin#2026';

const SCREENSHOTS = path.resolve(import.meta.dirname, '../../../docs/screenshots');

/**
 * The browser reports a refused request (401 no session, 404 unknown user...) as a console message of
 * its own; those are expected answers the app handles, not errors of the page's code. A 5xx still fails.
 */
const EXPECTED_NETWORK_NOISE = /^Failed to load resource: the server responded with a status of 4\d\d/;

export const test = base.extend<{ consoleErrors: string[] }>({
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on('console', (msg) => {
        if (msg.type() === 'error' && !EXPECTED_NETWORK_NOISE.test(msg.text())) errors.push(msg.text());
      });
      page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
      await use(errors);
      expect(errors, 'console.error en la página').toEqual([]);
    },
    { auto: true },
  ],
});

/** Saves a screenshot of the current screen into docs/screenshots/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  // Never a half-loaded screen: no route or session loader left.
  await expect(page.locator('[aria-label="Cargando"], [aria-label="Verificando sesión"]')).toHaveCount(0);
  await page.evaluate(() => document.fonts.ready);
  await page.screenshot({
    path: path.join(SCREENSHOTS, `${name}.png`),
    fullPage: true,
    animations: 'disabled',
  });
}

/** Signs in through the login form and waits for the role's home. */
export async function signIn(page: Page, usuario: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Usuario').fill(usuario);
  await page.getByLabel('Contraseña', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Acceso' }).click();
}

export const HOMES = {
  1: { path: '/usuario/principal', title: 'Panel Usuario' },
  2: { path: '/autorizador/principal', title: 'Panel Autorizador' },
  3: { path: '/autorizador/principal', title: 'Panel Autorizador' },
  4: { path: '/administrador/principal', title: 'Panel Administrador' },
} as const;

export async function expectHome(page: Page, rol: keyof typeof HOMES): Promise<void> {
  await expect(page).toHaveURL(new RegExp(`${HOMES[rol].path}$`));
  await expect(page.getByRole('heading', { name: HOMES[rol].title })).toBeVisible();
}

/** Opens the profile menu and signs out. */
export async function signOut(page: Page): Promise<void> {
  await page.getByTestId('profile-menu').click();
  await page.getByRole('menuitem', { name: 'Cerrar sesión' }).click();
  await expect(page).toHaveURL(/\/login$/);
}
