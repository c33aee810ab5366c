import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { test as base, expect, type Locator, type Page } from '@playwright/test';
import type { AxeResults, RunOptions } from 'axe-core';
import { E2E_EMBEDDED_PROJECT } from './ports';

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

/** Widest viewport treated as a phone: there the screen must not scroll sideways. */
export const PHONE_WIDTH = 390;

/** WCAG 2.1 A and AA, plus axe's best practices (landmarks, headings, unique names...). */
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

/** axe-core impacts that fail a test. */
const BLOCKING_IMPACTS = new Set(['serious', 'critical']);

/** axe-core's browser build, evaluated in a page the first time the page is checked. */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core's violations of the page as it is. axe is put into the page once and stays there through the
 * app's own navigations (a full load drops it); then `axe.run` reads the document where it is, without
 * the wrapper's second copy of axe in a blank page for each check (decision 0081). The app has no frames:
 * a page with one would need axe in each frame, so it fails here instead of going unchecked.
 */
async function axeViolations(page: Page): Promise<AxeResults['violations']> {
  expect(page.frames(), 'una página con marcos necesita axe en cada marco').toHaveLength(1);
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  // Only violations are read: skipping the details of passes keeps a big screen's check short.
  const options: RunOptions = { runOnly: { type: 'tag', values: AXE_TAGS }, resultTypes: ['violations'] };
  return page.evaluate(async (opts) => {
    const { axe } = window as unknown as { axe: typeof import('axe-core') };
    return (await axe.run(document, opts)).violations;
  }, options);
}

/** Waits for the running transitions (a dialog fading in...) so colours are read at their final value. */
async function settle(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await document.fonts.ready;
    const finite = document.getAnimations().filter((a) => a.effect?.getTiming().iterations !== Infinity);
    await Promise.all(finite.map((a) => a.finished.catch(() => undefined)));
  });
}

/**
 * Runs axe-core over the whole page as it is (open dialogs, drawers and menus included) and fails on any
 * serious or critical violation, listing rule, impact, help and the elements' selectors. At phone width
 * it also checks that the screen does not scroll sideways.
 */
export async function checkA11y(page: Page, screen: string): Promise<void> {
  const blockingNow = async () => {
    await settle(page);
    const violations = await axeViolations(page);
    return violations.filter((v) => v.impact && BLOCKING_IMPACTS.has(v.impact));
  };
  let blocking = await blockingNow();
  // A notice that starts to fade out while axe reads the page has, for that instant, the contrast of a
  // half-transparent text. Only then is the page read once more; a real problem is found both times.
  const inNotice = (node: { html: string; target: unknown[] }) =>
    /mantine-Notification/.test(node.html) || /mantine-Notification/.test(node.target.join(' '));
  if (blocking.length > 0 && blocking.every((v) => v.nodes.every(inNotice))) {
    await page.waitForTimeout(1_000);
    blocking = await blockingNow();
  }
  const report = blocking.flatMap((v) => [
    `- ${v.id} [${v.impact}] ${v.help} (${v.helpUrl})`,
    ...v.nodes.map(
      (node) =>
        `    ${node.target.join(' >> ')}  ${node.html.slice(0, 160)}\n      ${node.failureSummary ?? ''}`,
    ),
  ]);
  expect(
    blocking.map((v) => v.id),
    `axe en «${screen}»:\n${report.join('\n')}`,
  ).toEqual([]);
  const width = page.viewportSize()?.width ?? Number.POSITIVE_INFINITY;
  if (width <= PHONE_WIDTH) {
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(scrollWidth, `«${screen}» se desplaza de lado a ${width} px`).toBeLessThanOrEqual(width);
  }
}

/** A table that turns into cards on phones fits its box there: no column cut off, nothing to scroll sideways. */
export async function expectTableFits(table: Locator): Promise<void> {
  await expect
    .poll(() => table.evaluate((t) => t.scrollWidth - (t.parentElement?.clientWidth ?? 0)), {
      message: 'la tabla cabe en su caja',
    })
    .toBeLessThanOrEqual(0);
}

/**
 * Saves a screenshot of the current screen into docs/screenshots/<name>.png, after checking its
 * accessibility (checkA11y): every screen that is pictured is also checked.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  // Never a half-loaded screen: no route or session loader left.
  await expect(page.locator('[aria-label="Cargando"], [aria-label="Verificando sesión"]')).toHaveCount(0);
  await checkA11y(page, name);
  // The documentation's pictures come from the main server; the embedded database's project (the same
  // screens, side by side) keeps its own with its results instead of writing the same files at once.
  const docs = test.info().project.name !== E2E_EMBEDDED_PROJECT;
  // A dialog is pictured as the user sees it: its overlay covers the window, not the page below it.
  const dialog = await page.locator('[role="dialog"][aria-modal="true"]').filter({ visible: true }).count();
  await page.screenshot({
    path: docs ? path.join(SCREENSHOTS, `${name}.png`) : test.info().outputPath(`${name}.png`),
    fullPage: dialog === 0,
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
  5: { path: '/cliente/principal', title: 'Panel Empresa' },
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
