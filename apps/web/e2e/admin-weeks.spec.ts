import { addDays } from '@portal/shared/domain/time';
import { generateWeeks } from '@portal/shared/domain/week-generator';
import { MSG } from '../../server/src/messages';
import { expect, screenshot, test } from './fixtures';
import {
  apiPost,
  businessToday,
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
} from './helpers';

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
  // The refusal under the form, not in a dialog (decision 0070).
  const alert = page.getByRole('alert').filter({ hasText: MSG.semanaDuplicada });
  await expect(alert).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await pickDay(page, 'Fecha de inicio', isoInNextMonth(12));
  await agregar.click();
  await expect(page.getByRole('alert').filter({ hasText: MSG.semanaEmpalmada })).toBeVisible();
  await expect(alert).toHaveCount(0);

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

test('semanas: generar un año de semanas mensuales con vista previa y verlas en el calendario', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signInAdmin(page);
  const cliente = `Clínica San Rafael ${runSuffix()}`;
  const idCliente = await createClient(page, {
    nombre: cliente,
    presupuesto_default: 5000,
    limite_de_compras: -1,
  });
  // The dialog proposes a year from today, the first week of each month (decision 0097).
  const today = businessToday();
  const expected = generateWeeks({
    desde: today,
    hasta: addDays(today, 364),
    modo: 'mensual',
    semana_del_mes: '1',
    dias: 5,
  });
  expect(expected.length).toBeGreaterThanOrEqual(11);
  const n = expected.length;
  // One of them exists already: the preview marks it and saving skips it.
  const existing = expected[2]!;
  await apiPost(page, '/api/calendario_semanas', { ...existing, id_cliente: idCliente, activo: 1 });

  await page.goto('/administrador/semanas');
  const generar = page.getByRole('button', { name: 'Generar semanas…' });
  await expect(generar).toBeDisabled();
  await choose(page, 'Cliente', cliente, cliente);
  await generar.click();
  const dialog = page.getByRole('dialog', { name: `Generar semanas de ${cliente}` });
  await expect(dialog.getByRole('combobox', { name: 'Repetir' })).toHaveValue('Cada mes');
  await expect(dialog.getByRole('combobox', { name: 'Semana del mes' })).toHaveValue('Primera semana');
  await expect(dialog.getByRole('button', { name: 'Guardar', exact: true })).toBeDisabled();

  await dialog.getByRole('button', { name: 'Vista previa' }).click();
  const preview = dialog.getByTestId('vista-previa-semanas');
  await expect(preview).toContainText(
    `Se crearán ${n - 1} semanas; se omitirá 1 que ya existe o se empalma.`,
  );
  // Saving leaves today outside every active week (the client has none today): the preview says until when.
  const holdsToday = expected.some((w) => w.inicio <= today && w.fin >= today);
  const warning = dialog.getByTestId('aviso-hoy-sin-acceso');
  if (holdsToday) await expect(warning).toHaveCount(0);
  else
    await expect(warning).toHaveText(
      MSG.hoySinAcceso(expected.find((w) => w.inicio > today && w !== existing)?.inicio ?? null),
    );
  for (const w of expected) {
    const row = dialog.getByTestId(`previa-${w.inicio}`);
    await expect(row).toContainText(dmy(w.inicio));
    await expect(row).toContainText(w === existing ? 'Ya existe' : 'Nueva');
  }
  await screenshot(page, 'admin-semanas-generar');

  // Changing the rule makes the preview stale.
  await choose(page, 'Semana del mes', 'Segunda semana');
  await expect(preview).toHaveCount(0);
  await choose(page, 'Semana del mes', 'Primera semana');
  await dialog.getByRole('button', { name: 'Vista previa' }).click();
  await dialog.getByRole('button', { name: `Guardar ${n - 1} semanas` }).click();
  await expect(dialog).toBeHidden();
  await expectNotice(page, MSG.semanasGeneradas(n - 1, 1));
  await expect(page.getByText(`Mostrando 1–5 de ${n} semanas`)).toBeVisible();

  // The calendar shows the month of the first new week, its days marked active.
  const calendar = page.getByTestId('calendario-semanas');
  const w0 = expected[0]!;
  await expect(calendar.getByTestId(`dia-${w0.inicio}`)).toHaveAttribute('data-estado', 'activa');
  await expect(calendar.getByTestId(`dia-${w0.fin}`)).toHaveAttribute('data-estado', 'activa');
  await expect(calendar.getByTestId(`dia-${addDays(w0.fin, 1)}`)).toHaveAttribute(
    'data-estado',
    'sin-semana',
  );
  const w1 = expected[1]!;
  await calendar.getByRole('button', { name: 'Ir al próximo mes' }).click();
  await expect(calendar.getByTestId(`dia-${w1.inicio}`)).toHaveAttribute('data-estado', 'activa');
  await calendar.getByRole('button', { name: 'Ir al próximo mes' }).click();
  await expect(calendar.getByTestId(`dia-${existing.inicio}`)).toHaveAttribute('data-estado', 'activa');
  await clearNotifications(page);
  await screenshot(page, 'admin-semanas-calendario');
  await checkPhone(page, 'semanas-calendario');

  // Generating the same year again creates nothing.
  await generar.click();
  await dialog.getByRole('button', { name: 'Vista previa' }).click();
  await expect(preview).toContainText(`Se crearán 0 semanas; se omitirán ${n} que ya existen o se empalman.`);
  await expect(dialog.getByRole('button', { name: 'Guardar', exact: true })).toBeDisabled();
  await dialog.getByRole('button', { name: 'Cancelar' }).click();
  await expect(dialog).toBeHidden();
});
