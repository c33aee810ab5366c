import { addDays } from '@portal/shared/domain/time';
import { expect, screenshot, test } from './fixtures';
import {
  apiPost,
  businessToday,
  checkPhone,
  clearNotifications,
  confirm,
  createClient,
  createUser,
  dmy,
  expectNotice,
  runSuffix,
  signInAdminApi,
} from './helpers';
import { waitForMail } from './mailbox';
import { e2eBaseUrl } from './ports';

/**
 * Onboarding without traps (decision 0097), against the real server and the test mailbox: the week list
 * opens on the page holding today, and "Reenviar acceso" e-mails a fresh welcome link that replaces the
 * old one. (The generator's warning is in admin-weeks.spec.ts, with the generator.)
 */

const linkIn = (text: string) =>
  text.match(new RegExp(`${e2eBaseUrl()}/restablecer/[A-Za-z0-9_-]+`))?.[0] ?? null;

test('la lista de semanas abre en la página que contiene hoy', async ({ page }) => {
  await signInAdminApi(page);
  const idCliente = await createClient(page, {
    nombre: `Ferretería La Paz ${runSuffix()}`,
    presupuesto_default: 3000,
    limite_de_compras: -1,
  });
  const today = businessToday();
  // Newest first, 5 a page: 6 later weeks, then today's (the 7th row, page 2), then 2 past ones.
  for (const d of [-20, -10, -1, 10, 20, 30, 40, 50, 60]) {
    await apiPost(page, '/api/calendario_semanas', {
      inicio: addDays(today, d),
      fin: addDays(today, d + 2),
      id_cliente: idCliente,
      activo: 1,
    });
  }
  await page.goto(`/administrador/semanas?cliente=${idCliente}`);
  // The first load of the administrator's area can be slow on a busy machine.
  await expect(page.getByRole('heading', { name: 'Semanas de acceso', level: 1 })).toBeVisible({
    timeout: 30_000,
  });
  const current = page.getByTestId(`semana-${addDays(today, -1)}`);
  await expect(current).toBeVisible();
  await expect(current).toContainText(dmy(addDays(today, -1)));
  await expect(current).toContainText('En curso');
  await expect(page.getByText('Mostrando 6–9 de 9 semanas')).toBeVisible();
  // A page the administrator picks is kept, page 1 included.
  await page
    .getByRole('navigation', { name: 'Páginas de semanas' })
    .getByRole('button', { name: 'Página 1', exact: true })
    .click();
  await expect(page.getByText('Mostrando 1–5 de 9 semanas')).toBeVisible();
  await page.reload();
  await expect(page.getByText('Mostrando 6–9 de 9 semanas')).toBeVisible();
});

test('reenviar acceso: un enlace de bienvenida nuevo por correo; el anterior deja de servir', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signInAdminApi(page);
  const nombreCliente = `Textiles del Bajío ${runSuffix()}`;
  const idCliente = await createClient(page, {
    nombre: nombreCliente,
    presupuesto_default: 3000,
    limite_de_compras: -1,
  });
  const people = ['rosa.ibarra', 'tomas.vega'].map((n) => {
    const usuario = `${n}.${runSuffix()}`;
    return { usuario, correo: `${usuario}@textiles-bajio.mx` };
  });
  const first: string[] = [];
  for (const p of people) {
    await createUser(page, {
      id_cliente: idCliente,
      usuario: p.usuario,
      correo: p.correo,
      nombre: 'Persona Nueva',
      rol: 1,
    });
    const mail = await waitForMail(
      (m) => m.to.includes(p.correo) && m.subject === 'Bienvenido al Portal de Compras',
    );
    first.push(linkIn(mail.text) ?? '');
  }

  await page.goto(`/administrador/usuarios?cliente=${idCliente}`);
  for (const p of people) await page.getByRole('checkbox', { name: `Seleccionar a ${p.usuario}` }).check();
  await page.getByRole('button', { name: 'Reenviar acceso (2)' }).click();
  await expect(page.getByRole('dialog', { name: '¿Estás seguro?' })).toContainText(
    'Se enviará un enlace nuevo para establecer la contraseña a los 2 usuarios seleccionados',
  );
  await confirm(page, 'Reenviar acceso');
  await expectNotice(page, 'Se enviaron 2 correos de acceso.');

  for (const [i, p] of people.entries()) {
    const mail = await waitForMail(
      (m) =>
        m.to.includes(p.correo) &&
        m.subject === 'Bienvenido al Portal de Compras' &&
        linkIn(m.text) !== first[i],
    );
    const fresh = linkIn(mail.text);
    expect(fresh).toBeTruthy();
    if (i === 0) {
      await clearNotifications(page);
      await screenshot(page, 'admin-usuarios-reenviar-acceso');
      await checkPhone(page, 'usuarios-reenviar-acceso');
      // The old link died with the new one; the new one opens the form.
      await page.goto(first[i]!);
      await expect(page.getByRole('heading', { name: 'Enlace no válido' })).toBeVisible();
      await page.goto(fresh!);
      await expect(page.getByLabel('Nueva contraseña', { exact: true })).toBeVisible();
    }
  }
});
