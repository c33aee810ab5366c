import { MSG } from '@portal/shared/messages';
import { expect, screenshot, test } from './fixtures';
import {
  checkPhone,
  choose,
  clearNotifications,
  confirm,
  expectNotice,
  runSuffix,
  scrollDialogTop,
  signInAdmin,
  testFile,
  toggleSwitch,
} from './helpers';

/**
 * The administrator's clients end to end against the real server: two clients of this run's own, created
 * and edited through the screen (the demo clients are only looked at).
 */
test('clientes: alta con logo, colores y calendario; validación; edición; desactivar y reactivar', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const clienteA = `Ferretera del Norte ${runSuffix()}`;
  const clienteB = `Materiales del Norte ${runSuffix()}`;
  await signInAdmin(page);
  await page.getByRole('link', { name: 'Clientes' }).first().click();
  await expect(page).toHaveURL(/\/administrador\/clientes$/);
  await expect(page.getByRole('heading', { name: 'Clientes', level: 1 })).toBeVisible();
  const demo = page
    .getByTestId(/^cliente-/)
    .filter({ visible: true })
    .filter({ hasText: 'Demo Industrial' });
  await expect(demo).toBeVisible();
  await expect(demo).toContainText('Activo');
  await expect(demo).toContainText(/\d\d\/\d\d\/\d{4} \d\d:\d\d/);
  await screenshot(page, 'admin-clientes');

  // Required fields, then a refused image type.
  await page.getByRole('button', { name: 'Agregar cliente' }).click();
  const modal = page.getByRole('dialog', { name: 'Agregar cliente' });
  await expect(modal).toBeVisible();
  await modal.getByRole('button', { name: 'Crear cliente' }).click();
  await expect(modal.getByRole('alert')).toContainText(MSG.clienteCamposRequeridos);
  // The summary names the missing fields (decision 0098).
  await expect(modal.getByRole('alert')).toContainText('Falta: Nombre');
  await modal
    .getByLabel('Archivo de logotipo')
    .setInputFiles({ name: 'logo.gif', mimeType: 'image/gif', buffer: testFile('one-pixel.gif') });
  await expect(modal.getByText('Only JPG and PNG files are allowed.')).toBeVisible();

  await modal.getByLabel('Nombre').fill(clienteA);
  await modal.getByLabel('Presupuesto mensual').fill('5000');
  await modal.getByLabel('Límite de compras').fill('3');
  await choose(page, 'Autorizadores', /2 niveles/);
  await modal
    .getByLabel('Archivo de logotipo')
    .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: testFile('logo-200x80.png') });
  await expect(modal.getByText('Only JPG and PNG files are allowed.')).toBeHidden();
  await expect(modal.getByRole('img', { name: 'Vista previa de logo.png' })).toBeVisible();
  await modal.getByRole('textbox', { name: 'Color principal' }).fill('#0b7285');
  await modal.getByRole('textbox', { name: 'Color secundario' }).fill('#f08c00');
  await modal.getByLabel('Nombre').click();
  await expect(modal.getByTestId('vista-previa-marca')).toHaveAttribute(
    'style',
    /linear-gradient\(165deg, rgb\(11, 114, 133\) 0%, rgb\(240, 140, 0\) 100%\)/,
  );
  await modal.getByLabel('Archivo de calendario').setInputFiles({
    name: 'calendario-2026.pdf',
    mimeType: 'application/pdf',
    buffer: testFile('calendario.pdf'),
  });
  await expect(modal.getByText('calendario-2026.pdf')).toBeVisible();
  // Correcting the form clears its message.
  await expect(modal.getByText(MSG.clienteCamposRequeridos)).toBeHidden();
  await scrollDialogTop(page);
  await screenshot(page, 'admin-cliente-form');
  await checkPhone(page, 'cliente-form');
  await modal.getByRole('button', { name: 'Crear cliente' }).click();
  await expectNotice(page, MSG.creadoCorrectamente);
  await expect(modal).toBeHidden();

  // Server-side search finds it, with its figures and logo.
  await page.getByRole('searchbox', { name: 'Buscar cliente' }).fill(clienteA.toLowerCase());
  await expect(page.getByText('Mostrando 1–1 de 1 cliente')).toBeVisible();
  const row = page
    .getByTestId(/^cliente-/)
    .filter({ visible: true })
    .filter({ hasText: clienteA });
  await expect(row).toContainText('$5,000.00 MXN');
  await expect(row).toContainText('3 al mes');
  await expect(row).toContainText('Modo regular');
  await expect(row).toContainText('Calendario');
  const logo = row.getByRole('img', { name: `Logotipo de ${clienteA}` });
  await expect(logo).toBeVisible();
  expect(await logo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(200);

  // Edit: no purchase limit; the calendar stays, a manual is added.
  await row.getByRole('button', { name: `Editar ${clienteA}` }).click();
  const edit = page.getByRole('dialog', { name: 'Editar cliente' });
  await expect(edit.getByLabel('Nombre')).toHaveValue(clienteA);
  await expect(edit.getByText('Calendario actual')).toBeVisible();
  // "Sin límite" is a switch (the wire's -1): on, the number is disabled.
  await toggleSwitch(edit.getByRole('switch', { name: 'Sin límite' }));
  await expect(edit.getByLabel('Límite de compras')).toBeDisabled();
  await edit.getByLabel('Archivo de manual').setInputFiles({
    name: 'manual.pdf',
    mimeType: 'application/pdf',
    buffer: testFile('manual.pdf'),
  });
  await edit.getByRole('button', { name: 'Guardar cambios' }).click();
  await expectNotice(page, MSG.modificadoCorrectamente);
  await expect(row).toContainText('Sin límite');
  await expect(row).toContainText('Calendario · Manual');

  // Documents can be replaced and removed.
  await row.getByRole('button', { name: `Editar ${clienteA}` }).click();
  await expect(edit.getByText('Manual actual')).toBeVisible();
  await edit.getByRole('button', { name: 'Quitar manual' }).click();
  await expect(edit.getByText('Se quitará al guardar')).toBeVisible();
  await edit.getByLabel('Archivo de calendario').setInputFiles({
    name: 'calendario-2027.pdf',
    mimeType: 'application/pdf',
    buffer: testFile('calendario.pdf'),
  });
  await edit.getByRole('button', { name: 'Guardar cambios' }).click();
  await expectNotice(page, MSG.modificadoCorrectamente);
  await expect(row).toContainText('Calendario');
  await expect(row).not.toContainText('Manual');

  // Deactivate and reactivate through '¿Estás seguro?'.
  await row.getByRole('button', { name: `Desactivar ${clienteA}` }).click();
  await confirm(page, 'Desactivar');
  await expect(row).toContainText('Inactivo');
  await row.getByRole('button', { name: `Activar ${clienteA}` }).click();
  await confirm(page, 'Activar');
  await expect(row).toContainText('Activo');
  await expect(row).not.toContainText('Inactivo');

  // A second client in category mode (one authorizer), with the required-field message first.
  await page.getByRole('button', { name: 'Agregar cliente' }).click();
  await modal.getByLabel('Nombre').fill(clienteB);
  await modal.getByRole('button', { name: 'Crear cliente' }).click();
  await expect(modal.getByRole('alert')).toContainText(MSG.clienteCamposRequeridos);
  await modal.getByLabel('Presupuesto mensual').fill('0');
  await toggleSwitch(modal.getByRole('switch', { name: 'Sin límite' }));
  await choose(page, 'Modo de presupuesto', /Por categoría/);
  await modal.getByRole('button', { name: 'Crear cliente' }).click();
  await expectNotice(page, MSG.creadoCorrectamente);
  await page.getByRole('searchbox', { name: 'Buscar cliente' }).fill(`del norte ${runSuffix()}`);
  await expect(page.getByText('Mostrando 1–2 de 2 clientes')).toBeVisible();
  await expect(
    page
      .getByTestId(/^cliente-/)
      .filter({ visible: true })
      .filter({ hasText: clienteB }),
  ).toContainText('Modo por categoría');

  // Phones: one card per client.
  await page.getByRole('searchbox', { name: 'Buscar cliente' }).fill('');
  await clearNotifications(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole('button', { name: 'Acciones de Demo Industrial' })).toBeVisible();
  await screenshot(page, 'admin-clientes-390');
});
