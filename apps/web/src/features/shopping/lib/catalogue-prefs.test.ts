import { describe, expect, it } from 'vitest';
import { DEFAULT_PREFS, ORDER_LABELS, PAGE_SIZES, pageSizeOf, parsePrefs, prefsKey } from './catalogue-prefs';

describe('the remembered catalogue preferences', () => {
  it('are kept per user', () => {
    expect(prefsKey(7)).toBe('portal:catalogo:7');
    expect(prefsKey(7)).not.toBe(prefsKey(8));
  });

  it('read what was stored', () => {
    expect(parsePrefs(JSON.stringify({ vista: 'lista', orden: 'precio', porPagina: 96 }))).toEqual({
      vista: 'lista',
      orden: 'precio',
      porPagina: 96,
    });
  });

  it('fall back to the defaults field by field for nothing, broken text or unknown values', () => {
    expect(parsePrefs(null)).toEqual(DEFAULT_PREFS);
    expect(parsePrefs('{no es json')).toEqual(DEFAULT_PREFS);
    expect(parsePrefs('"lista"')).toEqual(DEFAULT_PREFS);
    expect(parsePrefs(JSON.stringify({ vista: 'mosaico', orden: 'id', porPagina: 1000 }))).toEqual(
      DEFAULT_PREFS,
    );
    expect(parsePrefs(JSON.stringify({ orden: 'clave' }))).toEqual({ ...DEFAULT_PREFS, orden: 'clave' });
  });

  it('give 12 cards or 24 rows a page until the user chooses a size', () => {
    expect(pageSizeOf(DEFAULT_PREFS)).toBe(12);
    expect(pageSizeOf({ ...DEFAULT_PREFS, vista: 'lista' })).toBe(24);
    expect(pageSizeOf({ ...DEFAULT_PREFS, vista: 'lista', porPagina: 48 })).toBe(48);
    expect(pageSizeOf({ ...DEFAULT_PREFS, porPagina: 96 })).toBe(96);
    expect(PAGE_SIZES).toEqual([12, 24, 48, 96]);
  });

  it('label the orders in Spanish, name first', () => {
    expect(Object.entries(ORDER_LABELS)).toEqual([
      ['nombre', 'Nombre'],
      ['clave', 'Clave'],
      ['precio', 'Precio'],
    ]);
  });
});
