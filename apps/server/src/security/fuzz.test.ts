import { API_SCOPES } from '@portal/shared/domain/integration';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { apiTokens } from '../db/schema/index.ts';
import { hashToken, newToken } from '../lib/tokens.ts';
import { multipart } from '../test/admin-fixtures.ts';
import { DB_KINDS } from '../test/harness.ts';
import { generator } from '../test/random.ts';
import { REQUESTS, type Req } from './route-table.ts';
import { describeRefusal, type RouteKey, useWorld } from './world.ts';

/**
 * Bad input never makes a 500: every route that takes a body gets bodies of the wrong shape (wrong types,
 * missing and extra fields, huge strings and numbers, negative and fractional quantities, unicode and
 * emoji, null bytes, lone surrogates, null, arrays instead of objects, broken JSON and multipart) and must
 * answer a 4xx with a Spanish message, or accept what really is valid. The route's own zod schema is the
 * oracle: a body it rejects must be refused with a 400. Cases are drawn with a fixed seed and a fixed
 * budget per route, so every run sends the same requests.
 */

const SEED = 20261122;
const FIELD_CASES_PER_ROUTE = 24;

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

function pick<T>(items: readonly T[], count: number, random: () => number): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy.slice(0, count);
}

/** JSON text that JSON.stringify cannot write (a number beyond float range, a lone surrogate). */
class Raw {
  constructor(readonly text: string) {}
}
const MISSING = Symbol('missing');
type Value = unknown;

const HUGE_STRING = 'x'.repeat(200_000);
const FIELD_VALUES: [string, Value][] = [
  ['texto', 'texto'],
  ['booleano', true],
  ['objeto', { a: 1 }],
  ['arreglo', [1, 2]],
  ['null', null],
  ['ausente', MISSING],
  ['cadena enorme', HUGE_STRING],
  ['número enorme', 1e308],
  ['número enorme negativo', -1e308],
  ['entero inseguro', new Raw('9007199254740993')],
  ['fuera de rango flotante', new Raw('1e400')],
  ['int32 + 1', 2147483648],
  ['negativo', -1],
  ['negativo fraccionario', -0.5],
  ['fraccionario', 1.5],
  ['fracción pequeña', 0.001],
  ['cero', 0],
  ['emoji y unicode', '🙂💥 ñandú 漢字 \u202eabc'],
  ['byte nulo', 'a\u0000b'],
  ['surrogate suelto', new Raw('"\\ud800x"')],
  ['espacios', '   '],
  ['texto numérico', '12'],
  ['NaN en texto', 'NaN'],
  ['hexadecimal en texto', '0x10'],
];

/** Whole bodies that are not the expected object at all: always a 4xx. */
const BODY_CASES: [string, string, string?][] = [
  ['null', 'null'],
  ['arreglo vacío', '[]'],
  ['cadena', '"cadena"'],
  ['número', '123'],
  ['booleano', 'true'],
  ['JSON roto', '{"a": '],
  ['cuerpo vacío', ''],
  ['__proto__', '{"__proto__": {"rol": 4}}'],
  ['constructor.prototype', '{"constructor": {"prototype": {"rol": 4}}}'],
  ['anidado profundo', `${'['.repeat(5000)}${']'.repeat(5000)}`],
  ['más de 1 MB', JSON.stringify({ x: 'y'.repeat(1_100_000) })],
  ['texto plano', 'hola', 'text/plain'],
  ['formulario urlencoded', 'a=1&b=2', 'application/x-www-form-urlencoded'],
];

type Path = (string | number)[];

function leafPaths(value: unknown, prefix: Path = []): Path[] {
  if (Array.isArray(value)) {
    return value.length ? [prefix, ...leafPaths(value[0], [...prefix, 0])] : [prefix];
  }
  if (value && typeof value === 'object') {
    const out: Path[] = prefix.length ? [prefix] : [];
    for (const [k, v] of Object.entries(value)) out.push(...leafPaths(v, [...prefix, k]));
    return out;
  }
  return [prefix];
}

function withValue(base: unknown, path: Path, value: Value): unknown {
  const copy = structuredClone(base) as Record<string | number, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (value === MISSING) {
    if (Array.isArray(node)) node.splice(Number(last), 1);
    else delete node[last];
  } else node[last] = value;
  return copy;
}

function toJson(body: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(body, (_k, v) => {
    if (v instanceof Raw) {
      raws.push(v.text);
      return `__RAW_${raws.length - 1}__`;
    }
    return v;
  });
  return text.replace(/"__RAW_(\d+)__"/g, (_m, i) => raws[Number(i)]!);
}

