import type { Browser } from '@playwright/test';
import { MSG } from '@portal/shared/messages';
import { expect, expectHome, screenshot, signIn, signOut, test } from './fixtures';
import {
  apiPost,
  asAdmin,
  assignAll,
  createAccount,
  createCategory,
  createClient,
  createProduct,
  runSuffix,
} from './helpers';
import { readMailbox, waitForMail } from './mailbox';
import { e2eBaseUrl } from './ports';

/**
 * Own password change (profile dialog), the forced change, and access recovery end to end through a
 * real SMTP server. The buyer is this run's own (a client with a few products, created through the API),
 * never a demo account: its password changes four times. Serial: each test continues from the previous one.
 */
test.describe.configure({ mode: 'serial' });

const INITIAL = 'Inicial#2026';
const CHANGED = 'Cambiada#2026';
const RECOVERED = 'Recuperada#2026';

const USUARIO = () => `carmen.luna.${runSuffix()}`;
const CORREO = () => `${USUARIO()}@transportes-luna.mx`;

/** The buyer's id, by attempt (its name carries the attempt). */
const buyers = new Map<string, number>();

/** This attempt's buyer: a client with its logo and a few products, and a buyer with all of them. */
async function ensureBuyer(browser: Browser): Promise<number> {
  const known = buyers.get(USUARIO());
  if (known) return known;
  const id = await asAdmin(browser, async (admin) => {
    const idCliente = await createClient(admin, {
      nombre: `Transportes Luna ${runSuffix()}`,
      presupuesto_default: 5000,
      limite_de_compras: 4,
      logo: 'logo-200x80.png',
      color: '#0b7285',
      color2: '#f08c00',
    });
    const idCategoria = await createCategory(admin, idCliente, 'Papelería', 'IconPencil');
    for (const [clave_interna, nombre, precio] of [
      ['TL-001', 'Hojas blancas tamaño carta', 119.9],
      ['TL-002', 'Bolígrafo tinta azul punto mediano', 64.5],
      ['TL-003', 'Cuaderno profesional de raya', 48.9],
      ['TL-004', 'Carpeta de argollas blanca 2"', 89.75],
    ] as const) {
      await createProduct(admin, {
        id_cliente: idCliente,
        id_categoria: idCategoria,
        clave_interna,
        nombre,
        precio,
        unidad_de_medida: 'Pieza',
        imagen: 'gradient-120.png',
      });
    }
    const idUser = await createAccount(
      admin,
      {
        id_cliente: idCliente,
        usuario: USUARIO(),
        correo: CORREO(),
        nombre: 'Carmen Luna Villarreal',
        rol: 1,
      },
      INITIAL,
    );
    await assignAll(admin, idUser);
    return idUser;
  });
  buyers.set(USUARIO(), id);
  return id;
}

