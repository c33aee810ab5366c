import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseAst } from 'vite';
import { describe, expect, it } from 'vitest';
import { type Node, rootName, topLevelConsts } from '../../lazy-schemas';

// The web's sources (tests and the service worker's own build aside).
const SRC = path.resolve(import.meta.dirname, '..');

/**
 * The top-level `const`s of `file` that read or build a schema as the module loads: a value rooted at `z` or
 * at a value imported from a shared schema module, other than through `lazyValue`.
 */
function schemasAtLoad(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const body = parseAst(text, { lang: file.endsWith('.tsx') ? 'tsx' : 'ts' }).body as unknown as Node[];
  const schemaNames = new Set<string>();
  for (const statement of body) {
    if (statement.type !== 'ImportDeclaration' || statement.importKind === 'type') continue;
    const source = (statement.source as { value: string }).value;
    if (source !== 'zod' && !source.startsWith('@portal/shared/schemas/')) continue;
    for (const spec of statement.specifiers as { importKind?: string; local: { name: string } }[]) {
      if (spec.importKind !== 'type') schemaNames.add(spec.local.name);
    }
  }
  return topLevelConsts(body).flatMap((d) => {
    const root = d.init ? rootName(d.init) : null;
    return root !== null && schemaNames.has(root) ? [`${path.relative(SRC, file)}: ${d.id.name}`] : [];
  });
}

describe('the web builds no schema while its modules load (decision 0152)', () => {
  it('no module of the web reads or builds a schema at its top level but through lazyValue', () => {
    const files = readdirSync(SRC, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name))
      .map((e) => path.join(e.parentPath, e.name))
      .filter((f) => !f.includes(`${path.sep}service-worker${path.sep}`));
    expect(files.length).toBeGreaterThan(200);
    expect(files.flatMap(schemasAtLoad)).toEqual([]);
  });
});
