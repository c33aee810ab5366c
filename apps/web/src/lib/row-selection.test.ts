import { describe, expect, it } from 'vitest';
import { dropRows, pageState, type Selected, togglePage, toggleRow } from './row-selection';

const row = (id: number, name = `fila ${id}`) => ({ id, name });
const ids = (s: Selected<unknown>) => [...s.keys()];
const none: Selected<{ id: number; name: string }> = new Map();

describe('toggleRow', () => {
  it('flips a row, or sets it as the checkbox says, keeping the order rows were checked in', () => {
    let s = toggleRow(none, row(3));
    s = toggleRow(s, row(1));
    expect(ids(s)).toEqual([3, 1]);
    expect(ids(toggleRow(s, row(3)))).toEqual([1]);
    expect(ids(toggleRow(s, row(3), true))).toEqual([3, 1]);
    expect(ids(toggleRow(s, row(2), false))).toEqual([3, 1]);
  });

  it('keeps what it was given of the row, and never changes the selection it got', () => {
    const s = toggleRow(none, row(5, 'Ana'));
    expect(s.get(5)).toEqual({ id: 5, name: 'Ana' });
    expect(none.size).toBe(0);
  });
});

describe('the page checkbox', () => {
  const page = [row(1), row(2), row(3)];

  it('is unchecked with none of the page, mixed with some, checked with all', () => {
    expect(pageState(none, page)).toEqual({ checked: false, indeterminate: false });
    expect(pageState(toggleRow(none, row(2)), page)).toEqual({ checked: false, indeterminate: true });
    expect(pageState(togglePage(none, page), page)).toEqual({ checked: true, indeterminate: false });
    expect(pageState(none, [])).toEqual({ checked: false, indeterminate: false });
  });

  it('checks the whole page unless all of it was checked, then unchecks it; other pages keep theirs', () => {
    const other = toggleRow(none, row(9));
    const mixed = toggleRow(other, row(2));
    const all = togglePage(mixed, page);
    expect(ids(all).sort()).toEqual([1, 2, 3, 9]);
    expect(ids(togglePage(all, page))).toEqual([9]);
  });
});

describe('dropRows', () => {
  it('leaves out the given ids', () => {
    const s = togglePage(none, [row(1), row(2), row(3)]);
    expect(ids(dropRows(s, [2, 7]))).toEqual([1, 3]);
  });
});
