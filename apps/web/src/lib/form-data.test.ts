import { describe, expect, it } from 'vitest';
import { toFormData } from './form-data';

describe('toFormData', () => {
  it('writes the named fields with a value, yes/no as 1/0', () => {
    const body = toFormData(
      { nombre: 'Acme', precio: 189.9, activo: true, impuesto: false, nota: undefined, extra: 'x' },
      ['nombre', 'precio', 'activo', 'impuesto', 'nota'],
    );
    expect([...body.entries()]).toEqual([
      ['nombre', 'Acme'],
      ['precio', '189.9'],
      ['activo', '1'],
      ['impuesto', '0'],
    ]);
  });
});
