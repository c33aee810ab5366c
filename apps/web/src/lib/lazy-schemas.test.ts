import { readdirSync } from 'node:fs';
import path from 'node:path';
import { types } from 'node:util';
import { createServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lazySchemas, SCHEMAS, wrapSchemas } from '../../lazy-schemas';

// The shared schema modules, loaded as the web build sees them (through the plugin) and as written.
const DIR = SCHEMAS;
const MODULES = readdirSync(DIR).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
// Inputs every schema answers something for: a value, a refusal, or a thrown error.
const SAMPLES: unknown[] = [undefined, null, {}, '', 'x', '1', 0, 1, -1, 2.5, true, [], [1], [{}], { id: 1 }];

interface Schema {
  safeParse: (v: unknown) => { success: boolean; data?: unknown; error?: { issues: unknown[] } };
}
const isSchema = (v: unknown): v is Schema =>
  typeof v === 'object' && v !== null && typeof (v as Partial<Schema>).safeParse === 'function';

/** What a schema answers to `sample`, comparable across two copies of zod. */
function outcome(schema: Schema, sample: unknown): unknown {
  try {
    const r = schema.safeParse(sample);
    if (r.success) return { data: r.data };
    return (r.error?.issues as { code: string; path: unknown[]; message: string }[]).map((i) => ({
      code: i.code,
      path: i.path,
      message: i.message,
    }));
  } catch (e) {
    return { thrown: (e as Error).message };
  }
}

describe('the shared schemas in the web build (decision 0152)', () => {
  let server: ViteDevServer;
  beforeAll(async () => {
    server = await createServer({
      configFile: false,
      root: DIR,
      plugins: [lazySchemas()],
      logLevel: 'silent',
      appType: 'custom',
      server: { middlewareMode: true, hmr: false, ws: false },
      optimizeDeps: { noDiscovery: true, include: [] },
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('every schema of every module is built at its first use, and answers as the module as written', async () => {
    let lazy = 0;
    let compared = 0;
    for (const file of MODULES) {
      const wrapped = (await server.ssrLoadModule(path.join(DIR, file))) as Record<string, unknown>;
      const own = (await import(/* @vite-ignore */ path.join(DIR, file))) as Record<string, unknown>;
      expect(Object.keys(wrapped).sort(), file).toEqual(Object.keys(own).sort());
      for (const [name, value] of Object.entries(own)) {
        const other = wrapped[name];
        if (types.isProxy(other)) lazy++;
        // A list's sort (listSort) holds its schema beside its values.
        const pairs: [unknown, unknown][] = [[value, other]];
        if (typeof value === 'object' && value !== null && !isSchema(value)) {
          expect(Object.keys(other as object), `${file} ${name}`).toEqual(Object.keys(value));
          for (const key of Object.keys(value)) {
            pairs.push([(value as Record<string, unknown>)[key], (other as Record<string, unknown>)[key]]);
          }
        }
        for (const [a, b] of pairs) {
          if (!isSchema(a)) continue;
          expect(isSchema(b), `${file} ${name}`).toBe(true);
          for (const sample of SAMPLES) {
            expect(outcome(b as Schema, sample), `${file} ${name} ${JSON.stringify(sample)}`).toEqual(
              outcome(a, sample),
            );
          }
          compared++;
        }
      }
    }
    // Nearly every export is a schema built by a call: they are all deferred.
    expect(lazy).toBeGreaterThan(300);
    expect(compared).toBeGreaterThan(300);
  }, 60_000);

  it('wraps calls rooted at zod, at the module’s names and at sibling imports; and at tables of them; leaves the rest', () => {
    const code = [
      "import { z } from 'zod';",
      "import { MSG } from '../messages.ts';",
      "import { listSort, PageQuery } from './form-fields.ts';",
      'const MAX = 20;',
      "const PATTERN = new RegExp('^a');",
      'const TEXTO = MSG.texto(3);',
      'const LIMITE = Math.max(1, 2);',
      'const emptyIsNone = (v) => v;',
      "export const Nombre = z.string().min(1, 'Escribe un nombre');",
      'export const Body = PageQuery.extend({ nombre: Nombre });',
      "export const Sort = listSort(['fecha'], 'fecha_desc');",
      'export const Options = Nombre.options;',
      'export const CAMPOS = { nombre: z.string(), largo: 3 };',
      "export const TEXTOS = { nombre: 'Nombre' };",
    ].join('\n');
    const out = wrapSchemas(code, '/helper.ts');
    expect(out.split('\n')[0]).toBe('import { lazyValue as __lazyValue } from "/helper.ts";');
    for (const kept of [
      'const MAX = 20;',
      "const PATTERN = new RegExp('^a');",
      'const TEXTO = MSG.texto(3);',
      'const LIMITE = Math.max(1, 2);',
      'const emptyIsNone = (v) => v;',
      'export const Options = Nombre.options;',
      "export const TEXTOS = { nombre: 'Nombre' };",
    ]) {
      expect(out).toContain(kept);
    }
    expect(out).toContain(
      "export const Nombre = /* @__PURE__ */ __lazyValue(() => (z.string().min(1, 'Escribe un nombre')));",
    );
    expect(out).toContain(
      'export const Body = /* @__PURE__ */ __lazyValue(() => (PageQuery.extend({ nombre: Nombre })));',
    );
    expect(out).toContain(
      "export const Sort = /* @__PURE__ */ __lazyValue(() => (listSort(['fecha'], 'fecha_desc')));",
    );
    expect(out).toContain(
      'export const CAMPOS = /* @__PURE__ */ __lazyValue(() => ({ nombre: z.string(), largo: 3 }));',
    );
    // A module with nothing to defer is returned as it is.
    expect(wrapSchemas('export const MAX = 20;\n')).toBe('export const MAX = 20;\n');
  });
});
