import { describe, expect, it } from 'vitest';
import { optionalBoolean, parseYesNo, requiredText } from './form-fields.ts';

describe('the one yes/no vocabulary', () => {
  it('reads every word the forms and the CSV cells accepted, trimmed and in any case', () => {
    for (const yes of [true, 1, '1', 'true', 'TRUE', ' si ', 'Sí', 'yes', 'Verdadero', 'x', 'X']) {
      expect(parseYesNo(yes)).toBe(true);
    }
    for (const no of [false, 0, '0', 'false', 'No', 'NO', 'falso']) {
      expect(parseYesNo(no)).toBe(false);
    }
  });

  it('blank is absent, anything else is refused', () => {
    for (const blank of [undefined, null, '', '   ']) expect(parseYesNo(blank)).toBeUndefined();
    for (const bad of ['quizá', '2', 2, 'y', 'n', 'on']) expect(parseYesNo(bad)).toBeNull();
  });

  it('a form field refuses a word outside the vocabulary with its message', () => {
    const field = optionalBoolean('mal');
    expect(field.parse('sí')).toBe(true);
    expect(field.parse('0')).toBe(false);
    expect(field.parse('')).toBeUndefined();
    expect(field.safeParse('quizá').error?.issues[0]?.message).toBe('mal');
  });
});

describe('required text', () => {
  it('trims, refuses blank with the required message and long text with the given one', () => {
    const field = requiredText('falta', 5, 'largo');
    expect(field.parse('  abc ')).toBe('abc');
    expect(field.safeParse('   ').error?.issues[0]?.message).toBe('falta');
    expect(field.safeParse(null).error?.issues[0]?.message).toBe('falta');
    expect(field.safeParse('abcdef').error?.issues[0]?.message).toBe('largo');
  });
});
