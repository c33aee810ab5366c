// @vitest-environment jsdom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import { type RowSelection, useRowSelection } from './row-selection';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

type Row = { id: number; activo: boolean };
let root: Root | null = null;
afterEach(() => {
  act(() => root?.unmount());
  root = null;
});

/** Renders the hook with `resetKey`; `current()` is what the last render returned. */
function renderSelection(resetKey?: string | number | null) {
  let last: RowSelection<Row> | null = null;
  function Probe({ k }: { k?: string | number | null }) {
    last = useRowSelection<Row>(k);
    return null;
  }
  root = createRoot(document.createElement('div'));
  act(() => root?.render(<Probe k={resetKey} />));
  return {
    current: () => last as unknown as RowSelection<Row>,
    rerender: (k?: string | number | null) => act(() => root?.render(<Probe k={k} />)),
  };
}

describe('useRowSelection', () => {
  it('checks rows, the page, and clears', () => {
    const s = renderSelection();
    act(() => s.current().toggle({ id: 1, activo: true }));
    act(() => s.current().toggle({ id: 2, activo: true }));
    expect(s.current().ids).toEqual([1, 2]);
    expect(s.current().size).toBe(2);
    expect(s.current().has(2)).toBe(true);
    const page = [
      { id: 2, activo: true },
      { id: 3, activo: true },
    ];
    expect(s.current().page(page)).toMatchObject({ checked: false, indeterminate: true });
    act(() => s.current().page(page).onChange());
    expect(s.current().ids).toEqual([1, 2, 3]);
    act(() => s.current().clear());
    expect(s.current().size).toBe(0);
  });

  it('drops rows and updates what it keeps of them', () => {
    const s = renderSelection();
    act(() =>
      s
        .current()
        .page([1, 2, 3].map((id) => ({ id, activo: true })))
        .onChange(),
    );
    act(() => s.current().drop([2]));
    act(() => s.current().update((r) => (r.id === 3 ? { ...r, activo: false } : r)));
    expect([...s.current().selected.values()]).toEqual([
      { id: 1, activo: true },
      { id: 3, activo: false },
    ]);
  });

  it('empties when its key changes, also back to an earlier key, and keeps it otherwise', () => {
    const s = renderSelection(1);
    act(() => s.current().toggle({ id: 7, activo: true }));
    s.rerender(1);
    expect(s.current().ids).toEqual([7]);
    s.rerender(2);
    expect(s.current().size).toBe(0);
    s.rerender(1);
    expect(s.current().size).toBe(0);
  });
});
