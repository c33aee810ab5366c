import { checkA11y, expect, expectHome, screenshot, signIn, test } from './fixtures';
import {
  apiPost,
  asAdmin,
  assignAll,
  createAccount,
  createCategory,
  createClient,
  createProduct,
  openAccessWeek,
  runSuffix,
  xsrfHeaders,
} from './helpers';

/**
 * Ship-to addresses (issue 41, item 6; decision 0126): the operator keeps a client's address book and gives
 * a buyer a default and a second address; the buyer chooses the second in the cart and the order shows it
 * whole. The client, its addresses and its buyer are this attempt's own.
 */
const PASSWORD = 'Direcciones#2026';
const ADDRESS = {
  numero_interior: '',
  colonia: 'Centro',
  municipio: 'Monterrey',
  ciudad: 'Monterrey',
  estado: 'Nuevo León',
  cp: '64000',
  telefono: '8112345678',
  horario: 'L-V 9:00 a 14:00',
};

test('el comprador elige una segunda dirección en el carrito y el pedido la muestra', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  const usuario = `rosa.mendez.${runSuffix()}`;
  const ids = await asAdmin(browser, async (admin) => {
    const idCliente = await createClient(admin, {
      nombre: `Distribuidora Méndez ${runSuffix()}`,
      presupuesto_default: 10_000,
      limite_de_compras: -1,
    });
    await openAccessWeek(admin, idCliente);
    const categoria = await createCategory(admin, idCliente, 'Papelería', 'IconPencil');
    await createProduct(admin, {
      id_cliente: idCliente,
      id_categoria: categoria,
      clave_interna: 'PAP-01',
      nombre: 'Resma de papel',
      precio: 100,
    });
    const idUser = await createAccount(
      admin,
      {
        id_cliente: idCliente,
        usuario,
        correo: `${usuario}@distribuidora-mendez.mx`,
        nombre: 'Rosa Méndez Ibarra',
        rol: 1,
      },
      PASSWORD,
    );
    await assignAll(admin, idUser, 10);
    const address = async (body: Record<string, string>) =>
      (
        await apiPost<{ direccion: { id: number } }>(admin, '/api/direcciones', {
          id_cliente: idCliente,
          ...ADDRESS,
          ...body,
        })
      ).direccion.id;
    const norte = await address({
      nombre: 'Almacén Norte',
      calle: 'Av. Industria',
      numero_exterior: '100',
      contacto: 'Ana López',
    });
    const sur = await address({
      nombre: 'Bodega Sur',
      calle: 'Calle Reforma',
      numero_exterior: '5',
      numero_interior: 'B',
      contacto: 'Beto Ruiz',
    });
    const res = await admin.request.put(`/api/usuarios/${idUser}/direcciones`, {
      headers: await xsrfHeaders(admin),
      data: { id_direccion: norte, direcciones: [sur] },
    });
    expect(res.ok(), await res.text()).toBe(true);

    // The operator's «Direcciones de entrega», wide and at 390 px.
    await admin.goto(`/administrador/direcciones?cliente=${idCliente}`);
    await expect(admin.getByRole('heading', { name: 'Direcciones de entrega', level: 1 })).toBeVisible();
    await expect(admin.getByTestId(`direccion-${sur}`).first()).toContainText('Bodega Sur');
    await checkA11y(admin, 'direcciones de entrega');
    await screenshot(admin, 'administrador-direcciones');
    await admin.setViewportSize({ width: 390, height: 844 });
    await admin.reload();
    await expect(admin.getByTestId(`direccion-${norte}`).filter({ visible: true })).toContainText(
      'Almacén Norte',
    );
    await screenshot(admin, 'administrador-direcciones-telefono');
    return { idCliente, norte, sur };
  });

  await signIn(page, usuario, PASSWORD);
  await expectHome(page, 1);
  const producto = await page.request.get('/api/catalogo');
  const id = ((await producto.json()) as { productos: { id: number }[] }).productos[0]!.id;
  await apiPost(page, '/api/carrito/nuevo_item', { item: { id, cantidad: 2 } });
  await page.goto('/usuario/carrito');
  const entrega = page.getByTestId('direccion-entrega');
  // The default first, whole, with who receives.
  await expect(entrega).toContainText(
    'Av. Industria núm. ext. 100, Centro, Monterrey, Nuevo León, C.P. 64000',
  );
  await expect(entrega).toContainText('Recibe: Ana López · Tel. 81 1234 5678 · Horario: L-V 9:00 a 14:00');
  await entrega.getByRole('combobox', { name: 'Dirección de entrega' }).click();
  await page.getByRole('option', { name: 'Bodega Sur' }).click();
  await expect(entrega).toContainText(
    'Calle Reforma núm. ext. 5 int. B, Centro, Monterrey, Nuevo León, C.P. 64000',
  );
  await expect(entrega).toContainText('Recibe: Beto Ruiz');
  await checkA11y(page, 'carrito con direcciones');
  await screenshot(page, 'usuario-carrito-direcciones');

  await page.getByRole('button', { name: 'Confirmar compra' }).click();
  await page
    .getByRole('dialog', { name: '¿Confirmar compra?' })
    .getByRole('button', { name: 'Enviar pedido' })
    .click();
  const success = page.getByRole('dialog', { name: 'Compra enviada correctamente' });
  await expect(success).toBeVisible();
  const numero = /#(\d{5})/.exec(await success.innerText())?.[1];
  expect(numero).toBeTruthy();
  await success.getByRole('button', { name: 'Cerrar' }).click();

  await page.goto(`/usuario/historial/${Number(numero)}`);
  const copia = page.getByTestId('pedido-entrega');
  await expect(copia).toContainText(
    'Bodega Sur, Calle Reforma núm. ext. 5 int. B, Centro, Monterrey, Nuevo León, C.P. 64000',
  );
  await expect(copia).toContainText('Recibe: Beto Ruiz · Tel. 81 1234 5678');
  await screenshot(page, 'usuario-pedido-direccion');
  expect(ids.sur).toBeGreaterThan(0);
});
