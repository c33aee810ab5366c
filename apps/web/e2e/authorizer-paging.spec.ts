import { expect, expectHome, screenshot, signIn, test } from './fixtures';
import { placeOrder, reviewWorld, runSuffix } from './helpers';

/**
 * The authorizer pages through a long list (decision 0076): 55 pending orders of this attempt's own client,
 * 50 on page 1; the pager's «Página siguiente» asks the server for the page after the last order on screen
 * (`despues`), «Página anterior» for the page before the first one (`antes`), and the rows are the same as
 * the pages by number. The page by its number alone (a reload) sends no key.
 */
const PASSWORD = 'Paginas#2026';
const ORDERS = 55;

test('el autorizador recorre las páginas de su lista: la siguiente y la anterior desde los pedidos en pantalla', async ({
  browser,
  page,
}) => {
  test.setTimeout(180_000);
  const suffix = runSuffix();
  const comprador = `rocio.vela.${suffix}`;
  const autorizador = `ernesto.pina.${suffix}`;
  const { producto } = await reviewWorld(browser, {
    cliente: `Ferretera Vela ${suffix}`,
    niveles: 1,
    presupuesto: 500000,
    categoria: { nombre: 'Ferretería', icono: 'IconTool' },
    producto: { clave_interna: 'FER-01', nombre: 'Cinta métrica 5 m', precio: 85 },
    comprador: { usuario: comprador, correo: `${comprador}@ferreteravela.mx`, nombre: 'Rocío Vela Ortiz' },
    autorizador: {
      usuario: autorizador,
      correo: `${autorizador}@ferreteravela.mx`,
      nombre: 'Ernesto Piña Lara',
    },
    password: PASSWORD,
    cantidadLimite: 10,
  });

  // The buyer's 55 orders through its API, oldest first.
  const buyerContext = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  const buyer = await buyerContext.newPage();
  await signIn(buyer, comprador, PASSWORD);
  await expectHome(buyer, 1);
  const placed: number[] = [];
  for (let i = 0; i < ORDERS; i++) placed.push((await placeOrder(buyer, producto, 1 + (i % 3))).id);
  await buyerContext.close();
  const newestFirst = [...placed].reverse();

  await signIn(page, autorizador, PASSWORD);
  await expectHome(page, 2);
  const rows = page.getByRole('table').getByRole('row').filter({ hasText: '#' });
  const numbers = async () =>
    (await rows.allInnerTexts()).map((text) => Number(/#(\d+)/.exec(text)?.[1])).filter(Boolean);
  await expect(rows).toHaveCount(50);
  expect(await numbers()).toEqual(newestFirst.slice(0, 50));

  const pager = page.getByRole('navigation', { name: 'Páginas de pedidos' });
  const listRequest = (check: (url: URL) => boolean) =>
    page.waitForRequest((r) => {
      const url = new URL(r.url());
      return url.pathname === '/api/pedidos' && check(url);
    });

  // Next: the page after the last order on screen.
  const next = listRequest((url) => url.searchParams.get('page') === '2');
  await pager.getByRole('button', { name: 'Página siguiente' }).click();
  expect(new URL((await next).url()).searchParams.get('despues')).toBe(String(newestFirst[49]));
  await expect(page).toHaveURL(/pagina=2/);
  await expect(rows).toHaveCount(5);
  expect(await numbers()).toEqual(newestFirst.slice(50));
  await screenshot(page, 'autorizador-pedidos-pagina-2');

  // Previous: the page before the first order on screen.
  const previous = listRequest(
    (url) => url.searchParams.get('page') === '1' || !url.searchParams.has('page'),
  );
  await pager.getByRole('button', { name: 'Página anterior' }).click();
  await previous;
  await expect(rows).toHaveCount(50);
  expect(await numbers()).toEqual(newestFirst.slice(0, 50));

  // The page by its number (a reload, a shared link, the browser's back) sends no key.
  await pager.getByRole('button', { name: 'Página 2' }).click();
  await expect(rows).toHaveCount(5);
  const reload = listRequest((url) => url.searchParams.get('page') === '2');
  await page.reload();
  const reloaded = new URL((await reload).url()).searchParams;
  expect([reloaded.get('despues'), reloaded.get('antes')]).toEqual([null, null]);
  await expect(rows).toHaveCount(5);
  expect(await numbers()).toEqual(newestFirst.slice(50));
});
