import { monthName } from '@portal/shared/domain/months';
import { MSG } from '@portal/shared/messages';
import { expect, expectHome, screenshot, signIn, test } from './fixtures';
import {
  apiPost,
  asAdmin,
  assignAll,
  businessToday,
  createAccount,
  createCategory,
  createClient,
  createProduct,
  expectNotice,
  openAccessWeek,
  runSuffix,
  toggleSwitch,
} from './helpers';
import { waitForMail } from './mailbox';

/**
 * Budget alerts (issue 15, item 5): the administrator sets the client's thresholds in the client form; the
 * buyer's "Utilizado" card turns amber at the first threshold and red at 100%, with the month's share, and
 * the e-mail arrives. The client, its product and the buyer are this attempt's own.
 */
const PASSWORD = 'Avisos#2026';

test('avisos de presupuesto: el formulario del cliente y la tarjeta «Utilizado» en ámbar y en rojo', async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  const suffix = runSuffix();
  const cliente = `Taller Avisos ${suffix}`;
  const comprador = `lucia.avisos.${suffix}`;
  const correo = `${comprador}@avisos.mx`;
  const mes = monthName(businessToday().slice(0, 7));

  // The administrator sets 50% and 100% in the client form, and creates the buyer.
  const pinza = await asAdmin(browser, async (admin) => {
    const idCliente = await createClient(admin, {
      nombre: cliente,
      presupuesto_default: 1000,
      limite_de_compras: -1,
    });
    await openAccessWeek(admin, idCliente);
    const herramienta = await createCategory(admin, idCliente, 'Herramienta', 'IconTool');
    const producto = await createProduct(admin, {
      id_cliente: idCliente,
      id_categoria: herramienta,
      clave_interna: 'HER-10',
      nombre: 'Pinza de electricista',
      precio: 100,
      impuesto: false,
      unidad_de_medida: 'Pieza',
    });
    await admin.goto('/administrador/clientes');
    await admin.getByRole('searchbox', { name: 'Buscar cliente' }).fill(cliente.toLowerCase());
    const row = admin.getByTestId(`cliente-${idCliente}`).filter({ visible: true });
    await row.getByRole('button', { name: `Editar ${cliente}` }).click();
    const edit = admin.getByRole('dialog', { name: 'Editar cliente' });
    const umbrales = edit.getByLabel('Avisar al llegar al (%)');
    await expect(umbrales).toHaveValue('80, 100');
    await umbrales.fill('100, 0');
    await edit.getByRole('button', { name: 'Guardar cambios' }).click();
    // Explained on the field (and in the summary under the form), not sent.
    await expect(umbrales).toHaveAttribute('aria-invalid', 'true');
    await expect(edit.getByText(MSG.alertasPresupuestoInvalido).first()).toBeVisible();
    await umbrales.fill('100, 50');
    await toggleSwitch(edit.getByRole('switch', { name: 'Avisar también a los autorizadores' }));
    await umbrales.scrollIntoViewIfNeeded();
    await screenshot(admin, 'admin-cliente-avisos');
    await edit.getByRole('button', { name: 'Guardar cambios' }).click();
    await expectNotice(admin, MSG.modificadoCorrectamente);

    const idComprador = await createAccount(
      admin,
      {
        id_cliente: idCliente,
        usuario: comprador,
        correo,
        nombre: 'Lucía Avisos Prieto',
        rol: 1,
        presupuesto_default: 1000,
        limite_de_compras: -1,
      },
      PASSWORD,
    );
    await assignAll(admin, idComprador, 20);
    return producto;
  });

  await signIn(page, comprador, PASSWORD);
  await expect(page).toHaveURL(/\/usuario\/principal$/, { timeout: 60_000 });
  await expectHome(page, 1);
  const buy = async (cantidad: number) => {
    await apiPost(page, '/api/carrito/nuevo_item', { item: { id: pinza, cantidad } });
    await apiPost(page, '/api/compra', { orden: [{ id: pinza, cantidad }], fecha: businessToday() });
  };

  // 60%: amber, with the share of the month.
  await buy(6);
  await page.goto('/usuario/principal');
  const utilizado = page.getByRole('group', { name: 'Utilizado' });
  await expect(utilizado).toHaveAttribute('data-tone', 'warning');
  await expect(utilizado.getByTestId('aviso-presupuesto')).toHaveText(
    `Has usado el 60% de tu presupuesto de ${mes}`,
  );
  await screenshot(page, 'usuario-presupuesto-aviso');
  const mail = await waitForMail((m) => m.to.includes(correo) && m.subject.startsWith('Has usado'));
  expect(mail.subject).toBe(`Has usado el 60% de tu presupuesto de ${mes}`);

  // 100%: red.
  await buy(4);
  await page.goto('/usuario/principal');
  await expect(utilizado).toHaveAttribute('data-tone', 'danger');
  await expect(utilizado.getByTestId('aviso-presupuesto')).toHaveText(
    `Has usado el 100% de tu presupuesto de ${mes}`,
  );
  await screenshot(page, 'usuario-presupuesto-agotado');
  await waitForMail(
    (m) => m.to.includes(correo) && m.subject === `Has usado el 100% de tu presupuesto de ${mes}`,
  );
});
