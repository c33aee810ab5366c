import type { Page } from '@playwright/test';
import { NOTIFICATION_KIND_LABELS } from '@portal/shared/domain/notifications';
import { expect, PHONE_WIDTH, screenshot, test } from './fixtures';
import {
  apiSignIn,
  asUser,
  choose,
  expectNotice,
  placeOrder,
  type ReviewWorldSpec,
  reviewWorld,
  runSuffix,
} from './helpers';
import { readMailbox, waitForMail } from './mailbox';

/**
 * The notification centre (issue 43 item 1, decision 0114): the header's bell counts the unread items and
 * lists them, each a link that marks it read; "Notificaciones" in the profile menu chooses per kind how a
 * notice arrives — at once by e-mail, in an hourly or daily digest, or only in the bell. The e2e server looks
 * for due digests every minute (NOTIFICATION_DIGEST_CRON in playwright.config.ts). Each test's client, people
 * and orders are this attempt's own.
 */
const PASSWORD = 'Avisos#2026';
const DESKTOP = { width: 1366, height: 860 };

/** A client with one approval level, a buyer and an approver, under names of this test's own. */
function world(prefix: string, suffix: string) {
  const comprador = `${prefix}.compra.${suffix}`;
  const autorizador = `${prefix}.revisa.${suffix}`;
  return {
    cliente: `Avisos ${prefix} ${suffix}`,
    niveles: 1,
    presupuesto: 20000,
    categoria: { nombre: 'Papelería', icono: 'IconPencil' },
    producto: { clave_interna: 'PAP-01', nombre: 'Cuaderno profesional', precio: 45 },
    comprador: { usuario: comprador, correo: `${comprador}@avisos.mx`, nombre: 'Olga Ríos Paredes' },
    autorizador: { usuario: autorizador, correo: `${autorizador}@avisos.mx`, nombre: 'Tomás Vega Luna' },
    password: PASSWORD,
    cantidadLimite: 10,
  } satisfies ReviewWorldSpec;
}

const bell = (page: Page) => page.getByRole('button', { name: /^Avisos/ });
const popover = (page: Page) => page.getByRole('dialog', { name: 'Avisos', exact: true });
/** The red count over the bell (absent at 0). */
const badge = (page: Page) => page.getByTestId('campana').locator('.mantine-Indicator-indicator');

