import type { Browser, Page } from '@playwright/test';
import { expect, expectHome, screenshot, signIn, signOut, test } from './fixtures';
import {
  apiPost,
  asAdmin,
  assignAll,
  businessToday,
  clearNotifications,
  createAccount,
  createCategory,
  createClient,
  createProduct,
  openAccessWeek,
  runSuffix,
} from './helpers';
import { readMailbox, waitForMail } from './mailbox';
import { e2eBaseUrl } from './ports';

/**
 * Links that survive sign-in and the approver's queue (issue 14, items 1 and 4; decision 0048): the
 * "Revisar pedido" e-mail opened without a session signs in and lands on the order, a buyer's "Ver pedido"
 * too, and `volver` to another site or another role's area is ignored; on the review screen j/k move
 * through the list, `a` opens the approval's confirmation, "Siguiente pendiente" follows the approval, and
 * leaving with unsaved line edits asks first. The client (one approval level), its products, buyer and
 * authorizer are this attempt's own.
 */
const PASSWORD = 'Cola#2026';

test.describe.configure({ mode: 'serial' });

const numero = (id: number) => `#${String(id).padStart(5, '0')}`;
/** The address of the e-mail's button (the path and search on this server). */
const linkOf = (text: string, path: RegExp) => {
  const url = text.match(/https?:\/\/\S+/g)?.find((u) => path.test(u));
  if (!url) throw new Error(`Sin enlace ${path} en el correo:\n${text}`);
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
};

interface World {
  comprador: string;
  compradorCorreo: string;
  autorizador: string;
  autorizadorCorreo: string;
  autorizadorId: number;
  /** Oldest first. */
  pedidos: number[];
}

let world: World | undefined;

async function freshPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({
    baseURL: e2eBaseUrl(),
    locale: 'es-MX',
    timezoneId: 'America/Mexico_City',
    viewport: { width: 1366, height: 860 },
  });
  return context.newPage();
}

/** The client, a buyer with four pendiente orders and an authorizer, created once for the file. */
async function setUp(browser: Browser): Promise<World> {
  if (world) return world;
  const suffix = runSuffix();
  const comprador = `lucia.mora.${suffix}`;
  const autorizador = `hector.salas.${suffix}`;
  const compradorCorreo = `${comprador}@moratex.mx`;
  const autorizadorCorreo = `${autorizador}@moratex.mx`;
  const productos = await asAdmin(browser, async (admin) => {
    const idCliente = await createClient(admin, {
      nombre: `Textiles Mora ${suffix}`,
      presupuesto_default: 20000,
      limite_de_compras: -1,
      cantidad_autorizadores: 1,
    });
    await openAccessWeek(admin, idCliente);
    const papeleria = await createCategory(admin, idCliente, 'Papelería', 'IconPencil');
    const producto = (clave_interna: string, nombre: string, precio: number) =>
      createProduct(admin, {
        id_cliente: idCliente,
        id_categoria: papeleria,
        clave_interna,
        nombre,
        precio,
        unidad_de_medida: 'Pieza',
      });
    const hojas = await producto('PAP-10', 'Hojas blancas carta (500)', 120);
    const plumas = await producto('PAP-11', 'Plumas azules (12)', 45);
    const idComprador = await createAccount(
      admin,
      {
        id_cliente: idCliente,
        usuario: comprador,
        correo: compradorCorreo,
        nombre: 'Lucía Mora Treviño',
        rol: 1,
        presupuesto_default: 20000,
      },
      PASSWORD,
    );
    await assignAll(admin, idComprador, 10);
    const autorizadorId = await createAccount(
      admin,
      {
        id_cliente: idCliente,
        usuario: autorizador,
        correo: autorizadorCorreo,
        nombre: 'Héctor Salas Ruiz',
        rol: 2,
      },
      PASSWORD,
    );
    return { hojas, plumas, autorizadorId };
  });

  // Four orders through the buyer's API, oldest first.
  const buyer = await freshPage(browser);
  try {
    await signIn(buyer, comprador, PASSWORD);
    await expect(buyer).toHaveURL(/\/usuario\/principal$/, { timeout: 60_000 });
    const pedidos: number[] = [];
    for (const [id, cantidad] of [
      [productos.hojas, 2],
      [productos.plumas, 3],
      [productos.hojas, 1],
      [productos.plumas, 2],
    ] as const) {
      await apiPost(buyer, '/api/carrito/nuevo_item', { item: { id, cantidad } });
      const res = await apiPost<{ pedido: { id: number } }>(buyer, '/api/compra', {
        orden: [{ id, cantidad }],
        fecha: businessToday(),
      });
      pedidos.push(res.pedido.id);
    }
    world = {
      comprador,
      compradorCorreo,
      autorizador,
      autorizadorCorreo,
      autorizadorId: productos.autorizadorId,
      pedidos,
    };
    return world;
  } finally {
    await buyer.context().close();
  }
}

