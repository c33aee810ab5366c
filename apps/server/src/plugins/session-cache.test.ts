import { describe, expect, it } from 'vitest';
import { parseInvalidation } from '../db/invalidation.ts';
import type { ClientRow, UserRow } from '../db/principal.ts';
import { type CachedSession, PrincipalCache } from './session-cache.ts';

function entry(id: string, userId: number, clientId: number | null): CachedSession {
  const now = new Date();
  return {
    id,
    userId,
    xsrfToken: 'x',
    createdAt: now,
    lastSeenAt: now,
    expiresAt: new Date(now.getTime() + 3_600_000),
    user: { id: userId } as UserRow,
    client: clientId === null ? null : ({ id: clientId } as ClientRow),
    weeks: { hasAny: false, inside: false },
    weeksThrough: null,
  };
}

describe('principal cache', () => {
  it('an announced change drops the sessions of that session, user or client, and no other', () => {
    const cache = new PrincipalCache();
    cache.set(entry('s1', 1, 10), cache.epoch);
    cache.set(entry('s2', 1, 10), cache.epoch);
    cache.set(entry('s3', 2, 10), cache.epoch);
    cache.set(entry('s4', 3, 20), cache.epoch);
    cache.set(entry('s5', 4, null), cache.epoch);
    cache.apply(parseInvalidation('s:s1'));
    expect(cache.get('s1')).toBeUndefined();
    expect(cache.get('s2')).toBeDefined();
    cache.apply(parseInvalidation('u:1,4'));
    expect([cache.get('s2'), cache.get('s5')]).toEqual([undefined, undefined]);
    expect(cache.get('s3')).toBeDefined();
    cache.apply(parseInvalidation('c:10'));
    expect(cache.get('s3')).toBeUndefined();
    expect(cache.get('s4')).toBeDefined();
    cache.apply(parseInvalidation('*'));
    expect(cache.size).toBe(0);
  });

  it('a read that a change to its session, user or client overtook is not kept; an unrelated change does not matter', () => {
    const cache = new PrincipalCache();
    for (const payload of ['s:a', 'u:1', 'c:10']) {
      const readIn = cache.epoch;
      cache.apply(parseInvalidation(payload));
      cache.set(entry('a', 1, 10), readIn);
      expect(cache.get('a'), payload).toBeUndefined();
    }
    const readIn = cache.epoch;
    cache.apply(parseInvalidation('u:2'));
    cache.apply(parseInvalidation('c:11'));
    cache.set(entry('a', 1, 10), readIn);
    expect(cache.get('a')).toBeDefined();
    // A flush (listening stopped or started) refuses every read begun before it.
    const before = cache.epoch;
    cache.flush();
    cache.set(entry('b', 5, 50), before);
    expect(cache.get('b')).toBeUndefined();
  });

  it('an unknown message drops everything', () => {
    expect(parseInvalidation('x')).toEqual({ kind: 'all' });
    expect(parseInvalidation('u:3,4')).toEqual({ kind: 'u', ids: ['3', '4'] });
  });
});
