import { availableParallelism } from 'node:os';
import { defineConfig, type PlaywrightTestConfig } from '@playwright/test';
import { CHROMIUM } from './apps/web/e2e/chromium';
import {
  E2E_EMBEDDED_PORT,
  E2E_EMBEDDED_PROJECT,
  E2E_SMTP_PORT,
  e2eUrl,
  E2E_PORT as PORT,
} from './apps/web/e2e/ports';

/**
 * Browser tests against the real server (fresh database with the demo data) serving the built web app
 * (`npm run test:e2e` builds it first). Debian's Chromium (apps/web/e2e/chromium.ts), never a downloaded
 * browser.
 * The server runs on a fresh embedded database. With E2E_DATABASE_URL (a PostgreSQL database the suite may
 * drop and create again; CI sets it) every spec runs on a server on that database instead (project
 * `postgresql`), and one full buyer test also on a second server on the embedded database (project
 * `embebida`, the next port), so a real browser still goes through what a laptop runs (decision 0052).
 * Spec files run side by side, one worker a core and one more (E2E_WORKERS=n overrides): each spec creates
 * the data it changes under names of its own attempt, so files never meet each other's data and a retry
 * never meets its own first attempt. The tests inside a file run in order.
 */
// With the headless shell a worker leaves its core idle part of the time (timers, the server's answers):
// one worker more than the cores keeps them busy (decision 0052).
const WORKERS = Number(process.env.E2E_WORKERS) || availableParallelism() + 1;

const DATABASE_URL = process.env.E2E_DATABASE_URL;
/** The main server's project: 'postgresql' with E2E_DATABASE_URL; unnamed on the embedded database alone. */
const MAIN_PROJECT = DATABASE_URL ? 'postgresql' : '';
/**
 * The spec files that take longest (45 s or more of one worker in a CI run), started before the others.
 * Only the order depends on this list: a spec missing from it still runs, in the second tier.
 */
const LONGEST_SPECS = [
  'buyer.spec.ts',
  'auth.spec.ts',
  'two-factor.spec.ts',
  'authorizer.spec.ts',
  'dashboard.spec.ts',
  'delegation.spec.ts',
  'admin-users.spec.ts',
  'catalogue-restock.spec.ts',
  'admin-inventory.spec.ts',
  'authorizer-queue.spec.ts',
];
const BASE_URL = e2eUrl(PORT);
const EMBEDDED_URL = e2eUrl(E2E_EMBEDDED_PORT);
/** The embedded database's browser test: a buyer's whole purchase, from the catalogue to the history. */
const EMBEDDED_TEST = 'el comprador busca, arma su carrito, compra y encuentra su pedido en el historial';

type WebServer = NonNullable<Exclude<PlaywrightTestConfig['webServer'], unknown[]>>;

/** The built server on `port`, on a fresh embedded database or, with `databaseUrl`, a fresh PostgreSQL one. */
function server(port: number, databaseUrl?: string): WebServer {
  const url = e2eUrl(port);
  return {
    command: databaseUrl
      ? 'node apps/web/e2e/fresh-database.mjs && node apps/server/dist/server.js'
      : `rm -rf .tmp/e2e-data-${port} && node apps/server/dist/server.js`,
    url: `${url}/healthz`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      // An empty DATABASE_URL counts as unset: a variable of the shell never moves the embedded server.
      ...(databaseUrl
        ? { DATABASE_URL: databaseUrl, SEED_DEMO: '1' }
        : { DATABASE_URL: '', DATA_DIR: `.tmp/e2e-data-${port}` }),
      SMTP_URL: `smtp://127.0.0.1:${E2E_SMTP_PORT}`,
      MAIL_POLL_MS: '200',
      PUBLIC_URL: url,
      LOG_LEVEL: 'warn',
      // The suites' hashing cost (never in production): hundreds of sign-ins and password changes.
      TEST_PASSWORD_HASHING: '1',
      // The integration spec's webhook receiver listens on this machine, and its retries are quick.
      WEBHOOK_ALLOW_PRIVATE: '1',
      WEBHOOK_RETRY_BASE_SECONDS: '1',
      // The notifications spec waits for a daily digest: the digest job looks for due ones every minute.
      NOTIFICATION_DIGEST_CRON: '* * * * *',
      // The service-worker spec's test push service listens on this machine (decision 0117); the push sender
      // looks once a second (each look is a query: at 200 ms the idle servers cost a fifth of a core).
      PUSH_ALLOW_PRIVATE: '1',
      PUSH_POLL_MS: '1000',
      // The single sign-on spec's test identity provider listens on this machine, over http (decision 0120).
      SSO_ALLOW_PRIVATE: '1',
    },
  };
}

export default defineConfig({
  testDir: 'apps/web/e2e',
  // One folder a port: two suites side by side (E2E_PORT) never clear each other's traces.
  outputDir: `test-results/e2e-${PORT}`,
  globalSetup: './apps/web/e2e/global-setup.ts',
  workers: WORKERS,
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  // On CI one retry absorbs a rare timing hiccup of the shared machine; a test that needs it is reported as flaky.
  retries: process.env.CI ? 1 : 0,
  // Workers share the cores: a test may take twice as long as it would alone.
  timeout: 90_000,
  expect: { timeout: 10_000 },
  // The list as it runs and the closing line; a failure's trace and screenshot are in test-results.
  reporter: [['list'], ['./apps/web/e2e/retry-reporter.ts']],
  use: {
    baseURL: BASE_URL,
    browserName: 'chromium',
    locale: 'es-MX',
    timezoneId: 'America/Mexico_City',
    // As a user who asks the system for less motion: the portal then opens dialogs and notices at once.
    reducedMotion: 'reduce',
    // The service worker answers navigations, the build's files and the catalogue (decision 0118); requests
    // it answers are out of reach of a spec's page.route. Its own spec (service-worker.spec.ts) allows it;
    // every other spec sees the network as a browser without it would.
    serviceWorkers: 'block',
    viewport: { width: 1366, height: 860 },
    // A click or a fill that waits longer than this waits on something that will not come (an option of a
    // dropdown that closed): it fails then, and the CI retry starts sooner, instead of at the test's timeout.
    actionTimeout: 30_000,
    // Recording a trace costs about a quarter of the browser's work: on CI only the retry of a failed test
    // records one (it is what a failure is read from); locally every failure keeps its trace.
    trace: process.env.CI ? 'on-first-retry' : 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      // Undefined when none is installed: the global setup then fails with the install command.
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  // Both servers e-mail the one SMTP catcher of the global setup; each mail's links carry its server's address.
  webServer: DATABASE_URL ? [server(PORT, DATABASE_URL), server(E2E_EMBEDDED_PORT)] : server(PORT),
  // Projects start in the order they are listed, and the files of a project in alphabetical order: the
  // embedded database's one test and then the longest specs go first, so the run does not end with one
  // worker on a long file while the others idle (decision 0052). Both tiers are one project to the reports.
  projects: [
    ...(DATABASE_URL
      ? [
          {
            name: E2E_EMBEDDED_PROJECT,
            use: { baseURL: EMBEDDED_URL },
            testMatch: 'buyer.spec.ts',
            grep: new RegExp(EMBEDDED_TEST),
          },
        ]
      : []),
    { name: MAIN_PROJECT, testMatch: LONGEST_SPECS },
    { name: MAIN_PROJECT, testIgnore: LONGEST_SPECS },
  ],
});
