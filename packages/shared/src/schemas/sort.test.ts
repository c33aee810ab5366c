import { describe, expect, it } from 'vitest';
import { MSG } from '../messages.ts';
import { listSort, nextSort, splitSort } from './sort.ts';

describe('a list sort (decision 0067)', () => {
  const sort = listSort(['nombre', 'ultimo_acceso'], 'nombre_asc');

  it('accepts <campo>_<asc|desc> of its fields, and the default when absent', () => {
    expect(sort.values).toEqual(['nombre_asc', 'nombre_desc', 'ultimo_acceso_asc', 'ultimo_acceso_desc']);
    expect(sort.schema.parse(undefined)).toBe('nombre_asc');
    expect(sort.schema.parse('ultimo_acceso_desc')).toBe('ultimo_acceso_desc');
  });

  it('refuses anything else with the Spanish message', () => {
    for (const bad of ['nombre', 'nombre_up', 'precio_asc', 'NOMBRE_ASC', '', 'nombre_asc ']) {
      const result = sort.schema.safeParse(bad);
      expect(result.success, bad).toBe(false);
      expect(result.error?.issues[0]?.message).toBe(MSG.ordenInvalido);
    }
  });

  it('reads a URL value back, falling back to the default', () => {
    expect(sort.read('ultimo_acceso_asc')).toBe('ultimo_acceso_asc');
    expect(sort.read('total_desc')).toBe('nombre_asc');
    expect(sort.read(null)).toBe('nombre_asc');
  });

  it('splits a value at its last underscore', () => {
    expect(splitSort('ultimo_acceso_desc')).toEqual({ field: 'ultimo_acceso', direction: 'desc' });
    expect(splitSort('nombre_asc')).toEqual({ field: 'nombre', direction: 'asc' });
  });

  it('flips the same column and starts another with its first direction', () => {
    expect(nextSort<'nombre' | 'fecha'>('nombre_asc', 'nombre', 'asc')).toBe('nombre_desc');
    expect(nextSort<'nombre' | 'fecha'>('nombre_desc', 'nombre', 'asc')).toBe('nombre_asc');
    expect(nextSort<'nombre' | 'fecha'>('nombre_asc', 'fecha', 'desc')).toBe('fecha_desc');
  });
});
