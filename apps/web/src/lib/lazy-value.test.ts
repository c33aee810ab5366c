import { schemaResolver } from '@mantine/form';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { lazyValue } from './lazy-value';

describe('lazyValue', () => {
  it('builds its value at the first use, once, and not before', () => {
    let built = 0;
    const schema = lazyValue(() => {
      built++;
      return z.object({ nombre: z.string().min(1, 'Escribe un nombre') });
    });
    expect(built).toBe(0);
    expect(schema.safeParse({ nombre: 'Ana' }).success).toBe(true);
    expect(schema.safeParse({ nombre: '' }).success).toBe(false);
    expect(built).toBe(1);
  });

  it('is the schema to zod: instanceof, composition, extend, shape, enum options', () => {
    const Status = lazyValue(() => z.enum(['pendiente', 'aprobado']));
    const Body = lazyValue(() => z.object({ status: Status, cantidad: z.number().int().positive() }));
    const Extended = lazyValue(() => Body.extend({ nota: z.string().max(3) }));
    expect(Body instanceof z.ZodObject).toBe(true);
    expect(Status instanceof z.ZodEnum).toBe(true);
    expect(Status.options).toEqual(['pendiente', 'aprobado']);
    expect(Object.keys(Body.shape)).toEqual(['status', 'cantidad']);
    expect(Extended.parse({ status: 'aprobado', cantidad: 2, nota: 'ok' })).toEqual({
      status: 'aprobado',
      cantidad: 2,
      nota: 'ok',
    });
    const refused = Extended.safeParse({ status: 'otro', cantidad: 0, nota: 'larga' });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues.map((i) => i.path.join('.'))).toEqual(['status', 'cantidad', 'nota']);
    // Inside another schema built eagerly, and as an array's element.
    expect(z.array(Body).safeParse([{ status: 'pendiente', cantidad: 1 }]).success).toBe(true);
    expect(Body.optional().safeParse(undefined).success).toBe(true);
  });

  it("gives a form's resolver the same errors as the schema itself", () => {
    const make = () =>
      z.object({
        nombre: z.string().min(1, 'Escribe un nombre'),
        correo: z.email('El correo no es válido'),
      });
    const values = { nombre: '', correo: 'no' };
    expect(schemaResolver(lazyValue(make), { sync: true })(values)).toEqual(
      schemaResolver(make(), { sync: true })(values),
    );
    expect(schemaResolver(lazyValue(make), { sync: true })(values)).toEqual({
      nombre: 'Escribe un nombre',
      correo: 'El correo no es válido',
    });
  });

  it('answers reflection like the built object: in, keys, descriptors, prototype', () => {
    const real = z.string();
    const lazy = lazyValue(() => z.string());
    expect('~standard' in lazy).toBe(true);
    expect(Object.getPrototypeOf(lazy)).toBe(Object.getPrototypeOf(real));
    // zod defines `_zod` non-configurable: the proxy still describes it without breaking its invariants.
    expect(Object.getOwnPropertyDescriptor(lazy, '_zod')?.value).toBeTruthy();
    expect(Reflect.ownKeys(lazy).sort()).toEqual(Reflect.ownKeys(real).sort());
    // A plain object (a list's sort): its functions and arrays read through.
    const sort = lazyValue(() => ({ values: ['a_asc', 'a_desc'], read: (raw: string) => raw || 'a_asc' }));
    expect(sort.values).toEqual(['a_asc', 'a_desc']);
    expect(sort.read('')).toBe('a_asc');
    expect({ ...sort }.values).toEqual(['a_asc', 'a_desc']);
  });
});
