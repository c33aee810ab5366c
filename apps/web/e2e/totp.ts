/**
 * Two-factor sign-in as the person's authenticator app sees it (RFC 6238): the code of a key at a moment,
 * the key and the backup codes read from the screen, and the forced enrolment a role that must use it goes
 * through before anything else (two-factor.spec.ts has the screens' own tests).
 */
import type { Locator, Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { expect, expectHome, signIn } from './fixtures';

/** The code an authenticator app shows at `ms` for the key (RFC 6238: SHA-1, 6 digits, 30 s). */
export function codeAt(secret: string, ms: number): string {
  return new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({
    timestamp: ms,
  });
}

/** The manual key shown beside the QR, without its grouping spaces. */
export async function manualKey(scope: Page | Locator): Promise<string> {
  const key = ((await scope.getByTestId('clave-manual').textContent()) ?? '').replace(/\s/g, '');
  expect(key, 'clave en base32').toMatch(/^[A-Z2-7]{16,}$/);
  return key;
}

/** The backup codes on screen (10, `xxxx-xxxx`). */
export async function shownBackupCodes(scope: Page | Locator): Promise<string[]> {
  const items = scope.getByRole('list', { name: 'Códigos de respaldo' }).getByRole('listitem');
  await expect(items).toHaveCount(10);
  const codes = (await items.allTextContents()).map((c) => c.trim());
  for (const code of codes) expect(code).toMatch(/^[a-z0-9]{4}-[a-z0-9]{4}$/);
  return codes;
}

/**
 * The forced enrolment («Activa la verificación en dos pasos», after a sign-in whose role must use it): the
 * current password, the code of the key on screen, the backup codes, «Listo». Returns the key.
 */
export async function enrolTwoFactor(page: Page, password: string): Promise<string> {
  await expect(page).toHaveURL(/\/activar-verificacion(\?|$)/);
  await page.getByLabel('Contraseña actual').fill(password);
  await page.getByRole('button', { name: 'Continuar' }).click();
  const secret = await manualKey(page);
  await page.getByLabel('Código de 6 dígitos').fill(codeAt(secret, Date.now()));
  await page.getByRole('button', { name: 'Activar' }).click();
  await shownBackupCodes(page);
  await page.getByRole('button', { name: 'Listo' }).click();
  return secret;
}

/**
 * A client administrator's first sign-in in the browser: two-factor sign-in is mandatory for the role, so
 * the enrolment comes first, then its home. Returns the addresses that answered 403 from then on (the
 * screens of the role must call none of the routes it is refused).
 */
export async function signInClientAdmin(page: Page, usuario: string, password: string): Promise<string[]> {
  const refused: string[] = [];
  page.on('response', (response) => {
    if (response.status() === 403) refused.push(response.url());
  });
  await signIn(page, usuario, password);
  await enrolTwoFactor(page, password);
  await expectHome(page, 5);
  return refused;
}
