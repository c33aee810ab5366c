import type { Browser, Page } from '@playwright/test';
import { onBehalfSentence } from '@portal/shared/domain/delegation';
import { MSG } from '../../server/src/messages';
import { expect, expectHome, screenshot, signIn, test } from './fixtures';
import {
  apiPost,
  asAdmin,
  assignAll,
  businessDayFromToday,
  businessToday,
  checkPhone,
  clearNotifications,
  clickDay,
  createAccount,
  createCategory,
  createClient,
  createProduct,
  dmy,
  expectNotice,
  openAccessWeek,
  runSuffix,
  scrollDialogTop,
  signInAdminApi,
} from './helpers';
import { e2eBaseUrl } from './ports';

/**
 * Out-of-office delegation (decision 0053) in a client with two levels: the Super Autorizador names an
 * Autorizador as delegate for today and the next three days ("Fuera de oficina" in the profile menu); the
 * delegate reads the banner on the order list, may not give both approvals of an order they approved at
 * level 1, gives the final approval of another one — the history reads "… en nombre de …" — and the
 * administrator sees the delegation in the user's drawer. The client, buyer, approvers and orders are this
 * attempt's own.
 */
test.describe.configure({ mode: 'serial' });

const PASSWORD = 'Delega#2026';
const SUPER = 'Ana Ruiz Téllez';
const DELEGADO = 'Bruno Pérez Lara';
const OTRA = 'Carla Núñez Soto';

interface Data {
  idCliente: number;
  superAutorizador: string;
  idSuper: number;
  delegado: string;
  /** Approved at level 1 by the delegate himself; approved at level 1 by the other Autorizador. */
  pedidos: { propio: number; ajeno: number };
  /**
   * The delegation's first and last business dates, read once with the data: a run that crosses midnight in
   * the business time zone still expects the dates it saved.
   */
  hoy: string;
  hasta: string;
}

const data = new Map<string, Data>();

/** Runs `work` signed in as `usuario` in a browser context of its own. */
async function as<T>(browser: Browser, usuario: string, home: RegExp, work: (page: Page) => Promise<T>) {
  const context = await browser.newContext({
    baseURL: e2eBaseUrl(),
    locale: 'es-MX',
    timezoneId: 'America/Mexico_City',
  });
  try {
    const page = await context.newPage();
    await signIn(page, usuario, PASSWORD);
    // Signing in hashes a password: on a busy machine it takes its time.
    await expect(page).toHaveURL(home, { timeout: 60_000 });
    return await work(page);
  } finally {
    await context.close();
  }
}

async function ensureData(browser: Browser): Promise<Data> {
  const suffix = runSuffix();
  const known = data.get(suffix);
  if (known) return known;
  const comprador = `diego.mora.${suffix}`;
  const superAutorizador = `ana.ruiz.${suffix}`;
  const delegado = `bruno.perez.${suffix}`;
  const otra = `carla.nunez.${suffix}`;
  const made = await asAdmin(browser, async (admin) => {
    const idCliente = await createClient(admin, {
      nombre: `Distribuidora Ruiz ${suffix}`,
      presupuesto_default: 20000,
      limite_de_compras: -1,
      cantidad_autorizadores: 2,
    });
    await openAccessWeek(admin, idCliente);
    const almacen = await createCategory(admin, idCliente, 'Almacén', 'IconBox');
    const producto = await createProduct(admin, {
      id_cliente: idCliente,
      id_categoria: almacen,
      clave_interna: 'ALM-07',
      nombre: 'Tarima de madera',
      precio: 350,
      unidad_de_medida: 'Pieza',
    });
    const person = (usuario: string, nombre: string, rol: 1 | 2 | 3) => ({
      id_cliente: idCliente,
      usuario,
      correo: `${usuario}@ruiz.mx`,
      nombre,
      rol,
    });
    const idComprador = await createAccount(
      admin,
      { ...person(comprador, 'Diego Mora Cantú', 1), presupuesto_default: 20000, limite_de_compras: -1 },
      PASSWORD,
    );
    await assignAll(admin, idComprador, 20);
    const idSuper = await createAccount(admin, person(superAutorizador, SUPER, 3), PASSWORD);
    await createAccount(admin, person(delegado, DELEGADO, 2), PASSWORD);
    await createAccount(admin, person(otra, OTRA, 2), PASSWORD);
    return { idCliente, idSuper, producto };
  });

  const [propio, ajeno] = await as(browser, comprador, /\/usuario\/principal$/, async (page) => {
    const ids: number[] = [];
    for (const cantidad of [1, 2]) {
      await apiPost(page, '/api/carrito/nuevo_item', { item: { id: made.producto, cantidad } });
      const compra = await apiPost<{ pedido: { id: number } }>(page, '/api/compra', {
        orden: [{ id: made.producto, cantidad }],
        fecha: businessToday(),
      });
      ids.push(compra.pedido.id);
    }
    return ids;
  });
  // The level-1 approvals: one by the future delegate, one by the other Autorizador.
  const approve = (usuario: string, id: number) =>
    as(browser, usuario, /\/autorizador\/principal$/, (page) =>
      apiPost(page, '/api/pedidos/aprobar-lote', { ids: [id] }),
    );
  await approve(delegado, propio!);
  await approve(otra, ajeno!);

  const entry: Data = {
    idCliente: made.idCliente,
    superAutorizador,
    idSuper: made.idSuper,
    delegado,
    pedidos: { propio: propio!, ajeno: ajeno! },
    hoy: businessToday(),
    hasta: businessDayFromToday(3),
  };
  data.set(suffix, entry);
  return entry;
}

