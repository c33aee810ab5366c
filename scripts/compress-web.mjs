#!/usr/bin/env node
/**
 * Compresses the built web app once, at build time: a `.br` (brotli, quality 11) and a `.gz` (gzip, level 9)
 * beside every text file of apps/web/dist (index.html too: at build time the
 * work costs nothing at any size), which the server sends as they are to a browser that
 * accepts them (@fastify/static `preCompressed`; decision 0095). A sibling is written only when it is smaller
 * than the file. Run by the web app's `npm run build` after `vite build`.
 *
 * Usage: node scripts/compress-web.mjs [dir]   (default apps/web/dist)
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const DIST = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '../apps/web/dist'));
const COMPRESSIBLE = /\.(html|js|mjs|css|svg|json|txt|webmanifest|xml|ico)$/;

const br = promisify(brotliCompress);
const gz = promisify(gzip);

async function* files(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    // .vite holds the build manifest, which is never served.
    if (entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (COMPRESSIBLE.test(entry.name)) yield full;
  }
}

const started = Date.now();
const jobs = [];
for await (const file of files(DIST)) {
  jobs.push(
    (async () => {
      const source = await readFile(file);
      const [brotli, gzipped] = await Promise.all([
        br(source, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_SIZE_HINT]: source.length,
          },
        }),
        gz(source, { level: 9 }),
      ]);
      if (brotli.length < source.length) await writeFile(`${file}.br`, brotli);
      if (gzipped.length < source.length) await writeFile(`${file}.gz`, gzipped);
      return [source.length, brotli.length, gzipped.length];
    })(),
  );
}
const sizes = await Promise.all(jobs);
const sum = (i) => sizes.reduce((total, s) => total + s[i], 0);
const kb = (bytes) => `${(bytes / 1000).toFixed(0)} kB`;
console.log(
  `web comprimida en ${Date.now() - started} ms: ${sizes.length} archivos, ` +
    `${kb(sum(0))} → brotli ${kb(sum(1))}, gzip ${kb(sum(2))}`,
);
