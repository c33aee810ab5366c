/**
 * What the administrator's browser tests share: files made in memory (real PNG, PDF and GIF bytes, no image
 * library in the browser), the API calls a test uses to set up data, and the widgets' gestures.
 */
import { deflateSync } from 'node:zlib';
import type { Locator, Page } from '@playwright/test';
import { ADMIN_PASSWORD, checkA11y, expect, expectHome, signIn } from './fixtures';

// ---------------------------------------------------------------------------------------------------------
// Files

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const byte of buf) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

type Rgb = readonly [number, number, number];

/** An 8-bit RGB PNG of `w`×`h` whose pixels `paint` chooses. */
export function png(w: number, h: number, paint: (x: number, y: number) => Rgb): Buffer {
  const raw = Buffer.alloc((w * 3 + 1) * h);
  for (let y = 0; y < h; y++) {
    const row = y * (w * 3 + 1);
    raw[row] = 0;
    for (let x = 0; x < w; x++) raw.set(paint(x, y), row + 1 + x * 3);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A 200×80 logo: a round badge in `main` with a white bar, and two bars (`main`, `accent`) on white. */
export function logoPng(main: Rgb = [11, 114, 133], accent: Rgb = [240, 140, 0]): Buffer {
  return png(200, 80, (x, y) => {
    const inBadge = x > 8 && x < 72 && y > 8 && y < 72 && (x - 40) ** 2 + (y - 40) ** 2 < 34 ** 2;
    if (inBadge) return y > 34 && y < 46 && x > 22 && x < 58 ? [255, 255, 255] : main;
    if (x > 84 && x < 190 && y > 22 && y < 36) return main;
    if (x > 84 && x < 160 && y > 44 && y < 56) return accent;
    return [255, 255, 255];
  });
}

/** A square indigo-to-teal gradient (a product photo). */
export function pngImage(size = 120): Buffer {
  return png(size, size, (x, y) => {
    const t = (x + y) / (2 * size);
    return [
      Math.round(59 + (18 - 59) * t),
      Math.round(91 + (184 - 91) * t),
      Math.round(219 + (134 - 219) * t),
    ];
  });
}

export const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
    '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);
export const GIF = Buffer.from('R0lGODlhAQABAIAAAP///wAAACwAAAAAAQABAAACAkQBADs=', 'base64');

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