test('el autorizador recibe los pedidos por revisar en su resumen diario: la campana los cuenta y el correo llega en el resumen', async ({
  page,
  browser,
}) => {
  // Up to two minutes for the digest job, after the world's own setup.
  test.setTimeout(300_000);
  const w = world('diario', runSuffix());
  const { producto } = await reviewWorld(browser, w);
  await apiSignIn(page.request, w.autorizador.usuario, PASSWORD);
  await page.goto('/autorizador/principal');
  await expect(bell(page)).toHaveAccessibleName('Avisos');

  // "Notificaciones" in the profile menu: the kinds an approver receives, each at once by default.
  await page.getByTestId('profile-menu').click();
  await page.getByRole('menuitem', { name: 'Notificaciones' }).click();
  const dialog = page.getByRole('dialog', { name: 'Notificaciones' });
  await expect(dialog).toContainText('Todos los avisos aparecen también en la campana del portal.');
  const kind = dialog.getByRole('combobox', { name: NOTIFICATION_KIND_LABELS.por_revisar, exact: true });
  await expect(kind).toHaveValue('Correo al momento');
  await expect(dialog.getByRole('combobox', { name: NOTIFICATION_KIND_LABELS.pedido })).toHaveCount(0);
  const hourField = dialog.getByRole('combobox', { name: 'Hora del resumen diario', exact: true });
  await expect(hourField).toBeDisabled();

  // The reviews go in the daily digest at 00:00: whatever the time of day (and across midnight), today's
  // has not gone yet, so the job sends it within the next minute.
  await choose(page, NOTIFICATION_KIND_LABELS.por_revisar, 'Resumen diario');
  await expect(hourField).toBeEnabled();
  const hour = '00:00';
  await choose(page, 'Hora del resumen diario', hour);
  await expect(hourField).toHaveValue(hour);
  await screenshot(page, 'notificaciones-preferencias');
  await page.setViewportSize({ width: PHONE_WIDTH, height: 844 });
  await screenshot(page, 'notificaciones-preferencias-390');
  await page.setViewportSize(DESKTOP);
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expectNotice(page, 'Notificaciones guardadas');
  await expect(dialog).toBeHidden();

  // The buyer orders; the approver's bell counts it (at its next refresh, or at once on a reload).
  const pedido = await asUser(browser, w.comprador.usuario, PASSWORD, (buyer) =>
    placeOrder(buyer, producto, 2),
  );
  const titulo = `Pedido #${String(pedido.id).padStart(5, '0')} por revisar`;
  await page.reload();
  await expect(bell(page)).toHaveAccessibleName('Avisos, 1 sin leer');
  await expect(badge(page)).toHaveText('1');
  await bell(page).click();
  const item = popover(page).getByRole('link', { name: titulo });
  await expect(item).toBeVisible();
  await expect(popover(page).getByRole('button', { name: 'Marcar todo como leído' })).toBeEnabled();
  await screenshot(page, 'notificaciones-campana');
  await page.keyboard.press('Escape');
  await expect(popover(page)).toBeHidden();

  // The digest brings the order; no e-mail of its own went out.
  const digest = await waitForMail(
    (m) => m.to.includes(w.autorizador.correo) && m.subject.startsWith('Tu resumen del Portal de Compras'),
    150_000,
  );
  expect(digest.text).toContain(titulo);
  expect(readMailbox().filter((m) => m.to.includes(w.autorizador.correo) && m.subject === titulo)).toEqual(
    [],
  );

  // The digest leaves the item unread in the bell; opening it goes to the order and marks it read.
  await bell(page).click();
  await popover(page).getByRole('link', { name: titulo }).click();
  await expect(page).toHaveURL(new RegExp(`/autorizador/orden/${pedido.id}$`));
  await expect(popover(page)).toBeHidden();
  await expect(bell(page)).toHaveAccessibleName('Avisos');
  await expect(badge(page)).toHaveCount(0);
  await page.reload();
  await expect(bell(page)).toHaveAccessibleName('Avisos');
});

test('«Marcar todo como leído» en un teléfono: el aviso cabe en la pantalla y la campana deja de contar', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const w = world('telefono', runSuffix());
  const { producto } = await reviewWorld(browser, w);
  const pedidos = await asUser(browser, w.comprador.usuario, PASSWORD, async (buyer) => [
    await placeOrder(buyer, producto, 1),
    await placeOrder(buyer, producto, 3),
  ]);

  await page.setViewportSize({ width: PHONE_WIDTH, height: 844 });
  await apiSignIn(page.request, w.autorizador.usuario, PASSWORD);
  await page.goto('/autorizador/principal');
  await expect(bell(page)).toHaveAccessibleName('Avisos, 2 sin leer');
  await expect(badge(page)).toHaveText('2');
  await bell(page).click();
  const list = popover(page);
  // Newest first.
  await expect(list.getByRole('link')).toHaveCount(2);
  await expect(list.getByRole('link').first()).toContainText(
    `Pedido #${String(pedidos[1]!.id).padStart(5, '0')} por revisar`,
  );
  const box = await list.boundingBox();
  expect(box, 'el aviso está abierto').not.toBeNull();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE_WIDTH);
  await screenshot(page, 'notificaciones-campana-390');

  await list.getByRole('button', { name: 'Marcar todo como leído' }).click();
  await expect(bell(page)).toHaveAccessibleName('Avisos');
  await expect(badge(page)).toHaveCount(0);
  await expect(list.getByRole('button', { name: 'Marcar todo como leído' })).toBeDisabled();
  // The items stay, read.
  await expect(list.getByRole('link')).toHaveCount(2);
  await page.reload();
  await expect(bell(page)).toHaveAccessibleName('Avisos');
  await expect(badge(page)).toHaveCount(0);
});