/** Fills the sign-in form that is on screen (after a redirect to it). */
async function signInHere(page: Page, usuario: string) {
  await page.getByLabel('Usuario').fill(usuario);
  await page.getByLabel('Contraseña', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Acceso' }).click();
}

test('el enlace «Revisar pedido» del correo abre el pedido después de iniciar sesión', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const w = await setUp(browser);
  const [primero] = w.pedidos;
  const mail = await waitForMail(
    (m) => m.to.includes(w.autorizadorCorreo) && m.subject.includes(`${numero(primero!)} por revisar`),
  );
  const link = linkOf(mail.text, /\/autorizador\/orden\/\d+$/);
  expect(link).toBe(`/autorizador/orden/${primero}`);

  // Without a session: the sign-in screen, carrying the page asked for.
  await page.goto(link);
  await expect(page).toHaveURL(new RegExp(`/login\\?volver=${encodeURIComponent(link)}$`));
  await expect(page.getByRole('heading', { name: 'Bienvenido' })).toBeVisible();
  await signInHere(page, w.autorizador);
  await expect(page).toHaveURL(new RegExp(`/autorizador/orden/${primero}$`), { timeout: 60_000 });
  await expect(page.getByRole('heading', { name: `Pedido ${numero(primero!)}` })).toBeVisible();

  // Another site, a protocol-relative address, another role's area: ignored, the role's home.
  for (const volver of ['https://example.com', '//example.com/autorizador/principal', '/usuario/carrito']) {
    await signOut(page);
    await page.goto(`/login?volver=${encodeURIComponent(volver)}`);
    await signInHere(page, w.autorizador);
    await expectHome(page, 2);
  }
});

