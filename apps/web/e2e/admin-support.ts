/**
 * What the administrator's browser tests share: the committed test files they upload, the API calls a test
 * uses to set up data, and the widgets' gestures.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { ADMIN_PASSWORD, checkA11y, expect, expectHome, signIn } from './fixtures';

// ---------------------------------------------------------------------------------------------------------
// Files

/** The server tests' folder of committed files (its README says what each one is). */
const TEST_FILES = path.resolve(import.meta.dirname, '../../server/src/test/fixtures');

export type TestFile =
  | 'logo-200x80.png'
  | 'logo-violet-orange-200x80.png'
  | 'gradient-120.png'
  | 'gradient-8.png'
  | 'calendario.pdf'
  | 'manual.pdf'
  | 'one-pixel.gif';

/** The bytes of a committed test file. */
export function testFile(name: TestFile): Buffer {
  return readFileSync(path.join(TEST_FILES, name));
}

// ---------------------------------------------------------------------------------------------------------
// Session and API

export async function signInAdmin(page: Page): Promise<void> {
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await expectHome(page, 4);
}

/** The headers lib/api sends on a state-changing call: the XSRF cookie's value. */
export async function xsrfHeaders(page: Page): Promise<Record<string, string>> {
  await page.request.get('/sanctum/csrf-cookie');
  const cookie = (await page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN');
  if (!cookie) throw new Error('Sin cookie XSRF-TOKEN');
  return { 'X-XSRF-TOKEN': decodeURIComponent(cookie.value), Accept: 'application/json' };
}

export async function apiPost<T>(page: Page, path: string, data: unknown): Promise<T> {
  const res = await page.request.post(path, { headers: await xsrfHeaders(page), data });
  expect(res.ok(), `${path}: ${await res.text()}`).toBe(true);
  return (await res.json()) as T;
}

export async function clientId(page: Page, nombre: string): Promise<number> {
  const res = await page.request.get(`/api/clientes?q=${encodeURIComponent(nombre)}`);
  const { clientes } = (await res.json()) as { clientes: { id: number; nombre: string }[] };
  const found = clientes.find((c) => c.nombre === nombre);
  if (!found) throw new Error(`No existe el cliente ${nombre}`);
  return found.id;
}

// ---------------------------------------------------------------------------------------------------------
// Widgets

/** Picks an option of a Mantine Select by its label (typing first when it is searchable). */
export async function choose(page: Page, label: string, option: string | RegExp, type?: string) {
  const input = page.getByRole('combobox', { name: label, exact: true });
  await input.click();
  if (type) await input.fill(type);
  await page.getByRole('option', { name: option, exact: typeof option === 'string' }).click();
}

/** Answers the '¿Estás seguro?' dialog with one of its buttons. */
export async function confirm(page: Page, button: string) {
  const dialog = page.getByRole('dialog', { name: '¿Estás seguro?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: button, exact: true }).click();
  await expect(dialog).toBeHidden();
}

/**
 * A Mantine switch's input is visually hidden, and a notice may sit over it: the keyboard toggles it
 * the way a user tabbing through the page would, without clicking whatever lies on top.
 */
export async function toggleSwitch(control: Locator) {
  await control.focus();
  await control.press('Space');
}

export async function expectNotice(page: Page, text: string) {
  await expect(page.locator('.mantine-Notification-root').filter({ hasText: text }).first()).toBeVisible();
}

/** Closes the notices that stay until closed (imports) and waits for the others to go (3 s). */
export async function clearNotifications(page: Page): Promise<void> {
  // Always the first one still open: a notice that closes by itself meanwhile must not leave a click
  // waiting for a button that is gone.
  const close = page.getByRole('button', { name: 'Cerrar notificación' });
  for (let i = 0; i < 10 && (await close.count()) > 0; i++) {
    await close
      .first()
      .click({ timeout: 2_000 })
      .catch(() => undefined);
  }
  await expect(page.locator('.mantine-Notification-root')).toHaveCount(0, { timeout: 15_000 });
}

const spanishMonth = (d: Date) =>
  new Intl.DateTimeFormat('es-MX', { month: 'long', timeZone: 'UTC' }).format(d).toLowerCase();

/** Clicks a day of a Mantine calendar (aria-label "D mes YYYY"), moving to the next month when needed. */
export async function pickDay(page: Page, label: string, iso: string) {
  await page.getByRole('button', { name: label, exact: true }).click();
  const d = new Date(`${iso}T00:00:00Z`);
  const name = `${d.getUTCDate()} ${spanishMonth(d)} ${d.getUTCFullYear()}`;
  const day = page.getByRole('button', { name, exact: true });
  // Wait for the calendar to open before deciding whether to move to another month.
  await page.getByRole('button', { name: 'Mes siguiente' }).first().waitFor();
  for (let i = 0; i < 3 && !(await day.isVisible()); i++) {
    await page.getByRole('button', { name: 'Mes siguiente' }).first().click();
  }
  await day.click();
}

/** Today's date (YYYY-MM-DD) in the business time zone. */
export function businessToday(): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Mexico_City' }).format(new Date());
}

/** YYYY-MM-DD → DD/MM/YYYY, as the screens show dates. */
export const dmy = (iso: string) => iso.split('-').reverse().join('/');

/** Scrolls an open drawer or modal back to its top (for the screenshots). */
export async function scrollDialogTop(page: Page) {
  await page.evaluate(() => {
    for (const el of document.querySelectorAll('.mantine-Drawer-content, .mantine-Modal-content')) {
      el.scrollTop = 0;
    }
  });
}

/**
 * At 390 px the screen has no sideways scroll (tables turn into cards). PHONE_SHOTS=dir also saves a
 * picture of each, for a person to look at.
 */
export async function checkPhone(page: Page, name: string) {
  const size = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth), { message: `${name} a 390 px` })
    .toBeLessThanOrEqual(390);
  await checkA11y(page, `${name} a 390 px`);
  if (process.env.PHONE_SHOTS) {
    await page.screenshot({
      path: `${process.env.PHONE_SHOTS}/${name}.png`,
      fullPage: true,
      animations: 'disabled',
    });
  }
  if (size) await page.setViewportSize(size);
}
