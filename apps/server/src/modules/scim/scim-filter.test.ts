import { describe, expect, it } from 'vitest';
import { parseFilter } from './scim-filter.ts';
import { applyUserPatch } from './scim-patch.ts';

const USERS = new Set(['username', 'externalid', 'emails', 'emails.value', 'active', 'id']);

describe('SCIM filter (RFC 7644 §3.4.2.2, the eq subset)', () => {
  it('and binds tighter than or; parentheses and schema URNs are read', () => {
    expect(parseFilter('userName eq "a" or userName eq "b" and active eq true', USERS)).toEqual({
      kind: 'or',
      left: { kind: 'eq', attr: 'username', value: 'a' },
      right: {
        kind: 'and',
        left: { kind: 'eq', attr: 'username', value: 'b' },
        right: { kind: 'eq', attr: 'active', value: true },
      },
    });
    expect(parseFilter('(urn:ietf:params:scim:schemas:core:2.0:User:userName EQ "x\\"y")', USERS)).toEqual({
      kind: 'eq',
      attr: 'username',
      value: 'x"y',
    });
    expect(parseFilter('emails[type eq "work"].value eq "a@b.c"', USERS)).toEqual({
      kind: 'eq',
      attr: 'emails.value',
      value: 'a@b.c',
    });
    expect(parseFilter('emails[type eq "home"].value eq "a@b.c"', USERS)).toEqual({ kind: 'none' });
  });

  it('refuses other operators, unknown attributes and malformed text with invalidFilter', () => {
    for (const text of ['userName ne "a"', 'nickName eq "a"', 'userName eq "a', '', 'userName eq "a")']) {
      expect(() => parseFilter(text, USERS), text).toThrowError(
        expect.objectContaining({ scimType: 'invalidFilter' }),
      );
    }
  });
});

describe('SCIM PATCH of a user (RFC 7644 §3.5.2)', () => {
  const state = { userName: 'ana', nombre: 'Ana López', email: '', externalId: null, active: true };
  it('edits the name by its parts and reads Entra ID booleans', () => {
    const next = applyUserPatch(state, {
      Operations: [
        { op: 'Replace', path: 'name.givenName', value: 'Anabel' },
        { op: 'Replace', path: 'active', value: 'False' },
      ],
    });
    expect(next).toMatchObject({ nombre: 'Anabel López', active: false });
    expect(state.active).toBe(true);
  });
});