const sentence = (d: Data) => `Delegas en ${DELEGADO} del ${dmy(d.hoy)} al ${dmy(d.hasta)}`;

test('el Super Autorizador delega en un Autorizador desde «Fuera de oficina»', async ({ page, browser }) => {
  const d = await ensureData(browser);
  await signIn(page, d.superAutorizador, PASSWORD);
  await expectHome(page, 3);

  await page.getByTestId('profile-menu').click();
  await page.getByRole('menuitem', { name: 'Fuera de oficina' }).click();
  const dialog = page.getByRole('dialog', { name: 'Fuera de oficina' });
  await expect(dialog.getByTestId('delegacion-actual')).toContainText('Sin delegación');

  // Nothing chosen: the form says what is missing, on its fields.
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(dialog.getByText(MSG.delegadoRequerido)).toBeVisible();
  await expect(dialog.getByText(MSG.fechasRequeridas)).toBeVisible();

  // The candidates are the client's other authorizers, with their role.
  await dialog.getByRole('combobox', { name: 'Delegar en' }).click();
  await expect(page.getByRole('option', { name: `${OTRA} · Autorizador` })).toBeVisible();
  await page.getByRole('option', { name: `${DELEGADO} · Autorizador` }).click();
  await dialog.getByRole('button', { name: 'Fechas fuera de oficina' }).click();
  await clickDay(page, d.hoy);
  await clickDay(page, d.hasta);
  await expect(dialog.getByRole('button', { name: 'Fechas fuera de oficina' })).toHaveText(
    `${dmy(d.hoy)} – ${dmy(d.hasta)}`,
  );
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expectNotice(page, MSG.delegacionGuardada);
  await expect(dialog).toBeHidden();

  // Opened again, it says what is saved, and that it holds today.
  await page.getByTestId('profile-menu').click();
  await page.getByRole('menuitem', { name: 'Fuera de oficina' }).click();
  const actual = dialog.getByTestId('delegacion-actual');
  await expect(actual).toContainText(sentence(d));
  await expect(actual).toContainText('Activa');
  await expect(dialog.getByRole('button', { name: 'Terminar delegación' })).toBeVisible();
  await scrollDialogTop(page);
  await screenshot(page, 'autorizador-fuera-de-oficina');
  await checkPhone(page, 'fuera-de-oficina');
});

test('el delegado ve el aviso; no da las dos aprobaciones de un pedido y da la final de otro en nombre del Super Autorizador', async ({
  page,
  browser,
}) => {
  const d = await ensureData(browser);
  await signIn(page, d.delegado, PASSWORD);
  await expectHome(page, 2);

  const banner = page.getByTestId('en-nombre-de');
  await expect(banner).toHaveText(onBehalfSentence(SUPER, d.hasta));
  // "Por atender" holds the espera orders of the Super Autorizador's level too.
  const numero = (id: number) => `#${String(id).padStart(5, '0')}`;
  await expect(page.getByText(numero(d.pedidos.ajeno), { exact: true }).first()).toBeVisible();
  await screenshot(page, 'autorizador-en-nombre-de');

  // The order he approved at level 1: he may not give the second approval as well.
  await page.goto(`/autorizador/orden/${d.pedidos.propio}`);
  await expect(page.getByRole('heading', { name: new RegExp(numero(d.pedidos.propio)) })).toBeVisible();
  await expect(page.getByText(MSG.segundaAutorizacionOtraPersona)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Aprobar pedido' })).toHaveCount(0);

  // The order another Autorizador approved: his is the final approval, for the Super Autorizador.
  await page.goto(`/autorizador/orden/${d.pedidos.ajeno}`);
  await page.getByRole('button', { name: 'Aprobar pedido' }).click();
  const confirm = page.getByRole('dialog', { name: /¿Aprobar el pedido/ });
  await expect(confirm).toContainText('Aprobado');
  await confirm.getByRole('button', { name: 'Aprobar', exact: true }).click();
  await expectNotice(page, MSG.pedidoAprobado);
  const line = page.getByText(`${DELEGADO} en nombre de ${SUPER}`);
  await expect(line).toBeVisible();
  await clearNotifications(page);
  await screenshot(page, 'autorizador-historial-en-nombre-de');
});

test('el administrador ve la delegación en el cajón del usuario y la termina', async ({ page, browser }) => {
  const d = await ensureData(browser);
  await signInAdminApi(page);
  await page.goto(`/administrador/usuarios?cliente=${d.idCliente}&editar=${d.idSuper}`);
  const drawer = page.getByRole('dialog', { name: /Editar usuario/ });
  const actual = drawer.getByTestId('delegacion-actual');
  await expect(actual).toContainText(`Delega en ${DELEGADO} del ${dmy(d.hoy)} al ${dmy(d.hasta)}`);
  await expect(actual).toContainText('Activa');
  await actual.scrollIntoViewIfNeeded();
  await screenshot(page, 'admin-usuario-fuera-de-oficina');

  // The administrator ends it (after a confirmation): the drawer says so at once.
  await drawer.getByRole('button', { name: 'Terminar delegación' }).click();
  const ask = page.getByRole('dialog', { name: 'Terminar delegación' });
  await expect(ask).toContainText(`${DELEGADO} dejará de aprobar en su nombre desde ahora.`);
  await ask.getByRole('button', { name: 'Terminar delegación' }).click();
  await expectNotice(page, MSG.delegacionTerminadaOk);
  await expect(actual).toContainText('Sin delegación');
  await expect(drawer.getByRole('button', { name: 'Terminar delegación' })).toHaveCount(0);
});
