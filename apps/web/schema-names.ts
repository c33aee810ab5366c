/**
 * The shared schemas' names, for the bundler to treat building a schema as free of side effects (decision
 * 0144).
 *
 * A module of packages/shared/src/schemas declares a request's or an answer's schemas together, and the
 * screens import one or two of them (a list's query, a form's body). The bundler keeps a top-level
 * `const X = z.object({...})` it cannot prove free of side effects, so every schema of every module a screen
 * touched was built as the page loaded: answers' schemas the web never parses (`OrderDetailDto`), bodies of
 * other roles' routes, on every signed-in page of a phone. Named here as pure, a call rooted at `z` or at a
 * schema (`OrderStatus.nullable()`, `ListView.extend({...})`) is dropped when its value is unused, and kept
 * as written when it is used.
 *
 * Every `const` at the top of a schema module is a schema, a constant or a function returning a schema; a
 * name the web's own code also declares is left out, so no call of the web's is ever taken for a schema's.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseAst } from 'vite';
import { type Node, SCHEMAS, topLevelConsts } from './lazy-schemas';

const WEB = path.join(import.meta.dirname, 'src');

/** The top-level `const` names of the modules of `dir` (tests aside), read as lazy-schemas.ts reads them. */
function topLevelConstNames(dir: string): Set<string> {
  const names = new Set<string>();
  for (const file of readdirSync(dir)) {
    if (!file.endsWith('.ts') || file.endsWith('.test.ts')) continue;
    const body = parseAst(readFileSync(path.join(dir, file), 'utf8'), { lang: 'ts' })
      .body as unknown as Node[];
    for (const d of topLevelConsts(body)) if (d.id.type === 'Identifier') names.add(d.id.name as string);
  }
  return names;
}

/** Every name the web's sources declare (functions, classes, variables, at any depth). */
function webNames(): Set<string> {
  const names = new Set<string>();
  for (const entry of readdirSync(WEB, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.tsx?$/.test(entry.name)) continue;
    const text = readFileSync(path.join(entry.parentPath, entry.name), 'utf8');
    for (const m of text.matchAll(/\b(?:function|class|const|let|var) ([A-Za-z_$][\w$]*)/g)) names.add(m[1]!);
  }
  return names;
}

/** `z` and the shared schemas' names, for `treeshake.manualPureFunctions`. */
export function schemaNames(): string[] {
  const web = webNames();
  return ['z', ...[...topLevelConstNames(SCHEMAS)].filter((name) => !web.has(name))];
}
