import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify/types/schema';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { type ZodType, z } from 'zod';

/** The response schemas whose serialiser is compiled (the hot routes' answers). */
const COMPILED = new WeakSet<ZodType>();

/**
 * Marks a route's response schema to be serialised by a function compiled once from its JSON Schema
 * (fast-json-stringify) instead of being checked and encoded by zod on every response. The output is the
 * same JSON: only the schema's properties, in its order, `undefined` left out. What zod would refuse at run
 * time (a value of the wrong type) is a bug of the handler that the route's API tests catch instead.
 * A schema that JSON Schema cannot express (dates, transforms) keeps zod.
 */
export function compiledResponse<T extends ZodType>(schema: T): T {
  COMPILED.add(schema);
  return schema;
}

type Json = Record<string, unknown>;

/**
 * `anyOf: [X, {type: 'null'}]` (zod's `.nullable()`) as `type: [X's type, 'null']`: the same values, but the
 * compiled serialiser tests the type instead of running a validator over the value for each branch.
 */
function foldNullable(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(foldNullable);
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) out[k] = foldNullable(v);
  const any = out.anyOf;
  if (Array.isArray(any) && any.length === 2) {
    const nullAt = any.findIndex((b) => (b as Json).type === 'null' && Object.keys(b as Json).length === 1);
    const other = any[1 - nullAt] as Json | undefined;
    if (nullAt >= 0 && other && typeof other.type === 'string' && !('const' in other)) {
      const { anyOf: _, ...rest } = out;
      const folded: Json = { ...rest, ...other, type: [other.type, 'null'] };
      if (Array.isArray(other.enum)) folded.enum = [...other.enum, null];
      return folded;
    }
  }
  return out;
}

/** The JSON Schema of a response, or null when zod's output cannot be described by one. */
export function responseJsonSchema(schema: ZodType): Json | null {
  try {
    return foldNullable(
      z.toJSONSchema(schema, { io: 'output', unrepresentable: 'throw', target: 'draft-7' }),
    ) as Json;
  } catch {
    return null;
  }
}

/** The app's serializer compiler: compiled for marked schemas, zod's (check, then JSON.stringify) for the rest. */
export const serializerCompiler: FastifySerializerCompiler<ZodType> = (route) => {
  const schema = route.schema;
  if (COMPILED.has(schema)) {
    const json = responseJsonSchema(schema);
    if (json) return fastJson(json as unknown as Parameters<typeof fastJson>[0]) as (data: unknown) => string;
  }
  return zodSerializerCompiler(route);
};