test('j/k recorren la cola, «a» abre la confirmación y «Siguiente pendiente» sigue con el próximo', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const w = await setUp(browser);
  const [p1, p2, p3, p4] = w.pedidos as [number, number, number, number];
  await signIn(page, w.autorizador, PASSWORD);
  await expect(page).toHaveURL(/\/autorizador\/principal$/, { timeout: 60_000 });

  // The list: j moves the focus to the first order's "Ver", j again to the next, k back; Enter opens it.
  const ver = (id: number) => page.getByRole('link', { name: `Ver pedido ${numero(id)}` });
  await expect(ver(p4)).toBeVisible();
  await expect(page.getByTestId('atajos').first()).toContainText('Atajos');
  // The keys listen from the effect after the list's first paint: on a busy machine a j pressed the moment the
  // list shows can come before it. With nothing focused, j always goes to the first order, so pressing it
  // again until that link has the focus is safe.
  await expect(async () => {
    await page.keyboard.press('j');
    await expect(ver(p4)).toBeFocused({ timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  await page.keyboard.press('j');
  await expect(ver(p3)).toBeFocused();
  await page.keyboard.press('k');
  await expect(ver(p4)).toBeFocused();
  // Typing in the search box is typing, not moving.
  await page.getByLabel('Buscar pedido').press('j');
  await expect(page.getByLabel('Buscar pedido')).toHaveValue('j');
  await expect(page.getByLabel('Buscar pedido')).toBeFocused();
  await page.getByLabel('Buscar pedido').fill('');
  await page.getByLabel('Buscar pedido').blur();
  // The search reaches the address after a pause: wait until the emptied one has (the review screen keeps
  // the list's filter in its address).
  await expect(page).toHaveURL(/\/autorizador\/principal$/);
  await expect(ver(p4)).toBeVisible();
  // The order links carry the list's address: none of them still carries the search that was emptied.
  await expect(ver(p4)).toHaveAttribute('href', new RegExp(`/autorizador/orden/${p4}$`));
  await page.keyboard.press('j');
  await expect(ver(p4)).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/autorizador/orden/${p4}$`));
  await expect(page.getByRole('heading', { name: `Pedido ${numero(p4)}` })).toBeVisible();

  // The review screen: j the next (older) order, k back.
  await expect(page.getByRole('button', { name: `Pedido siguiente, ${numero(p3)}` })).toBeEnabled();
  await page.keyboard.press('j');
  await expect(page).toHaveURL(new RegExp(`/autorizador/orden/${p3}$`));
  await expect(page.getByRole('button', { name: `Pedido anterior, ${numero(p4)}` })).toBeEnabled();
  await page.keyboard.press('k');
  await expect(page).toHaveURL(new RegExp(`/autorizador/orden/${p4}$`));
  await expect(page.getByRole('heading', { name: `Pedido ${numero(p4)}` })).toBeVisible();
  await screenshot(page, 'autorizador-cola-atajos');

  // a: the confirmation, never the approval by itself; Escape leaves it pending.
  await page.keyboard.press('a');
  const dialog = page.getByRole('dialog', { name: `¿Aprobar el pedido ${numero(p4)}?` });
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('estatus-pedido')).toHaveText(/pendiente/i);
  await page.keyboard.press('a');
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Aprobar', exact: true }).click();
  await expect(page.getByTestId('estatus-pedido')).toHaveText(/aprobado/i);
  const siguiente = page
    .getByTestId('siguiente-pendiente')
    .getByRole('button', { name: 'Siguiente pendiente' });
  await expect(siguiente).toBeVisible();
  // The picture without the approval's notice (it fades out while it is read).
  await clearNotifications(page);
  await screenshot(page, 'autorizador-siguiente-pendiente');
  await siguiente.click();
  await expect(page).toHaveURL(new RegExp(`/autorizador/orden/${p3}$`));
  await expect(page.getByRole('heading', { name: `Pedido ${numero(p3)}` })).toBeVisible();

  // The list's filter travels with the order: from 'Todos', back to 'Todos'; the approved one is a row.
  await page.goto('/autorizador/principal?estatus=todos');
  await ver(p4).click();
  await expect(page).toHaveURL(new RegExp(`/autorizador/orden/${p4}\\?estatus=todos$`));
  await expect(page.getByRole('button', { name: `Pedido siguiente, ${numero(p3)}` })).toBeEnabled();
  await page.keyboard.press('j');
  await expect(page).toHaveURL(new RegExp(`/autorizador/orden/${p3}\\?estatus=todos$`));
  await page.getByRole('link', { name: 'Volver al historial de pedidos' }).click();
  await expect(page).toHaveURL(/\/autorizador\/principal\?estatus=todos$/);

  // The list's sort travels too: largest total first ($240, $135, $120 still pending), the order below p1
  // is p2, not an older one, and the next to act on follows that order.
  await page.goto('/autorizador/principal?orden=total_desc');
  await ver(p1).click();
  await expect(page).toHaveURL(new RegExp(`/autorizador/orden/${p1}\\?orden=total_desc$`));
  await expect(page.getByRole('heading', { name: `Pedido ${numero(p1)}` })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sin pedido anterior' })).toBeDisabled();
  await expect(page.getByRole('button', { name: `Pedido siguiente, ${numero(p2)}` })).toBeEnabled();
  await page.keyboard.press('j');
  await expect(page).toHaveURL(new RegExp(`/autorizador/orden/${p2}\\?orden=total_desc$`));
  await expect(page.getByRole('button', { name: `Pedido siguiente, ${numero(p3)}` })).toBeEnabled();
  // An order that needs nothing more, in a list with nothing left to act on: the page says so.
  await page.goto(`/autorizador/orden/${p4}?q=sin-coincidencias`);
  await expect(page.getByRole('heading', { name: `Pedido ${numero(p4)}` })).toBeVisible();
  await expect(page.getByTestId('siguiente-pendiente')).toContainText('No hay más pedidos por atender');
});

test('salir con cambios sin guardar pregunta antes (enlace, tecla, atrás y recarga)', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const w = await setUp(browser);
  const [, p2, p3] = w.pedidos as [number, number, number, number];
  await signIn(page, w.autorizador, PASSWORD);
  await expect(page).toHaveURL(/\/autorizador\/principal$/, { timeout: 60_000 });
  await page.getByRole('link', { name: `Ver pedido ${numero(p3)}` }).click();
  await expect(page.getByRole('heading', { name: `Pedido ${numero(p3)}` })).toBeVisible();

  // An edit: the quantity of the order's one line, 1 → 2 (keys typed in the field stay in it).
  const linea = 'Hojas blancas carta (500)';
  await page.getByRole('button', { name: `Editar cantidad de ${linea}` }).click();
  const cantidad = page.getByRole('textbox', { name: `Cantidad de ${linea}`, exact: true });
  await cantidad.fill('2');
  await cantidad.press('j');
  await expect(page).toHaveURL(new RegExp(`/autorizador/orden/${p3}$`));
  await page.getByRole('button', { name: `Aplicar cantidad de ${linea}` }).click();
  await expect(page.getByText('Cambios sin guardar.')).toBeVisible();

  // A link inside the app: asked first; "Seguir editando" keeps the edit.
  const pregunta = page.getByRole('dialog', { name: 'Cambios sin guardar' });
  await page.getByRole('link', { name: 'Volver al historial de pedidos' }).click();
  await expect(pregunta).toBeVisible();
  await screenshot(page, 'autorizador-cambios-sin-guardar');
  await pregunta.getByRole('button', { name: 'Seguir editando' }).click();
  await expect(pregunta).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/autorizador/orden/${p3}$`));
  await expect(page.getByText('Cambios sin guardar.')).toBeVisible();

  // The browser's back button: asked too, and staying keeps the edit.
  await page.goBack();
  await expect(pregunta).toBeVisible();
  await pregunta.getByRole('button', { name: 'Seguir editando' }).click();
  await expect(page).toHaveURL(new RegExp(`/autorizador/orden/${p3}$`));
  await expect(page.getByText('Cambios sin guardar.')).toBeVisible();

  // Reload: the browser's own question (beforeunload), dismissed: the page and the edit stay.
  const asked = new Promise<string>((resolve) =>
    page.once('dialog', (d) => {
      resolve(d.type());
      void d.dismiss();
    }),
  );
  void page.evaluate(() => window.location.reload()).catch(() => undefined);
  expect(await asked).toBe('beforeunload');
  await expect(page.getByText('Cambios sin guardar.')).toBeVisible();

  // j: asked; "Salir sin guardar" moves on, and the order kept its quantity.
  await expect(page.getByRole('button', { name: `Pedido siguiente, ${numero(p2)}` })).toBeEnabled();
  await page.keyboard.press('j');
  await expect(pregunta).toBeVisible();
  await pregunta.getByRole('button', { name: 'Salir sin guardar' }).click();
  await expect(page).toHaveURL(new RegExp(`/autorizador/orden/${p2}$`));
  await expect(page.getByRole('heading', { name: `Pedido ${numero(p2)}` })).toBeVisible();
  // The edit's extra history entry went with it: back is the order before, unedited.
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`/autorizador/orden/${p3}$`));
  await expect(page.getByText('Cambios sin guardar.')).toHaveCount(0);
});

