import { SessionResponse } from '@portal/shared/schemas/auth';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compiledResponse, responseJsonSchema, serializerCompiler } from './response-serializer.ts';

const route = (schema: z.ZodType) => ({ schema, method: 'GET', url: '/api/x', httpStatus: '200' });
const compiled = (schema: z.ZodType) => serializerCompiler(route(compiledResponse(schema)));
const byZod = (schema: z.ZodType) => zodSerializerCompiler(route(schema));

const session = {
  status: 'ok',
  user: {
    id: 7,
    usuario: 'ana',
    nombre: 'Ana «Compras» "Pérez"\n\\',
    email: 'ana@example.com',
    rol: 1,
    cliente: {
      id: 3,
      nombre: 'Cliente \u2028 con emoji 😀',
      imagen: null,
      color: '#112233',
      color2: '#445566',
      calendario: null,
      manual: 'manual.pdf',
      modo_presupuesto: 'categoria',
      mostrar_presupuesto_a_usuarios: true,
      cantidad_autorizadores: 2,
      aprobacion_automatica_hasta: 500,
      ventana_reglas_horas: 24,
    },
    debe_cambiar_password: false,
    motivo_cambio_password: null,
    dos_pasos: true,
    debe_activar_2fa: false,
    receptor: true,
    // Not in the schema: never sent.
    password: 'hash-que-no-sale',
  },
  soporte: ['55 1234 5678'],
  zona_horaria: 'America/Mexico_City',
  comprador: undefined,
};

describe('compiled response serialisation', () => {
  it('writes the same JSON as zod for a session, without the keys the schema does not name', () => {
    const a = compiled(SessionResponse)(session);
    expect(a).toBe(byZod(SessionResponse)(session));
    expect(a).not.toContain('hash-que-no-sale');
    expect(JSON.parse(a).user.nombre).toBe(session.user.nombre);
    const noClient = { ...session, user: { ...session.user, cliente: null } };
    expect(compiled(SessionResponse)(noClient)).toBe(byZod(SessionResponse)(noClient));
  });

  it('keeps the schema order, leaves out undefined optionals and writes null as null', () => {
    const Schema = z.object({
      b: z.number(),
      a: z.string().optional(),
      c: z.array(z.object({ x: z.number().int(), y: z.string().nullable() })),
      d: z.enum(['uno', 'dos']),
    });
    const value = {
      c: [
        { y: null, x: 1 },
        { x: 2, y: 'z' },
      ],
      a: undefined,
      b: 1.5,
      d: 'dos',
    };
    const out = compiled(Schema)(value);
    expect(out).toBe('{"b":1.5,"c":[{"x":1,"y":null},{"x":2,"y":"z"}],"d":"dos"}');
    expect(out).toBe(byZod(Schema)(value));
  });

  it('writes nullable objects, enums and numbers as zod does, with either value', () => {
    const Schema = z.object({
      o: z.object({ a: z.number() }).nullable(),
      e: z.enum(['por_surtir', 'enviado']).nullable(),
      n: z.number().nullable(),
    });
    const json = JSON.stringify(responseJsonSchema(Schema));
    expect(json).not.toContain('anyOf');
    for (const value of [
      { o: { a: 1, b: 2 }, e: 'enviado', n: 0 },
      { o: null, e: null, n: null },
    ])
      expect(compiled(Schema)(value)).toBe(byZod(Schema)(value));
  });

  it('escapes a lone surrogate as JSON.stringify does', () => {
    const Schema = z.object({ t: z.string() });
    const value = { t: 'a\uD800b' };
    expect(compiled(Schema)(value)).toBe(JSON.stringify(value));
  });

  it('keeps zod for what JSON Schema cannot describe', () => {
    const Schema = z.object({ when: z.date() });
    expect(responseJsonSchema(Schema)).toBeNull();
    // zod's serialiser refuses a value of the wrong type; the compiled one was not used.
    expect(() => compiled(Schema)({ when: 'no es fecha' })).toThrow();
  });

  it('leaves unmarked schemas to zod, which refuses a wrong value', () => {
    const Schema = z.object({ n: z.number() });
    expect(() => serializerCompiler(route(Schema))({ n: 'x' })).toThrow();
  });
});
