import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, screenshot, test } from './fixtures';
import { signInAdmin, signInAdminApi } from './helpers';

/**
 * The administrator's overview. Other specs add clients, users and orders meanwhile, so the figures are
 * checked for their form and a floor the demo data guarantees, never for an exact total.
 */

test('principal: el resumen muestra clientes, usuarios, pedidos del mes e importaciones', async ({
  page,
}) => {
  await signInAdmin(page);
  const clientes = page.getByTestId('resumen-Clientes activos');
  await expect(clientes).toHaveText(/^\d[\d,]*$/);
  expect(Number((await clientes.textContent())!.replace(/,/g, ''))).toBeGreaterThanOrEqual(2);
  const usuarios = page.getByTestId('resumen-Usuarios activos');
  expect(Number((await usuarios.textContent())!.replace(/,/g, ''))).toBeGreaterThanOrEqual(4);
  await expect(page.getByRole('heading', { name: /^Pedidos de / })).toBeVisible();
  for (const status of ['Pendiente', 'Espera', 'Aprobado', 'Cancelado']) {
    await expect(page.getByText(status, { exact: true })).toBeVisible();
  }
  await expect(page.getByRole('heading', { name: 'Importaciones' })).toBeVisible();
  await expect(page.getByTestId('importaciones-en-proceso')).toHaveText(/^\d+$/);
  const accesos = page.getByRole('region', { name: 'Accesos rápidos' });
  for (const name of ['Clientes', 'Semanas de acceso', 'Inventario', 'Usuarios', 'Registros del sistema']) {
    await expect(accesos.getByRole('link', { name: new RegExp(`^${name}`) })).toBeVisible();
  }
  await screenshot(page, 'admin-principal');
  await screenshot(page, 'administrador-principal');
});

/**
 * A page opened by its address asks for its area's chunks beside the session check, not after its answer
 * (decision 0108): with the session's answer held back, the administrator's area chunk is still requested.
 */
test('una página abierta por su dirección pide su código sin esperar a la sesión', async ({ page }) => {
  await signInAdminApi(page);
  const manifest = JSON.parse(
    readFileSync(path.resolve(import.meta.dirname, '../dist/.vite/manifest.json'), 'utf8'),
  ) as Record<string, { file: string }>;
  const areaChunk = manifest['src/app/routes/administrador/pages.tsx']!.file;
  const chunkRequested = page.waitForRequest((request) => request.url().endsWith(`/${areaChunk}`));
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/api/sesion', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/administrador/usuarios');
  await chunkRequested;
  release();
  await expect(page.getByRole('heading', { name: 'Usuarios', level: 1 })).toBeVisible();
});
