import type { TestProject } from 'vitest/node';
import { createTemplateDatabases } from './template-databases.ts';

/**
 * Once per run of the API suites: migrate a database of each kind, which every test file then copies
 * (harness.ts, freshDatabase) instead of creating and migrating its own.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const templates = await createTemplateDatabases(process.env.TEST_DATABASE_URL);
  project.provide('pgliteTemplate', templates.pglite);
  project.provide('postgresTemplate', templates.postgres);
  return () => templates.remove();
}
