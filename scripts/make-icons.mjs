/**
 * Draws the web app's PNG icons (the manifest's and the home screen's) from apps/web/public/favicon.svg with
 * Debian's Chromium, into apps/web/public/: 192 and 512 px as the favicon is, a maskable 512 px (the mark
 * inside the middle 80 %, the gradient to the edges, so a launcher's circle or squircle never cuts it) and
 * Apple's 180 px (the same opaque square). Run again only when the favicon changes; the PNGs are committed.
 *
 * Usage: node scripts/make-icons.mjs
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PUBLIC = path.join(ROOT, 'apps/web/public');
const EXECUTABLE = ['/usr/lib/chromium/chromium-headless-shell', '/usr/bin/chromium'];

const svg = await readFile(path.join(PUBLIC, 'favicon.svg'), 'utf8');
/** The maskable variant: a full square of the gradient, the mark scaled to 80 % about the centre. */
const maskable = svg
  .replace(
    '<rect width="64" height="64" rx="14" fill="url(#g)"/>',
    '<rect width="64" height="64" fill="url(#g)"/><g transform="translate(6.4 6.4) scale(0.8)">',
  )
  .replace('</svg>', '</g></svg>');
if (maskable === svg) throw new Error('favicon.svg changed: update the maskable variant');

const browser = await chromium.launch({ executablePath: EXECUTABLE.find((p) => existsSync(p)) });
const page = await browser.newPage();
const draw = async (source, size, file) => {
  await page.setViewportSize({ width: size, height: size });
  await page.setContent(
    `<html><body style="margin:0;background:transparent"><img src="data:image/svg+xml;base64,${Buffer.from(source).toString('base64')}" width="${size}" height="${size}" style="display:block"></body></html>`,
  );
  await page.locator('img').evaluate((img) => img.decode());
  await page.screenshot({ path: path.join(PUBLIC, file), omitBackground: true });
  process.stdout.write(`${file}\n`);
};
await draw(svg, 192, 'icon-192.png');
await draw(svg, 512, 'icon-512.png');
// iOS rounds the home-screen icon itself and shows transparent corners black: the opaque square.
await draw(maskable, 180, 'apple-touch-icon.png');
await draw(maskable, 512, 'icon-maskable-512.png');
await browser.close();
