import { DrizzleQueryError } from 'drizzle-orm/errors';
import { describe, expect, it } from 'vitest';
import { errSerializer, HIDDEN } from './log-errors.ts';

const SQL = 'insert into "users" ("usuario", "password_hash") values ($1, $2)';
const SECRET = 'SECRETO-123';

/** What the pg driver throws for a unique violation: its detail quotes the value. */
function pgError(message: string, fields: Record<string, unknown>): Error {
  return Object.assign(new Error(message), { severity: 'ERROR', ...fields });
}

function serialized(err: unknown): Record<string, unknown> {
  return errSerializer(err) as Record<string, unknown>;
}

describe('the err serializer', () => {
  it("keeps a failed statement and its error code, never Drizzle's params", () => {
    const cause = pgError('duplicate key value violates unique constraint "users_usuario_unique"', {
      code: '23505',
      constraint: 'users_usuario_unique',
      table: 'users',
      detail: `Key (usuario)=(${SECRET}) already exists.`,
      where: `row (${SECRET})`,
      // PGlite's error carries the statement and its parameters too.
      query: SQL,
      params: ['ana', `${SECRET}-hash`],
    });
    const err = new DrizzleQueryError(SQL, [SECRET, `${SECRET}-hash`], cause);
    expect(err.message).toContain(SECRET);
    const out = serialized(err);
    const text = JSON.stringify(out);
    expect(text).not.toContain(SECRET);
    expect(out.type).toBe('DrizzleQueryError');
    expect(out.query).toBe(SQL);
    expect(out.code).toBe('23505');
    expect(out.constraint).toBe('users_usuario_unique');
    expect(out.params).toBeUndefined();
    expect(out.message).toBe(
      `Failed query: ${SQL}\nparams: ${HIDDEN}: duplicate key value violates unique constraint "users_usuario_unique"`,
    );
    expect(out.stack).toContain(`Failed query: ${SQL}\nparams: ${HIDDEN}\n    at `);
    expect(out.stack).toContain('caused by: Error: duplicate key value');
  });

  it('hides a parameter that the database quotes in its own message', () => {
    const cause = pgError(`invalid input syntax for type integer: "${SECRET}"`, { code: '22P02' });
    const out = serialized(new DrizzleQueryError('select $1::int as n', [SECRET], cause));
    expect(JSON.stringify(out)).not.toContain(SECRET);
    expect(out.message).toContain(`invalid input syntax for type integer: "${HIDDEN}"`);
    expect(out.code).toBe('22P02');
    // Short values are not searched for: they would blank out ordinary words.
    const short = serialized(new DrizzleQueryError('select $1::int', ['ab'], new Error('ab: abc')));
    expect(short.message).toBe(`Failed query: select $1::int\nparams: ${HIDDEN}: ab: abc`);
  });

  it('a cause given as an option (not enumerable) and nested parameter arrays are handled too', () => {
    const inner = new DrizzleQueryError('select * from t where id = any($1)', [
      [`${SECRET}-a`, 'otro valor'],
    ]);
    const outer = new Error('la importación falló', { cause: inner });
    const text = JSON.stringify(serialized(outer));
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('otro valor');
    expect(text).toContain('select * from t where id = any($1)');
  });

  it('an ordinary error is logged as pino logs it', () => {
    const err = Object.assign(new TypeError('x is not a function'), { statusCode: 500, code: 'E_X' });
    const out = serialized(err);
    expect(out).toMatchObject({
      type: 'TypeError',
      message: 'x is not a function',
      statusCode: 500,
      code: 'E_X',
    });
    expect(out.stack).toBe(err.stack);
  });

  it('a message logged as a string loses its params line', () => {
    expect(errSerializer(`Failed query: ${SQL}\nparams: ${SECRET},x`)).toBe(
      `Failed query: ${SQL}\nparams: ${HIDDEN}`,
    );
    expect(errSerializer('conexión rechazada')).toBe('conexión rechazada');
    expect(errSerializer(undefined)).toBeUndefined();
  });
});
