import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Each API file gets its own database (a copy of a migrated one); PGlite is CPU-bound, so not too many at once.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'shared',
          include: ['packages/shared/src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'server',
          include: ['apps/server/src/**/*.test.ts'],
          setupFiles: ['apps/server/src/test/setup.ts'],
          // One migrated database of each kind per run, copied by every file (docs/decisions/0052).
          globalSetup: ['apps/server/src/test/global-setup.ts'],
          // The files of a worker share its modules instead of importing the app again each (docs/decisions/0052):
          // every file still builds its own app on its own database.
          isolate: false,
          // The security suite is its own project (npm run test:security).
          exclude: ['apps/server/src/security/**'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'security',
          include: ['apps/server/src/security/*.test.ts'],
          setupFiles: ['apps/server/src/test/setup.ts'],
          // One migrated database of each kind per run, copied by every file (docs/decisions/0052).
          globalSetup: ['apps/server/src/test/global-setup.ts'],
          // The files of a worker share its modules instead of importing the app again each (docs/decisions/0052):
          // every file still builds its own app on its own database.
          isolate: false,
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
      {
        // The web app's own logic (money, budgets, order edits, the HTTP client). Most of it is plain functions
        // and runs in Node; a file that needs the browser's document (cookies, links, downloads) says so with
        // `// @vitest-environment jsdom` on its first line (setting up jsdom costs about a second a file).
        test: {
          name: 'web',
          include: ['apps/web/src/**/*.test.ts', 'apps/web/src/**/*.test.tsx'],
          environment: 'node',
        },
      },
      {
        // Real processes (PostgreSQL, two servers, nginx): `npm run test:reliability`, not part of test:unit.
        test: {
          name: 'reliability',
          include: ['apps/server/reliability/**/*.test.ts'],
          environment: 'node',
          fileParallelism: false,
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