test('un comprador cambia su contraseña desde el menú de perfil', async ({ page, browser }) => {
  test.setTimeout(120_000);
  await ensureBuyer(browser);
  await signIn(page, USUARIO(), INITIAL);
  await expectHome(page, 1);
  await page.getByTestId('profile-menu').click();
  await page.getByRole('menuitem', { name: 'Cambiar contraseña' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cambiar contraseña' });
  await expect(dialog).toBeVisible();
  const submit = dialog.getByRole('button', { name: 'Cambiar contraseña' });

  await submit.click();
  await expect(dialog.getByText('Todos los campos son requeridos')).toBeVisible();

  await dialog.getByLabel('Contraseña actual').fill(INITIAL);
  await dialog.getByLabel('Nueva contraseña', { exact: true }).fill('corta');
  await dialog.getByLabel('Confirmar nueva contraseña').fill('corta');
  await submit.click();
  await expect(
    dialog.getByText(
      'La nueva contraseña debe contener al menos una mayuscula, un simbolo, un numero y ser de una longitud de 8 letras',
    ),
  ).toBeVisible();

  await dialog.getByLabel('Nueva contraseña', { exact: true }).fill(CHANGED);
  await dialog.getByLabel('Confirmar nueva contraseña').fill(`${CHANGED}x`);
  await submit.click();
  await expect(dialog.getByText('Las nuevas contraseñas no coinciden')).toBeVisible();
  await screenshot(page, 'cambiar-password');

  await dialog.getByLabel('Contraseña actual').fill('NoEsLaActual#1');
  await dialog.getByLabel('Confirmar nueva contraseña').fill(CHANGED);
  await submit.click();
  await expect(dialog.getByText('La contraseña actual es incorrecta')).toBeVisible();

  await dialog.getByLabel('Contraseña actual').fill(INITIAL);
  await submit.click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Contraseña actualizada')).toBeVisible();
  await expect(
    page.getByText('Se ha establecido tu nueva contraseña y se ha enviado a tu email.'),
  ).toBeVisible();

  await signOut(page);
  await signIn(page, USUARIO(), CHANGED);
  await expectHome(page, 1);
});

test('recuperar acceso: un usuario desconocido ve el aviso del spec', async ({ page }) => {
  await page.goto('/recuperar-acceso');
  await page.getByRole('button', { name: 'Enviar' }).click();
  // Both under the field, not in a dialog (decision 0070).
  await expect(page.getByText('Debes llenar todos los datos')).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);

  await page.getByLabel('Usuario').fill(`nadie.${runSuffix()}`);
  await page.getByRole('button', { name: 'Enviar' }).click();
  await expect(page.getByText('Este usuario no se ha encontrado en el sistema.')).toBeVisible();
  await expect(page.getByLabel('Usuario')).toHaveAccessibleDescription(
    'Este usuario no se ha encontrado en el sistema.',
  );
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('recuperar acceso de punta a punta: correo, enlace, contraseña nueva y acceso', async ({ page }) => {
  await page.goto('/recuperar-acceso');
  await page.getByLabel('Usuario').fill(USUARIO());
  await page.getByRole('button', { name: 'Enviar' }).click();
  await expect(page.getByText('Correo enviado')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);

  const mail = await waitForMail((m) => m.to.includes(CORREO()) && m.subject.includes('Recupera tu acceso'));
  const link = mail.text.match(new RegExp(`${e2eBaseUrl()}/restablecer/[A-Za-z0-9_-]+`))?.[0];
  expect(link, 'enlace de restablecimiento en el correo').toBeTruthy();

  await page.goto(link as string);
  await expect(page.getByRole('heading', { name: 'Restablece tu contraseña' })).toBeVisible();
  await expect(page.getByText(USUARIO())).toBeVisible();
  await page.getByLabel('Nueva contraseña', { exact: true }).fill(RECOVERED);
  await page.getByLabel('Confirmar nueva contraseña').fill('Otra#20266');
  await page.getByRole('button', { name: 'Guardar contraseña' }).click();
  await expect(page.getByText('Las nuevas contraseñas no coinciden')).toBeVisible();
  await screenshot(page, 'restablecer');

  await page.getByLabel('Confirmar nueva contraseña').fill(RECOVERED);
  await page.getByRole('button', { name: 'Guardar contraseña' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('status').filter({ hasText: 'Tu contraseña fue establecida' })).toBeVisible();
  await screenshot(page, 'login-aviso');

  // The link works once.
  await page.goto(link as string);
  await expect(page.getByRole('heading', { name: 'Enlace no válido' })).toBeVisible();
  await screenshot(page, 'restablecer-invalido');

  await signIn(page, USUARIO(), RECOVERED);
  await expectHome(page, 1);
});

test('un cambio de contraseña obligatorio va antes que todo lo demás', async ({ page, browser }) => {
  test.setTimeout(90_000);
  // The administrator resets the buyer's password: the e-mail brings a temporary one, which forces a change.
  const idUser = await ensureBuyer(browser);
  // The buyer's first password came the same way: only an e-mail not seen before counts.
  const seen = new Set(readMailbox().map((m) => m.text));
  await asAdmin(browser, (admin) => apiPost(admin, `/api/recuperar/password/${idUser}`, {}));
  const mail = await waitForMail(
    (m) => m.to.includes(CORREO()) && m.subject.includes('contraseña temporal') && !seen.has(m.text),
  );
  const temporary = mail.text.match(/Contraseña temporal: (\S+)/)?.[1];
  expect(temporary).toBeTruthy();

  await signIn(page, USUARIO(), temporary!);
  await expect(page).toHaveURL(/\/cambiar-password$/);
  await expect(page.getByRole('heading', { name: 'Cambia tu contraseña' })).toBeVisible();
  // A page asked for meanwhile waits behind the change (decision 0048).
  await page.goto('/usuario/historial');
  await expect(page).toHaveURL(/\/cambiar-password\?volver=%2Fusuario%2Fhistorial$/);
  // It says why: the password is a temporary one from an administrator (the server's motivo_cambio_password).
  await expect(page.getByText(MSG.cambioPasswordTemporal)).toBeVisible();

  // The rules tick as the new password is typed.
  const rule = (texto: string) => page.getByRole('listitem').filter({ hasText: texto });
  await page.getByLabel('Contraseña actual').fill(temporary!);
  await page.getByLabel('Nueva contraseña', { exact: true }).fill('temporal');
  await expect(rule(MSG.reglaPasswordLongitud)).toHaveAttribute('data-cumple', 'true');
  await expect(rule(MSG.reglaPasswordMayuscula)).toHaveAttribute('data-cumple', 'false');
  await expect(rule(MSG.reglaPasswordSimbolo)).toHaveAttribute('data-cumple', 'false');
  await expect(page.getByRole('status').filter({ hasText: 'Cumple 1 de 5 requisitos' })).toBeAttached();
  await screenshot(page, 'cambiar-password-obligatorio');
  await page.getByLabel('Nueva contraseña', { exact: true }).fill('Temporal#2026');
  for (const texto of [MSG.reglaPasswordMayuscula, MSG.reglaPasswordNumero, MSG.reglaPasswordSimbolo])
    await expect(rule(texto)).toHaveAttribute('data-cumple', 'true');
  await expect(rule(MSG.reglaPasswordCoinciden)).toHaveAttribute('data-cumple', 'false');
  await page.getByLabel('Confirmar nueva contraseña').fill('Temporal#2026');
  await expect(rule(MSG.reglaPasswordCoinciden)).toHaveAttribute('data-cumple', 'true');
  await expect(page.getByRole('status').filter({ hasText: MSG.reglasPasswordTodas })).toBeAttached();
  await page.getByRole('button', { name: 'Guardar y continuar' }).click();
  await expect(page.getByText('Contraseña actualizada')).toBeVisible();
  await expect(page).toHaveURL(/\/usuario\/historial$/);
});
