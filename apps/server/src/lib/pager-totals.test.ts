import { describe, expect, it } from 'vitest';
import { PagerTotals } from './pager-totals.ts';

describe('PagerTotals', () => {
  it('a total counted elsewhere is remembered like its own counts: only a large one, only within its time', () => {
    let clock = 0;
    const totals = new PagerTotals(100, 10_000, 10, () => clock);
    totals.remember('k', 99);
    expect(totals.known('k')).toBeUndefined();
    totals.remember('k', 100);
    expect(totals.known('k')).toBe(100);
    clock = 9_999;
    expect(totals.known('k')).toBe(100);
    clock = 10_000;
    expect(totals.known('k')).toBeUndefined();
    // A smaller count forgets the large one at once.
    totals.remember('k', 150);
    totals.remember('k', 3);
    expect(totals.known('k')).toBeUndefined();
  });

  it('counts small lists every time and reuses a large total only within its time', async () => {
    let clock = 0;
    const totals = new PagerTotals(100, 10_000, 10, () => clock);
    let rows = 5;
    let counted = 0;
    const count = async () => {
      counted += 1;
      return rows;
    };
    expect(await totals.get('c1', count)).toBe(5);
    rows = 6;
    expect(await totals.get('c1', count)).toBe(6);
    expect(counted).toBe(2);

    rows = 500;
    expect(await totals.get('c1', count)).toBe(500);
    rows = 501;
    clock = 9_999;
    expect(await totals.get('c1', count)).toBe(500);
    expect(counted).toBe(3);
    clock = 10_000;
    expect(await totals.get('c1', count)).toBe(501);
    expect(counted).toBe(4);
    // Another key (another client or filter) has its own total.
    expect(await totals.get('c2', async () => 7)).toBe(7);
  });

  it('a large list that shrinks below the threshold is exact again at once', async () => {
    let clock = 0;
    const totals = new PagerTotals(100, 10_000, 10, () => clock);
    expect(await totals.get('k', async () => 200)).toBe(200);
    clock = 20_000;
    expect(await totals.get('k', async () => 50)).toBe(50);
    clock = 20_001;
    expect(await totals.get('k', async () => 49)).toBe(49);
  });

  it('keeps at most maxKeys totals', async () => {
    const totals = new PagerTotals(1, 60_000, 3, () => 0);
    for (const k of ['a', 'b', 'c', 'd']) await totals.get(k, async () => 10);
    // 'a' was dropped when the map was full, so it is counted again.
    expect(await totals.get('a', async () => 11)).toBe(11);
    expect(await totals.get('d', async () => 12)).toBe(10);
  });

  it('an expired large total is counted once for the requests that find it expired at the same time', async () => {
    let clock = 0;
    const totals = new PagerTotals(100, 10_000, 10, () => clock);
    let counted = 0;
    let release: () => void = () => {};
    const count = () => {
      counted += 1;
      return new Promise<number>((resolve) => {
        release = () => resolve(500 + counted);
      });
    };
    const first = totals.get('k', count);
    release();
    expect(await first).toBe(501);
    clock = 10_000;
    const waiting = [totals.get('k', count), totals.get('k', count), totals.get('k', count)];
    release();
    expect(await Promise.all(waiting)).toEqual([502, 502, 502]);
    expect(counted).toBe(2);
    // A small list's counts are never shared: each request counts after whatever it follows.
    let small = 0;
    const smallCount = async () => ++small;
    await Promise.all([totals.get('s', smallCount), totals.get('s', smallCount)]);
    expect(small).toBe(2);
  });
});