test('el enlace «Ver pedido» del correo del comprador abre su pedido después de iniciar sesión', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const w = await setUp(browser);
  const p4 = w.pedidos[3]!;
  const mail = await waitForMail(
    (m) => m.to.includes(w.compradorCorreo) && m.subject.includes(`${numero(p4)} aprobado`),
  );
  const link = linkOf(mail.text, /\/usuario\/historial\/\d+/);
  expect(link).toBe(`/usuario/historial/${p4}`);
  await page.goto(link);
  await expect(page).toHaveURL(/\/login\?volver=%2Fusuario%2Fhistorial%2F\d+$/);
  await signInHere(page, w.comprador);
  await expect(page).toHaveURL(new RegExp(`/usuario/historial/${p4}$`), { timeout: 60_000 });
  await expect(page.getByText(numero(p4)).first()).toBeVisible();
  await screenshot(page, 'usuario-enlace-pedido');
});

test('después de un cambio de contraseña obligatorio, el enlace abre el pedido', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const w = await setUp(browser);
  const p1 = w.pedidos[0]!;
  // The administrator resets the authorizer's password: a temporary one, to change at the next sign-in.
  const temporal = (m: { to: string; subject: string }) =>
    m.to.includes(w.autorizadorCorreo) && m.subject.includes('contraseña temporal');
  const before = readMailbox().filter(temporal).length;
  await asAdmin(browser, (admin) => apiPost(admin, `/api/recuperar/password/${w.autorizadorId}`, {}));
  await expect.poll(() => readMailbox().filter(temporal).length, { timeout: 20_000 }).toBeGreaterThan(before);
  const temporary = readMailbox()
    .filter(temporal)
    .at(-1)
    ?.text.match(/Contraseña temporal: (\S+)/)?.[1];
  if (!temporary) throw new Error('Sin contraseña temporal');

  const link = `/autorizador/orden/${p1}`;
  await page.goto(link);
  await expect(page).toHaveURL(new RegExp(`/login\\?volver=${encodeURIComponent(link)}$`));
  await page.getByLabel('Usuario').fill(w.autorizador);
  await page.getByLabel('Contraseña', { exact: true }).fill(temporary);
  await page.getByRole('button', { name: 'Acceso' }).click();
  // The forced change comes first and carries the page on.
  await expect(page).toHaveURL(new RegExp(`/cambiar-password\\?volver=${encodeURIComponent(link)}$`), {
    timeout: 60_000,
  });
  await page.getByLabel('Contraseña actual').fill(temporary);
  await page.getByLabel('Nueva contraseña', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirmar nueva contraseña').fill(PASSWORD);
  await page.getByRole('button', { name: 'Guardar y continuar' }).click();
  await expect(page).toHaveURL(new RegExp(`${link}$`), { timeout: 60_000 });
  await expect(page.getByRole('heading', { name: `Pedido ${numero(p1)}` })).toBeVisible();
});
