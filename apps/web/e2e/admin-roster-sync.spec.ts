import type { Page } from '@playwright/test';
import { expect, PHONE_WIDTH, screenshot, test } from './fixtures';
import {
  asAdmin,
  checkPhone,
  clearNotifications,
  createClient,
  createUser,
  runSuffix,
  signInAdminApi,
} from './helpers';

/**
 * «Lista de personal» for the distributor (decision 0122): the same screen as a client administrator's, on
 * the client chosen in Usuarios (`?cliente=`, with the client select). The distributor opens it from that
 * client's Usuarios, previews a list — one joins, one changes, one leaves — applies it after the confirmation
 * that names the leaver, and goes back to the client's users, where the changes are. Without a client in the
 * address the screen asks for one.
 */
test('el distribuidor aplica la lista de personal de un cliente desde sus usuarios', async ({
  browser,
  page,
}) => {
  test.setTimeout(120_000);
  const suffix = runSuffix();
  const cliente = `Autopartes Ortega ${suffix}`;
  const sigue = `raul.ortega.${suffix}`;
  const sale = `sofia.beltran.${suffix}`;
  const nuevo = `tomas.ibarra.${suffix}`;
  const correo = (usuario: string) => `${usuario}@autopartes-ortega.mx`;
  const idCliente = await asAdmin(browser, async (admin) => {
    const id = await createClient(admin, {
      nombre: cliente,
      presupuesto_default: 1500,
      limite_de_compras: -1,
      cantidad_autorizadores: 1,
    });
    for (const [usuario, nombre] of [
      [sigue, 'Raúl Ortega Cano'],
      [sale, 'Sofía Beltrán Rivas'],
    ] as const)
      await createUser(admin, { id_cliente: id, usuario, correo: correo(usuario), nombre, rol: 1 });
    return id;
  });

  await signInAdminApi(page);
  // No client in the address: the screen asks for one.
  await page.goto('/administrador/usuarios/sincronizar');
  await expect(page.getByRole('heading', { name: 'Lista de personal', level: 1 })).toBeVisible();
  await expect(page.getByText('Elige un cliente para empezar')).toBeVisible();
  await expect(page.getByLabel('Archivo CSV', { exact: true })).toHaveCount(0);

  // From the client's Usuarios.
  await page.goto(`/administrador/usuarios?cliente=${idCliente}`);
  await expect(page.getByTestId(`usuario-${sale}`).filter({ visible: true })).toBeVisible();
  // Beside 'Agregar nuevo usuario' and 'Importación por archivo', on a phone too.
  await checkPhone(page, 'admin-usuarios-lista-de-personal');
  await page.getByRole('link', { name: 'Lista de personal' }).click();
  await expect(page).toHaveURL(new RegExp(`/administrador/usuarios/sincronizar\\?cliente=${idCliente}$`));
  await expect(page.getByRole('combobox', { name: 'Cliente' })).toHaveValue(cliente);
  // Still under Usuarios in the sidebar.
  await expect(
    page.getByRole('navigation', { name: 'Secciones' }).getByRole('link', { name: 'Usuarios' }),
  ).toHaveAttribute('aria-current', 'page');

  const list = (rows: string[][]) =>
    Buffer.from(['usuario,correo,nombre,rol', ...rows.map((r) => r.join(','))].join('\r\n'));
  await page.getByLabel('Archivo CSV', { exact: true }).setInputFiles({
    name: 'personal-ortega.csv',
    mimeType: 'text/csv',
    buffer: list([
      [sigue, correo(sigue), 'Raúl Ortega Campos', 'Autorizador'],
      [nuevo, correo(nuevo), 'Tomás Ibarra Luna', 'Usuario'],
    ]),
  });
  await page.getByRole('button', { name: 'Revisar la lista' }).click();
  const preview = page.getByTestId('vista-previa');
  await expect(preview).toContainText('Se darán de alta 1, se actualizarán 1 y se darán de baja 1 usuarios.');
  await expect(preview.getByTestId('personas-altas')).toContainText(nuevo);
  await expect(preview.getByTestId('personas-cambios')).toContainText('Cambia: nombre y rol');
  await expect(preview.getByTestId('personas-bajas')).toContainText(sale);
  await screenshot(page, 'admin-sincronizar');
  await phone(page, 'admin-sincronizar-390');

  await preview.getByRole('button', { name: 'Aplicar la lista' }).click();
  const sure = page.getByRole('dialog', { name: '¿Aplicar la lista de personal?' });
  await expect(sure).toContainText('Se dará de baja a 1 usuario');
  await sure.getByRole('button', { name: 'Aplicar la lista' }).click();
  await expect(page.getByTestId('lista-aplicada')).toContainText(
    'Lista aplicada: 1 altas, 1 actualizados y 1 bajas; 0 pedidos en espera retirados.',
  );
  await clearNotifications(page);

  // Back to the client's users: the joiner, the change, the leaver inactive.
  await page.getByRole('link', { name: `Ver las cuentas de ${cliente} en Usuarios` }).click();
  await expect(page).toHaveURL(new RegExp(`/administrador/usuarios\\?cliente=${idCliente}$`));
  await expect(page.getByTestId(`usuario-${nuevo}`).filter({ visible: true })).toContainText(
    'Tomás Ibarra Luna',
  );
  await expect(page.getByTestId(`usuario-${sigue}`).filter({ visible: true })).toContainText('Autorizador');
  await expect(page.getByTestId(`usuario-${sale}`).filter({ visible: true })).toContainText('Inactivo');
});

/** The screen at phone width, pictured (and checked: no sideways scroll, accessibility), then as it was. */
async function phone(page: Page, name: string): Promise<void> {
  const size = page.viewportSize();
  await page.setViewportSize({ width: PHONE_WIDTH, height: 844 });
  await screenshot(page, name);
  if (size) await page.setViewportSize(size);
}
