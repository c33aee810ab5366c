/**
 * The shared schemas built when first used, in the web app only (decision 0152).
 *
 * A module of packages/shared/src/schemas builds its schemas as it loads (`export const X = z.object(...)`).
 * The bundler already leaves out the schemas no screen uses (schema-names.ts), but the ones a screen's forms
 * and dialogs use were all built while the role area's modules loaded: 19–43 ms of a page's start on this
 * machine's CPU, four times that on the simulated phone, before its first screen could render. Here every
 * top-level `const` of those modules whose value is a call rooted at `z`, at another schema of the module or
 * at a name imported from a sibling schema module (`listSort(...)`, `ClaimDto.extend(...)`), or an object
 * literal holding such calls (a table of fields), becomes `lazyValue(() => <the value>)` (src/lib/lazy-value.ts),
 * marked pure so an unused one is still left out. The server and the tests import the modules as written;
 * the web's own modules defer what they derive from a schema with the same helper.
 */
import path from 'node:path';
import { type Plugin, parseAst } from 'vite';

/** The shared schema modules' folder. */
export const SCHEMAS = path.join(import.meta.dirname, '../../packages/shared/src/schemas');
const HELPER = path.join(import.meta.dirname, 'src/lib/lazy-value.ts');
const LAZY = '__lazyValue';

// The parts of the ESTree the transform reads (vite's parseAst answers ESTree with UTF-16 offsets).
export interface Node {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}

// Wrappers of an expression that TypeScript source has and the transform's input no longer has.
const WRAPPERS = new Set([
  'ParenthesizedExpression',
  'TSAsExpression',
  'TSSatisfiesExpression',
  'TSNonNullExpression',
]);

/** The identifier an expression's chain of calls and properties starts at (`z` in `z.string().min(1)`), if any. */
export function rootName(node: Node): string | null {
  let at: Node = node;
  for (;;) {
    if (at.type === 'Identifier') return at.name as string;
    if (at.type === 'CallExpression') at = at.callee as Node;
    else if (at.type === 'MemberExpression') at = at.object as Node;
    else if (WRAPPERS.has(at.type)) at = at.expression as Node;
    else return null;
  }
}

/**
 * Whether `init` builds a schema as the module loads: a call rooted at one of `roots`, or an object literal
 * (a table of fields, `FISCAL_FIELDS`) with such a call among its values.
 */
function buildsSchema(init: Node, roots: Set<string>): boolean {
  if (init.type === 'CallExpression') {
    const root = rootName(init);
    return root !== null && roots.has(root);
  }
  if (init.type !== 'ObjectExpression') return false;
  return (init.properties as Node[]).some(
    (p) => p.type === 'Property' && buildsSchema(p.value as Node, roots),
  );
}

/** A module's top-level declarations, exported or not. */
function topLevel(body: Node[]): Node[] {
  return body.flatMap((statement) => {
    const declaration = statement.type === 'ExportNamedDeclaration' ? statement.declaration : statement;
    return declaration ? [declaration as Node] : [];
  });
}

/** The `const` declarators at a module's top level: each name with its value. */
export function topLevelConsts(body: Node[]): { id: Node; init: Node | null }[] {
  return topLevel(body).flatMap((d) =>
    d.type === 'VariableDeclaration' && d.kind === 'const'
      ? (d.declarations as { id: Node; init: Node | null }[])
      : [],
  );
}

/** The names a call may start at to build a schema: `z`, the module's own declarations, a sibling's imports. */
function schemaRoots(body: Node[]): Set<string> {
  const names = new Set(['z']);
  for (const statement of body) {
    if (statement.type !== 'ImportDeclaration') continue;
    const source = (statement.source as { value: string }).value;
    if (!source.startsWith('./')) continue;
    for (const spec of statement.specifiers as { local: { name: string } }[]) names.add(spec.local.name);
  }
  for (const d of topLevel(body)) {
    if (d.type === 'FunctionDeclaration') names.add((d.id as { name: string }).name);
  }
  for (const d of topLevelConsts(body)) if (d.id.type === 'Identifier') names.add(d.id.name as string);
  return names;
}

/**
 * `code` (a schema module, TypeScript already removed) with every top-level `const` that builds a schema
 * wrapped in `lazyValue`; `code` itself when there is none.
 */
export function wrapSchemas(code: string, helper = HELPER): string {
  const body = parseAst(code).body as unknown as Node[];
  const roots = schemaRoots(body);
  const values = topLevelConsts(body).flatMap((d) => (d.init && buildsSchema(d.init, roots) ? [d.init] : []));
  if (values.length === 0) return code;
  let out = code;
  for (const value of values.sort((a, b) => b.start - a.start)) {
    out = `${out.slice(0, value.start)}/* @__PURE__ */ ${LAZY}(() => (${out.slice(value.start, value.end)}))${out.slice(value.end)}`;
  }
  return `import { lazyValue as ${LAZY} } from ${JSON.stringify(helper)};\n${out}`;
}

/** The plugin: the shared schema modules, after their TypeScript is removed. */
export function lazySchemas(): Plugin {
  return {
    name: 'portal:lazy-schemas',
    enforce: 'post',
    transform(code, id) {
      if (!id.startsWith(SCHEMAS + path.sep) || !id.endsWith('.ts')) return null;
      const out = wrapSchemas(code);
      return out === code ? null : { code: out, map: null };
    },
  };
}
