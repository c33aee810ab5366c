import path from 'node:path';
import { test } from '@playwright/test';

/** Ports of the browser-test server and its SMTP catcher; override to run two suites side by side. */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3100);
export const E2E_SMTP_PORT = Number(process.env.E2E_SMTP_PORT ?? 2526);
/** With E2E_DATABASE_URL the main server runs on PostgreSQL and a second one, on the embedded database, here. */
export const E2E_EMBEDDED_PORT = E2E_PORT + 1;

/**
 * Where a run's workers claim the suffixes of their data (helpers.ts `runSuffix`): one empty file per
 * suffix; emptied by the global setup.
 */
export const SUFFIX_CLAIMS = path.resolve(import.meta.dirname, `../../../.tmp/e2e-suffixes-${E2E_PORT}`);

/** The project of that second server (it runs one buyer test; playwright.config.ts). */
export const E2E_EMBEDDED_PROJECT = 'embebida';

export function e2eUrl(port: number): string {
  return `http://localhost:${port}`;
}

/**
 * The address of the server the running test's project uses (its `baseURL`): for a browser context of the
 * test's own, a request outside the page, or a link read from an e-mail. Only inside a test or a hook.
 */
export function e2eBaseUrl(): string {
  const url = test.info().project.use.baseURL;
  if (!url) throw new Error('El proyecto de Playwright no tiene baseURL');
  return url;
}
