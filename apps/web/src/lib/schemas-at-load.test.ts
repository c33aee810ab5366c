import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseAst } from 'vite';
import { describe, expect, it } from 'vitest';

// The web's sources (tests and the service worker's own build aside).
const SRC = path.resolve(import.meta.dirname, '..');

interface Node {
  type: string;
  [key: string]: unknown;
}

/** The identifier a value's expression starts at (`UserBody` in `UserBody.shape.x.refine(...)`). */
function rootName(node: Node): string | null {
  let at: Node = node;
  for (;;) {
    if (at.type === 'Identifier') return at.name as string;
    if (at.type === 'CallExpression') at = at.callee as Node;
    else if (at.type === 'MemberExpression' || at.type === 'TSNonNullExpression') {
      at = (at.object ?? at.expression) as Node;
    } else if (['TSAsExpression', 'TSSatisfiesExpression', 'ParenthesizedExpression'].includes(at.type)) {
      at = at.expression as Node;
    } else return null;
  }
}

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
  const found: string[] = [];
  for (const statement of body) {
    const declaration = (statement.type === 'ExportNamedDeclaration' ? statement.declaration : statement) as
      | Node
      | null
      | undefined;
    if (declaration?.type !== 'VariableDeclaration') continue;
    for (const d of declaration.declarations as { id: { name?: string }; init: Node | null }[]) {
      const root = d.init ? rootName(d.init) : null;
      if (root !== null && schemaNames.has(root)) found.push(`${path.relative(SRC, file)}: ${d.id.name}`);
    }
  }
  return found;
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