/** What the route's schema makes of a body sent as this JSON text. */
function schemaAccepts(schema: z.ZodType | undefined, text: string): boolean | null {
  if (!schema) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return false;
  }
  return schema.safeParse(parsed).success;
}

const BAD_PARAMS = ['-1', '0', '1.5', '99999999999', 'abc', '%00', '1e3', '%F0%9F%99%82', '..%2F..%2Fetc'];

describe.each(DB_KINDS)('fuzzing every body and path parameter (%s)', (kind) => {
  const w = useWorld(kind);

  const failures: string[] = [];
  function judge(label: string, res: LightMyRequestResponse, mustRefuse: boolean) {
    if (res.statusCode >= 500) {
      failures.push(`${label}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      return;
    }
    if (res.statusCode >= 400) {
      const problem = describeRefusal(res);
      if (problem) failures.push(`${label}: ${problem}`);
    } else if (mustRefuse) {
      failures.push(`${label}: aceptado (${res.statusCode}) aunque el esquema lo rechaza`);
    }
  }

  const bodyRoutes = () =>
    w.routes.routes
      .filter((r) => r.schema?.body || r.schema?.consumes)
      .map((r) => ({
        key: `${[r.method].flat()[0]} ${r.url}` as RouteKey,
        schema: r.schema?.body as z.ZodType | undefined,
      }));

  it('finds the routes with a body from their schemas', () => {
    const keys = bodyRoutes().map((r) => r.key);
    expect(keys.length).toBeGreaterThan(25);
    expect(keys).toEqual(
      expect.arrayContaining(['POST /api/compra', 'PUT /api/usuarios/:id', 'POST /api/clientes']),
    );
    for (const key of keys) expect(REQUESTS[key], key).toBeDefined();
  });

  it('JSON bodies: never a 500; what the schema rejects is a Spanish 400', async () => {
    failures.length = 0;
    let sent = 0;
    // The integration API (/api/v1) checks its bearer token before the body: its bodies go with one, a
    // token per route, so that one route's cases never meet the rate limit another's left behind.
    const bearerFor = async () => {
      const bearer = newToken();
      await w.db.insert(apiTokens).values({
        nombre: 'Fuzz',
        prefijo: bearer.slice(0, 12),
        tokenHash: hashToken(bearer),
        idCliente: null,
        permisos: [...API_SCOPES],
        expiraEn: new Date(Date.now() + 86_400_000),
      });
      return bearer;
    };
    for (const { key, schema } of bodyRoutes()) {
      const recipe = REQUESTS[key]!;
      const base = await recipe.req(w, recipe.caller);
      if (base.form) continue;
      const api = w.api[recipe.caller];
      const random = generator(SEED ^ hash(key)).next;
      const auth: Record<string, string> = key.includes(' /api/v1/')
        ? { authorization: `Bearer ${await bearerFor()}` }
        : {};
      const post = (text: string, contentType = 'application/json') =>
        api.request(base.method, base.url, text, { headers: { 'content-type': contentType, ...auth } });

      for (const [name, text, contentType] of BODY_CASES) {
        const res = await post(text, contentType);
        sent++;
        judge(`${key} [${name}]`, res, true);
      }

      const paths = leafPaths(base.body);
      if (schema instanceof z.ZodObject) {
        for (const field of Object.keys(schema.shape))
          if (!paths.some((p) => p[0] === field)) paths.push([field]);
      }
      paths.push(['campo_extra_desconocido']);
      const cases = paths.flatMap((path) => FIELD_VALUES.map(([name, value]) => ({ path, name, value })));
      for (const { path, name, value } of pick(cases, FIELD_CASES_PER_ROUTE, random)) {
        const text = toJson(withValue(base.body, path, value));
        const accepted = schemaAccepts(schema, text);
        const res = await post(text);
        sent++;
        judge(`${key} [${path.join('.') || 'cuerpo'} = ${name}]`, res, accepted === false);
        if (accepted === false && res.statusCode !== 400 && res.statusCode < 500)
          failures.push(`${key} [${path.join('.')} = ${name}]: ${res.statusCode} en vez de 400`);
      }
    }
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThan(500);
  });

  it('multipart bodies: never a 500; broken forms and bad values are Spanish 4xx', async () => {
    failures.length = 0;
    let sent = 0;
    for (const { key } of bodyRoutes()) {
      const recipe = REQUESTS[key]!;
      const base = await recipe.req(w, recipe.caller);
      if (!base.form) continue;
      const api = w.api[recipe.caller];
      const random = generator(SEED ^ hash(key)).next;
      const send = (fields: Record<string, string | number>, files = base.form!.files ?? {}) => {
        const { body, headers } = multipart(fields, files);
        return api.request(base.method, base.url, body, { headers });
      };
      const values: [string, string | typeof MISSING][] = FIELD_VALUES.filter(
        ([, v]) => typeof v === 'string' || typeof v === 'number' || v === MISSING,
      ).map(([n, v]) => [n, v === MISSING ? MISSING : String(v)]);
      const fields = Object.keys(base.form.fields);
      const cases = [...fields, 'campo_extra'].flatMap((field) =>
        values.map(([name, value]) => ({ field, name, value })),
      );
      for (const { field, name, value } of pick(cases, FIELD_CASES_PER_ROUTE, random)) {
        const mutated: Record<string, string | number> = { ...base.form.fields };
        if (value === MISSING) delete mutated[field];
        else mutated[field] = value as string;
        judge(`${key} [${field} = ${name}]`, await send(mutated), false);
        sent++;
      }
      const refusals: [string, () => Promise<LightMyRequestResponse>][] = [
        ['sin archivo ni campos', () => send({}, {})],
        [
          'JSON en vez de formulario',
          () =>
            api.request(base.method, base.url, JSON.stringify(base.form!.fields), {
              headers: { 'content-type': 'application/json' },
            }),
        ],
        [
          'límite del multipart roto',
          () =>
            api.request(
              base.method,
              base.url,
              '--otro\r\nContent-Disposition: form-data; name="x"\r\n\r\n1\r\n',
              {
                headers: { 'content-type': 'multipart/form-data; boundary=distinto' },
              },
            ),
        ],
        [
          'multipart sin boundary',
          () =>
            api.request(base.method, base.url, 'x', { headers: { 'content-type': 'multipart/form-data' } }),
        ],
      ];
      for (const [name, call] of refusals) {
        const res = await call();
        sent++;
        // A JSON body is a valid way to call the product routes that also take JSON.
        const jsonAllowed = name === 'JSON en vez de formulario' && key.startsWith('POST /api/productos');
        judge(
          `${key} [${name}]`,
          res,
          !jsonAllowed && !(name === 'sin archivo ni campos' && key.includes('update')),
        );
      }
    }
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThan(50);
  });

  it('path parameters: malformed, out of range, encoded and unicode ids are a Spanish 4xx', async () => {
    failures.length = 0;
    let sent = 0;
    for (const [key, recipe] of Object.entries(REQUESTS) as [RouteKey, (typeof REQUESTS)[RouteKey]][]) {
      if (!key.includes('/:') || recipe.last) continue;
      const base: Req = await recipe.req(w, recipe.caller);
      const pattern = key.slice(key.indexOf(' ') + 1);
      for (const bad of BAD_PARAMS) {
        const url = pattern.replace(/:[^/]+/g, bad);
        const res = await w.api[recipe.caller].request(base.method, url, base.form ? undefined : base.body);
        sent++;
        judge(`${key} con ${url}`, res, true);
      }
    }
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThan(100);
  });

  it('query strings: NUL bytes, broken UTF-8, huge and out-of-range values never make a 500', async () => {
    failures.length = 0;
    let sent = 0;
    const values: [string, boolean][] = [
      ['%00', true],
      ['%ED%A0%80', false],
      ['%FF%FE', false],
      ['x'.repeat(5000), true],
      ['-1', false],
      ['1e400', false],
      ['%F0%9F%99%82', false],
    ];
    for (const route of w.routes.routes) {
      const query = route.schema?.querystring;
      if (!(query instanceof z.ZodObject) || [route.method].flat()[0] !== 'GET') continue;
      const key = `GET ${route.url}` as RouteKey;
      const recipe = REQUESTS[key]!;
      const base = await recipe.req(w, recipe.caller);
      const url = new URL(base.url, 'http://portal.test');
      for (const field of Object.keys(query.shape)) {
        for (const [value, mustRefuse] of values) {
          const target = `${url.pathname}?${[...url.searchParams]
            .filter(([k]) => k !== field)
            .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
            .concat(`${field}=${value}`)
            .join('&')}`;
          judge(`${key} con ${target.slice(0, 120)}`, await w.api[recipe.caller].get(target), mustRefuse);
          sent++;
        }
      }
    }
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThan(50);
  });
});
