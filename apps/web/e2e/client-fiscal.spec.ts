import { FISCAL_MSG } from '@portal/shared/domain/fiscal';
import { MSG } from '@portal/shared/messages';
import { expect, PHONE_WIDTH, screenshot, signOut, test } from './fixtures';
import {
  choose,
  clearNotifications,
  clientId,
  createAccount,
  expectNotice,
  runSuffix,
  scrollDialogTop,
  signInAdmin,
} from './helpers';
import { signInClientAdmin } from './totp';

/**
 * A client's fiscal data (issue 42 item 1, decision 0128) end to end: the distributor creates a client with
 * its «Datos fiscales» (an RFC with a wrong check digit is refused in Spanish under the field, then the right
 * one is saved) and lets its administrators change them; the client's administrator sees them on «Mi
 * empresa» with the SAT catalogue's names, and changes its billing e-mails in the same section of the form.
 */
test('el distribuidor captura los datos fiscales de un cliente nuevo y su administrador los ve y los cambia', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const suffix = runSuffix();
  const cliente = `Escuela Kemper ${suffix}`;
  const administradora = `irene.kemper.${suffix}`;
  const password = 'MiEmpresa#2026';

  await signInAdmin(page);
  await page.getByRole('link', { name: 'Clientes' }).first().click();
  await page.getByRole('button', { name: 'Agregar cliente' }).click();
  const modal = page.getByRole('dialog', { name: 'Agregar cliente' });
  await modal.getByLabel('Nombre').fill(cliente);
  await modal.getByLabel('Presupuesto mensual').fill('8000');
  await modal.getByLabel('Límite de compras').fill('5');
  await modal.getByRole('checkbox', { name: /^Datos fiscales/ }).check();

  // «Datos fiscales»: the régimenes offered are those of a persona moral once its RFC is typed.
  const rfc = modal.getByRole('textbox', { name: 'RFC' });
  await rfc.fill('eku9003173c8');
  await expect(rfc).toHaveValue('EKU9003173C8');
  await modal.getByRole('textbox', { name: 'Razón social' }).fill('Escuela Kemper Urgate');
  await modal.getByRole('textbox', { name: 'Código postal fiscal' }).fill('26015');
  await choose(page, 'Régimen fiscal', '601 · General de Ley Personas Morales', '601');
  await choose(page, 'Uso de CFDI', 'G03 · Gastos en general', 'G03');
  await modal
    .getByRole('textbox', { name: 'Correos de facturación' })
    .fill(`facturas@kemper-${suffix}.mx, cuentas.por.pagar@kemper-${suffix}.mx`);
  await modal.getByRole('button', { name: 'Crear cliente' }).click();
  // The check digit is wrong: the refusal under the field and in the form's summary, nothing saved.
  await expect(modal.getByText(FISCAL_MSG.rfcDigito).first()).toBeVisible();
  await expect(modal.getByRole('alert')).toContainText(FISCAL_MSG.rfcDigito);
  // The section's heading just under the dialog's own (which stays on top as the form scrolls).
  await modal.getByRole('heading', { name: 'Datos fiscales' }).evaluate((el) => {
    const content = el.closest('.mantine-Modal-content');
    if (content)
      content.scrollTop += el.getBoundingClientRect().top - content.getBoundingClientRect().top - 72;
  });
  await screenshot(page, 'admin-cliente-fiscal');
  await page.setViewportSize({ width: PHONE_WIDTH, height: 844 });
  await rfc.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await screenshot(page, 'admin-cliente-fiscal-390');
  await page.setViewportSize({ width: 1366, height: 860 });

  await rfc.fill('EKU9003173C9');
  await expect(modal.getByText(FISCAL_MSG.rfcDigito)).toHaveCount(0);
  await expect(modal.getByText('De persona moral', { exact: true })).toBeVisible();
  await modal.getByRole('button', { name: 'Crear cliente' }).click();
  await expectNotice(page, MSG.creadoCorrectamente);
  await expect(modal).toBeHidden();

  // Opened again, the form holds what was saved.
  const row = page
    .getByTestId(/^cliente-/)
    .filter({ visible: true })
    .filter({ hasText: cliente });
  await page.getByRole('searchbox', { name: 'Buscar cliente' }).fill(cliente);
  await row.getByRole('button', { name: `Editar ${cliente}` }).click();
  const edit = page.getByRole('dialog', { name: 'Editar cliente' });
  await expect(edit.getByRole('textbox', { name: 'RFC' })).toHaveValue('EKU9003173C9');
  await expect(edit.getByRole('combobox', { name: 'Régimen fiscal', exact: true })).toHaveValue(
    '601 · General de Ley Personas Morales',
  );
  await edit.getByRole('button', { name: 'Cancelar' }).click();

  // Its administrator, through the API.
  const idCliente = await clientId(page, cliente);
  await createAccount(
    page,
    {
      id_cliente: idCliente,
      usuario: administradora,
      correo: `${administradora}@kemper-${suffix}.mx`,
      nombre: 'Irene Kemper Urgate',
      rol: 5,
    },
    password,
  );

  await signOut(page);
  const refused = await signInClientAdmin(page, administradora, password);
  const section = page.getByRole('region', { name: 'Datos fiscales' });
  await expect(section).toContainText('EKU9003173C9 (persona moral)');
  await expect(section).toContainText('Escuela Kemper Urgate');
  await expect(section).toContainText('601 · General de Ley Personas Morales');
  await expect(section).toContainText('G03 · Gastos en general');
  await expect(section).toContainText('26015');
  await expect(section).toContainText(`facturas@kemper-${suffix}.mx`);
  await expect(section).toContainText(`cuentas.por.pagar@kemper-${suffix}.mx`);
  await screenshot(page, 'cliente-datos-fiscales');
  await page.setViewportSize({ width: PHONE_WIDTH, height: 844 });
  await screenshot(page, 'cliente-datos-fiscales-390');
  await page.setViewportSize({ width: 1366, height: 860 });

  // It changes them in the client form's own section: a bad código postal is refused, then saved.
  await section.getByRole('button', { name: 'Editar datos fiscales' }).click();
  const dialog = page.getByRole('dialog', { name: 'Datos fiscales' });
  await dialog.getByRole('textbox', { name: 'Correos de facturación' }).fill(`facturas@kemper-${suffix}.mx`);
  await dialog.getByRole('textbox', { name: 'Código postal fiscal' }).fill('2601');
  await dialog.getByRole('button', { name: 'Guardar datos fiscales' }).click();
  await expect(dialog.getByText(FISCAL_MSG.cpInvalido)).toBeVisible();
  await scrollDialogTop(page);
  await screenshot(page, 'cliente-datos-fiscales-editar');
  await dialog.getByRole('textbox', { name: 'Código postal fiscal' }).fill('26017');
  await dialog.getByRole('button', { name: 'Guardar datos fiscales' }).click();
  await expectNotice(page, MSG.modificadoCorrectamente);
  await expect(dialog).toBeHidden();
  await expect(section).toContainText('26017');
  await expect(section).not.toContainText('cuentas.por.pagar');
  await clearNotifications(page);
  expect(refused, 'llamadas rechazadas (403)').toEqual([]);
});
