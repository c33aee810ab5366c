import { createRequire } from 'node:module';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type UserConfig } from 'vite';
import { chunkGroups } from './chunk-groups';
import { lazySchemas } from './lazy-schemas';
import { schemaNames } from './schema-names';
import { serviceWorker } from './service-worker-plugin';

const backend = process.env.API_URL ?? 'http://localhost:3000';

// react-router's package exports only name its development build (dev warnings and checks); the production
// build next to it is the same API without them, and smaller.
const reactRouterProduction = path.join(
  path.dirname(createRequire(import.meta.url).resolve('react-router/package.json')),
  'dist/production/index.mjs',
);

export default defineConfig(async ({ command }) => {
  const config = {
    root: import.meta.dirname,
    // The shared schemas are built when first used (lazy-schemas.ts, decision 0152).
    plugins: [react(), lazySchemas()],
    resolve: {
      alias: command === 'build' ? [{ find: /^react-router$/, replacement: reactRouterProduction }] : [],
    },
    server: {
      port: 5173,
      proxy: {
        '/api': { target: backend, changeOrigin: false },
        '/sanctum': { target: backend, changeOrigin: false },
        '/healthz': { target: backend, changeOrigin: false },
      },
    },
    preview: { port: 4173 },
    build: {
      outDir: 'dist',
      emptyOutDir: true,
      sourcemap: false,
      // Read by scripts/check-bundle.mjs (the JS budget of each route).
      manifest: true,
      // Every role area, the app shell and the auth screens are lazy routes (src/app/router.tsx), so each
      // becomes its own chunk; the sign-in screen only pulls what it needs.
      chunkSizeWarningLimit: 600,
      // Every browser the portal serves preloads modules itself (Chrome 66, Firefox 115, Safari 17): the
      // polyfill for older ones (about 0.35 kB gzip in the entry) only made their preloads early, never
      // changed what loads (docs/decisions/0029-front-end-budget.md, amendment of 2026-12-03).
      modulePreload: { polyfill: false },
      // Building a shared schema has no side effect: one the screens never use is left out (schema-names.ts).
      rollupOptions: { treeshake: { manualPureFunctions: schemaNames() } },
    },
  } satisfies UserConfig;
  // Every chunk but the entry named by its hash alone: the entry lists every chunk's file for the preloads
  // of the lazy routes, and with 160 chunks their names ("IconBuildingWarehouse-…") were 1.4 kB gzip of the
  // sign-in page's JavaScript (decision 0029, amendment of 2026-12-04). The manifest maps every source to
  // its file, for scripts/check-bundle.mjs.
  const output = { chunkFileNames: 'assets/[hash].js' };
  if (command !== 'build') return { ...config, plugins: [...config.plugins, serviceWorker()] };
  // The signed-in screens' code grouped by the role areas that need it, from a first build split by the
  // bundler alone (chunk-groups.ts, decision 0135).
  const groups = await chunkGroups({
    ...config,
    build: { ...config.build, rollupOptions: { ...config.build.rollupOptions, output } },
  });
  return {
    ...config,
    plugins: [...config.plugins, serviceWorker()],
    build: {
      ...config.build,
      rollupOptions: {
        ...config.build.rollupOptions,
        output: {
          ...output,
          codeSplitting: {
            groups: [{ name: (id: string) => groups.get(id) ?? null, includeDependenciesRecursively: false }],
          },
        },
      },
    },
  };
});
