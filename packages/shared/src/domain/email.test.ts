import { describe, expect, it } from 'vitest';
import { MSG } from '../messages.ts';
import { UserBody } from '../schemas/users.ts';
import { EMAIL_MAX_LENGTH, isEmailAddress } from './email.ts';

/**
 * Inputs that made the former pattern /^[^\s@]+@[^\s@]+\.[^\s@]+$/ backtrack quadratically: after the @,
 * many dots (or "a.") and then a character that fails the end anchor. 80 KB took about 7 s.
 */
const PATHOLOGICAL = [
  `a@${'.'.repeat(80_000)}@`,
  `a@${'.'.repeat(80_000)} `,
  `a@${'a.'.repeat(40_000)}@`,
  `a@${'a'.repeat(80_000)}`,
  'a'.repeat(80_000),
];

/**
 * The fastest of three runs: a backtracking pattern is slow every time, while a pause of a loaded machine
 * (GC, another process) hits one run at most.
 */
function timed<T>(fn: () => T): { value: T; ms: number } {
  let value = fn();
  let ms = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 3; i++) {
    const start = performance.now();
    value = fn();
    ms = Math.min(ms, performance.now() - start);
  }
  return { value, ms };
}

describe('e-mail check', () => {
  it('accepts an address: something, @, a domain with a dot inside', () => {
    for (const ok of ['ana@empresa.mx', 'a.b+c@sub.dominio.com.mx', 'x@y.z', 'Ñandú@correo.mx', 'a@b..c'])
      expect(isEmailAddress(ok), ok).toBe(true);
  });

  it('refuses what is not one', () => {
    for (const bad of [
      '',
      'ana',
      '@empresa.mx',
      'ana@',
      'ana@empresa',
      'ana@.mx',
      'ana@empresa.',
      'ana@@empresa.mx',
      'ana@emp@resa.mx',
      'a na@empresa.mx',
      'ana@empresa .mx',
      'ana@empresa.mx\n',
      '\tana@empresa.mx',
    ])
      expect(isEmailAddress(bad), JSON.stringify(bad)).toBe(false);
  });

  it(`is bounded: at most ${EMAIL_MAX_LENGTH} characters`, () => {
    const domain = '@empresa.mx';
    const longest = `${'a'.repeat(EMAIL_MAX_LENGTH - domain.length)}${domain}`;
    expect(longest).toHaveLength(254);
    expect(isEmailAddress(longest)).toBe(true);
    expect(isEmailAddress(`a${longest}`)).toBe(false);
  });

  it('answers pathological inputs in milliseconds (no catastrophic backtracking)', () => {
    for (const input of PATHOLOGICAL) {
      const { value, ms } = timed(() => isEmailAddress(input));
      expect(value).toBe(false);
      expect(ms, input.slice(0, 20)).toBeLessThan(50);
    }
  });

  it('the user form schema refuses a pathological user_id in milliseconds too', () => {
    const body = {
      usuario: 'ana',
      nombre: 'Ana',
      direccion_entrega: 'Oficina',
      rol: 1,
      active_week: 1,
      entrega_week: 1,
    };
    for (const input of PATHOLOGICAL) {
      const { value, ms } = timed(() => UserBody.safeParse({ ...body, user_id: input }));
      expect(value.success).toBe(false);
      expect(ms, input.slice(0, 20)).toBeLessThan(50);
    }
    const ok = UserBody.safeParse({ ...body, user_id: 'ana@empresa.mx' });
    expect(ok.success).toBe(true);
    const bad = UserBody.safeParse({ ...body, user_id: 'ana@empresa' });
    expect(bad.error?.issues.map((i) => i.message)).toEqual([MSG.correoInvalido]);
  });
});
