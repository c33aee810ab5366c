import { MSG } from '@portal/shared/messages';
import { expect, expectHome, screenshot, signIn, test } from './fixtures';
import {
  businessToday,
  checkPhone,
  choose,
  clearNotifications,
  dmy,
  expectNotice,
  pickDay,
  runSuffix,
  signInAdmin,
  testFile,
  toggleSwitch,
} from './helpers';
import { waitForMail } from './mailbox';
import { e2eBaseUrl } from './ports';

/**
 * One administrator's journey through the UI, from nothing to a user who can buy: a client with its logo
 * and colours, a category, a product with an image, a CSV import with its result, a buyer, two products
 * assigned to the buyer, an access week that covers today and the system log. Then the buyer creates a
 * password from the welcome e-mail and signs in to exactly those two products under the client's branding.
 */
test.describe.configure({ mode: 'serial', timeout: 240_000 });

const CATEGORIA = 'Cuadernos';
const VIOLETA = [95, 61, 196] as const;
const NARANJA = [232, 89, 12] as const;
const CUADERNO = 'Cuaderno profesional de raya';
const BOLIGRAFO = 'Bolígrafo azul punto mediano';
const CARPETA = 'Carpeta de argollas de 1 pulgada';

test('el administrador da de alta un cliente completo y su comprador entra a sus dos productos', async ({
  page,
  browser,
}) => {
  // This attempt's names (a retry meets none of its first attempt's data).
  const RUN = runSuffix();
  const CLIENTE = `Papelera del Norte ${RUN}`;
  const COMPRADOR = `norte.${RUN}`;
  const CORREO = `${COMPRADOR}@papelera-norte.mx`;
  const PASSWORD = `Norte#${RUN}2026`;
  await signInAdmin(page);

  // 1. The client, with its logo and its two colours.
  await page.getByRole('link', { name: 'Clientes' }).first().click();
  await page.getByRole('button', { name: 'Agregar cliente' }).click();
  const modal = page.getByRole('dialog', { name: 'Agregar cliente' });
  await modal.getByLabel('Nombre').fill(CLIENTE);
  await modal.getByLabel('Presupuesto mensual').fill('3000');
  await modal.getByLabel('Límite de compras').fill('4');
  await choose(page, 'Autorizadores', '1 nivel (Autorizador)');
  await modal.getByLabel('Archivo de logotipo').setInputFiles({
    name: 'papelera.png',
    mimeType: 'image/png',
    buffer: testFile('logo-violet-orange-200x80.png'),
  });
  await expect(modal.getByRole('img', { name: 'Vista previa de papelera.png' })).toBeVisible();
  await modal.getByRole('textbox', { name: 'Color principal' }).fill('#5f3dc4');
  await modal.getByRole('textbox', { name: 'Color secundario' }).fill('#e8590c');
  await modal.getByLabel('Nombre').click();
  await modal.getByRole('button', { name: 'Crear cliente' }).click();
  await expectNotice(page, MSG.creadoCorrectamente);
  await expect(modal).toBeHidden();
  await page.getByRole('searchbox', { name: 'Buscar cliente' }).fill(CLIENTE);
  const clientRow = page
    .getByTestId(/^cliente-/)
    .filter({ visible: true })
    .filter({ hasText: CLIENTE });
  await expect(clientRow).toContainText('$3,000.00 MXN');
  await expect(clientRow.getByRole('img', { name: `Logotipo de ${CLIENTE}` })).toBeVisible();

  // 2. Inventory of the new client: a category, then a product with its image.
  await page.getByRole('link', { name: 'Inventario' }).first().click();
  await choose(page, 'Cliente', CLIENTE, CLIENTE);
  await page.getByRole('tab', { name: 'Categorías' }).click();
  await page.getByRole('button', { name: 'Nueva categoria' }).click();
  const categoryDialog = page.getByRole('dialog', { name: 'Nueva categoria' });
  await categoryDialog.getByLabel('Nombre').fill(CATEGORIA);
  await categoryDialog.getByRole('combobox', { name: 'Icono', exact: true }).click();
  await page.getByRole('option', { name: 'Lápiz' }).click();
  await categoryDialog.getByRole('button', { name: 'Crear categoría' }).click();
  await expect(categoryDialog).toBeHidden();
  await expect(
    page.getByRole('table', { name: 'Categorías del cliente' }).getByRole('row', { name: /Cuadernos/ }),
  ).toBeVisible();

  await page.getByRole('tab', { name: 'Artículos' }).click();
  await page.getByRole('button', { name: 'Nuevo producto' }).click();
  const productDrawer = page.getByRole('dialog', { name: 'Nuevo producto' });
  await productDrawer.getByLabel('Clave interna').fill(`PN-${RUN}-1`);
  await productDrawer.getByLabel('Nombre').fill(CUADERNO);
  await productDrawer.getByLabel('Descripción').fill('Cuaderno de 100 hojas, pasta dura.');
  await productDrawer.getByLabel('Unidad de medida').fill('Pieza');
  await productDrawer.getByLabel('Precio (MXN)').fill('54.5');
  await productDrawer.getByRole('combobox', { name: 'Categoría', exact: true }).click();
  await page.getByRole('option', { name: CATEGORIA }).click();
  await productDrawer
    .getByLabel('Imagen del producto')
    .setInputFiles({ name: 'cuaderno.png', mimeType: 'image/png', buffer: testFile('gradient-120.png') });
  await expect(
    productDrawer.getByRole('img', { name: 'Vista previa de la imagen del producto' }),
  ).toBeVisible();
  await productDrawer.getByRole('button', { name: 'Agregar producto' }).click();
  await expectNotice(page, MSG.creadoCorrectamente);
  await expect(page.getByRole('textbox', { name: `Precio de ${CUADERNO}` })).toHaveValue('$54.50');

  // 3. A small CSV: two good rows (one in a category that does not exist yet) and a bad price.
  await page.getByRole('button', { name: 'Cargar productos' }).click();
  const importDialog = page.getByRole('dialog', { name: /Cargar productos/ });
  const csv = [
    'clave_interna,clave_cliente,nombre,descripcion,unidad_de_medida,precio,impuesto,activo,categoria',
    `PN-${RUN}-2,BA-10,${BOLIGRAFO},Caja con 12,Caja,38.90,1,1,${CATEGORIA}`,
    `PN-${RUN}-3,CA-01,${CARPETA},Color negro,Pieza,68.00,1,1,Archivo`,
    `PN-${RUN}-4,GO-02,Goma blanca,Para lápiz,Pieza,tres,1,1,${CATEGORIA}`,
  ].join('\r\n');
  await importDialog
    .getByLabel('Archivo CSV', { exact: true })
    .setInputFiles({ name: 'papeleria.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await importDialog.getByRole('button', { name: 'Importar' }).click();
  const result = importDialog.getByTestId('resultado-importacion');
  await expect(result.getByText('Terminada con errores')).toBeVisible({ timeout: 30_000 });
  await expect(result.getByText('2 registros procesados de 3, 1 registro con errores.')).toBeVisible();
  const errorRow = result.getByRole('table', { name: 'Errores por registro' }).getByRole('row').nth(1);
  await expect(errorRow).toContainText('4');
  await expect(errorRow).toContainText('precio');
  await expect(errorRow).toContainText('tres');
  await importDialog.getByRole('button', { name: 'Cerrar' }).last().click();
  for (const nombre of [CUADERNO, BOLIGRAFO, CARPETA]) {
    await expect(page.getByTestId('producto-admin').filter({ hasText: nombre })).toBeVisible();
  }
  await expect(page.getByTestId('producto-admin')).toHaveCount(3);
  await clearNotifications(page);
  await screenshot(page, 'recorrido-inventario');

  // 4. The buyer; the welcome e-mail goes out with a link to create the password.
  await page.getByRole('link', { name: 'Usuarios' }).first().click();
  await choose(page, 'Cliente', CLIENTE, CLIENTE);
  await page.getByRole('button', { name: 'Agregar nuevo usuario' }).click();
  const drawer = page.getByRole('dialog', { name: /Agregar nuevo usuario/ });
  await expect(drawer.getByRole('textbox', { name: 'Presupuesto', exact: true })).toHaveValue('$3,000.00');
  await drawer.getByRole('combobox', { name: 'Rol' }).click();
  await page.getByRole('option', { name: 'Usuario', exact: true }).click();
  await drawer.getByRole('textbox', { name: 'Usuario', exact: true }).fill(COMPRADOR);
  await drawer.getByLabel('Email').fill(CORREO);
  await drawer.getByRole('textbox', { name: 'Nombre', exact: true }).fill('Lucía Fernández Garza');
  await drawer.getByLabel('Dirección de entrega').fill('Bodega norte, andén 1');
  await choose(page, 'Semana de referencia', 'Semana 1');
  await choose(page, 'Semana de entrega', 'Semana 2');
  await drawer.getByRole('button', { name: 'Crear usuario' }).click();
  await expectNotice(page, MSG.creadoCorrectamente);
  await expect(drawer).toBeHidden();
  const userRow = page.getByTestId(`usuario-${COMPRADOR}`).filter({ visible: true });
  await expect(userRow).toContainText('Lucía Fernández Garza');

  // 5. Exactly two of the three products, assigned to the buyer.
  await userRow.getByRole('link', { name: `Productos de ${COMPRADOR}` }).click();
  await expect(page.getByRole('heading', { name: 'Productos del usuario', level: 1 })).toBeVisible();
  await expect(page.getByText('Mostrando 1–3 de 3 productos')).toBeVisible();
  for (const nombre of [CUADERNO, BOLIGRAFO]) {
    const control = page.getByRole('switch', { name: `Habilitar ${nombre}` });
    await toggleSwitch(control);
    await expect(control).toBeChecked();
  }
  await expect(page.getByTestId('productos-habilitados')).toHaveText('2');
  await expect(page.getByRole('switch', { name: `Habilitar ${CARPETA}` })).not.toBeChecked();

  // 6. An access week that starts today (the buyer may sign in only inside it).
  const today = businessToday();
  await page.getByRole('link', { name: 'Semanas de acceso' }).first().click();
  await choose(page, 'Cliente', CLIENTE, CLIENTE);
  await expect(page.getByText('Este cliente aún no tiene semanas')).toBeVisible();
  await pickDay(page, 'Fecha de inicio', today);
  await page.getByRole('button', { name: 'Agregar', exact: true }).click();
  await expectNotice(page, MSG.creadoCorrectamente);
  const week = page.getByTestId(`semana-${today}`);
  await expect(week).toContainText(dmy(today));
  await expect(week.getByRole('switch')).toBeChecked();

  // 7. The system log tells what was done: the buyer's creation, by the administrator.
  await page.getByRole('link', { name: 'Registros del sistema' }).first().click();
  await page.getByRole('combobox', { name: 'Tipo de evento', exact: true }).click();
  await page.getByRole('option', { name: 'Usuario creado', exact: true }).click();
  await expect(page).toHaveURL(/tipo=usuario_creado/);
  await expect(page.getByTestId('log-row').filter({ hasText: COMPRADOR })).toHaveCount(1);
  await page.getByRole('combobox', { name: 'Tipo de evento', exact: true }).fill('Cliente creado');
  await page.getByRole('option', { name: 'Cliente creado', exact: true }).click();
  await expect(page.getByTestId('log-row').filter({ hasText: CLIENTE })).toHaveCount(1);

  // 8. The buyer, in a browser of their own: the welcome link, a password, and the catalogue.
  const mail = await waitForMail(
    (m) => m.to.includes(CORREO) && m.subject === 'Bienvenido al Portal de Compras',
  );
  const link = mail.text.match(new RegExp(`${e2eBaseUrl()}/restablecer/[A-Za-z0-9_-]+`))?.[0];
  expect(link, 'enlace para crear la contraseña en el correo de bienvenida').toBeTruthy();
  const buyerContext = await browser.newContext({
    baseURL: e2eBaseUrl(),
    locale: 'es-MX',
    timezoneId: 'America/Mexico_City',
    viewport: { width: 1366, height: 860 },
  });
  const buyer = await buyerContext.newPage();
  await buyer.goto(link as string);
  await expect(buyer.getByRole('heading', { name: 'Crea tu contraseña' })).toBeVisible();
  await expect(buyer.getByText(COMPRADOR)).toBeVisible();
  await buyer.getByLabel('Nueva contraseña', { exact: true }).fill(PASSWORD);
  await buyer.getByLabel('Confirmar nueva contraseña').fill(PASSWORD);
  await buyer.getByRole('button', { name: 'Guardar contraseña' }).click();
  await expect(buyer).toHaveURL(/\/login$/);

  await signIn(buyer, COMPRADOR, PASSWORD);
  await expectHome(buyer, 1);
  await expect(buyer.getByRole('article')).toHaveCount(2);
  await expect(buyer.getByRole('article', { name: CUADERNO })).toContainText('$54.50 MXN');
  await expect(buyer.getByRole('article', { name: BOLIGRAFO })).toContainText('$38.90 MXN');
  await expect(buyer.getByRole('article', { name: CARPETA })).toHaveCount(0);

  // The client's branding: its logo and its colours in the sidebar.
  const navbar = buyer.getByRole('navigation', { name: 'Menú principal' });
  const logo = navbar.getByRole('img', { name: `Logotipo de ${CLIENTE}` });
  await expect(logo).toBeVisible();
  await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(200);
  await expect(navbar).toHaveAttribute(
    'style',
    new RegExp(`rgb\\(${VIOLETA.join(', ')}\\).*rgb\\(${NARANJA.join(', ')}\\)`),
  );
  await screenshot(buyer, 'recorrido-comprador');
  await checkPhone(buyer, 'recorrido-comprador');
  await buyerContext.close();
});
