import { MSG } from '@portal/shared/messages';
import {
  checkPhone,
  choose,
  clearNotifications,
  confirm,
  createClient,
  dmy,
  expectNotice,
  pickDay,
  runSuffix,
  signInAdmin,
  toggleSwitch,
} from './admin-support';
import { expect, screenshot, test } from './fixtures';

/** The administrator's access weeks end to end, in a client this run creates through the API. */

function isoInNextMonth(day: number): string {
  const now = new Date();
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, day));
  return d.toISOString().slice(0, 10);
}

test('semanas: agregar, duplicada, empalmada, activar/desactivar y eliminar', async ({ page }) => {
  test.setTimeout(180_000);
  await signInAdmin(page);
  const cliente = `Hotel Los Arcos ${runSuffix()}`;
  await createClient(page, { nombre: cliente, presupuesto_default: 5000, limite_de_compras: -1 });
  await page.getByRole('link', { name: 'Semanas de acceso' }).first().click();
  await expect(page).toHaveURL(/\/administrador\/semanas$/);
  await expect(page.getByText(MSG.debesSeleccionarCliente)).toBeVisible();
  const agregar = page.getByRole('button', { name: 'Agregar', exact: true });
  await expect(agregar).toBeDisabled();

  const inicio = isoInNextMonth(10);
  const fin = isoInNextMonth(14);
  await pickDay(page, 'Fecha de inicio', inicio);
  await expect(page.getByRole('button', { name: 'Fecha de fin', exact: true })).toHaveText(dmy(fin));
  await expect(agregar).toBeDisabled();
  await choose(page, 'Cliente', cliente, cliente);
  await expect(page.getByText('Este cliente aún no tiene semanas')).toBeVisible();
  await expect(agregar).toBeEnabled();
  await agregar.click();
  await expectNotice(page, MSG.creadoCorrectamente);
  const week = page.getByTestId(`semana-${inicio}`);
  await expect(week).toContainText(dmy(inicio));
  await expect(week).toContainText(dmy(fin));
  await expect(week.getByRole('switch')).toBeChecked();

  // The same week again, then one that overlaps it.
  await pickDay(page, 'Fecha de inicio', inicio);
  await agregar.click();
  const alert = page.getByRole('dialog', { name: 'Error' });
  await expect(alert).toContainText(MSG.semanaDuplicada);
  await alert.getByRole('button', { name: 'Aceptar' }).click();
  await pickDay(page, 'Fecha de inicio', isoInNextMonth(12));
  await agregar.click();
  await expect(alert).toContainText(MSG.semanaEmpalmada);
  await alert.getByRole('button', { name: 'Aceptar' }).click();

  // A second week, then the screenshot with both.
  const inicio2 = isoInNextMonth(20);
  await pickDay(page, 'Fecha de inicio', inicio2);
  await agregar.click();
  await expectNotice(page, MSG.creadoCorrectamente);
  const week2 = page.getByTestId(`semana-${inicio2}`);
  await expect(week2).toBeVisible();
  await expect(page.getByText('Mostrando 1–2 de 2 semanas')).toBeVisible();
  await clearNotifications(page);
  // The next week picked (not added yet): the end follows the start.
  await pickDay(page, 'Fecha de inicio', isoInNextMonth(27));
  await screenshot(page, 'admin-semanas');
  await checkPhone(page, 'semanas');

  // Toggle (with confirmation) and delete for good.
  await toggleSwitch(week.getByRole('switch'));
  await confirm(page, 'Desactivar');
  await expectNotice(page, MSG.actualizadoCorrectamente);
  await expect(week.getByRole('switch')).not.toBeChecked();
  await toggleSwitch(week.getByRole('switch'));
  await confirm(page, 'Activar');
  await expect(week.getByRole('switch')).toBeChecked();
  await week2.getByRole('button', { name: /Eliminar semana/ }).click();
  await confirm(page, 'Eliminar');
  await expectNotice(page, MSG.eliminadoCorrectamente);
  await expect(week2).toHaveCount(0);
  await expect(page.getByText('Mostrando 1–1 de 1 semana')).toBeVisible();
});
