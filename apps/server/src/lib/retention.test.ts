import { readFileSync } from 'node:fs';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import * as schema from '../db/schema/index.ts';
import { TABLE_RETENTION } from './retention.ts';

/**
 * "Every new table says how long its rows live": each table of db/schema is in the retention policy
 * (lib/retention.ts), purged by the retention job or kept with its reason, and in the rule book's list
 * (docs/domain.md "Retention"). A table added without either fails here.
 */
const tables = (Object.values(schema) as unknown[])
  .filter((value): value is PgTable => value instanceof PgTable)
  .map((table) => getTableConfig(table).name)
  .sort();

const domain = readFileSync(new URL('../../../../docs/domain.md', import.meta.url), 'utf8');
const section = domain.slice(
  domain.indexOf('\n## Retention\n'),
  domain.indexOf('\n## ', domain.indexOf('\n## Retention\n') + 5),
);

/** The tables the rule book's section lists: the first code span of each row of its table. */
const listed = [...section.matchAll(/^\| `([a-z_0-9]+)` \|/gm)].map((m) => m[1]!).sort();

describe('retention policy', () => {
  it('reads the schema', () => {
    expect(tables.length).toBeGreaterThan(30);
    expect(tables).toContain('system_logs');
  });

  it('names every table of the schema, and no other', () => {
    expect(Object.keys(TABLE_RETENTION).sort()).toEqual(tables);
  });

  it('says for each table why it is kept or when it is purged', () => {
    for (const [table, rule] of Object.entries(TABLE_RETENTION)) {
      const text = 'kept' in rule ? rule.kept : rule.purged;
      expect(text.length, table).toBeGreaterThan(5);
    }
  });

  it('is listed in docs/domain.md "Retention", table by table', () => {
    expect(section.length).toBeGreaterThan(100);
    expect(listed).toEqual(tables);
  });
});
