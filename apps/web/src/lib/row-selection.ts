/**
 * The rows a list's checkboxes hold, by id: one hook for every list with a bulk action (the approver's
 * orders, the fulfilment queue, the users, the inventory). Each entry keeps what the bulk action needs of
 * its row — the row itself, or a few of its fields when the selection outlives the page (the users list
 * keeps it across pages, filters and sorts). The steps are pure functions, unit-tested.
 */
import { useState } from 'react';

export type Selected<T> = ReadonlyMap<number, T>;

const NONE: Selected<never> = new Map<number, never>();

/** Checks (`on` true), unchecks (false) or flips (undefined) one row; the others keep their order. */
export function toggleRow<T extends { id: number }>(prev: Selected<T>, row: T, on?: boolean): Selected<T> {
  const next = new Map(prev);
  if (on ?? !prev.has(row.id)) next.set(row.id, row);
  else next.delete(row.id);
  return next;
}

/** The "Seleccionar página" checkbox over `rows`: checked when all of them are, mixed when some are. */
export function pageState(selected: Selected<unknown>, rows: readonly { id: number }[]) {
  const all = rows.length > 0 && rows.every((r) => selected.has(r.id));
  const some = rows.some((r) => selected.has(r.id));
  return { checked: all, indeterminate: some && !all };
}

/** A click on "Seleccionar página": every row of it when not all were checked, else none of them. */
export function togglePage<T extends { id: number }>(prev: Selected<T>, rows: readonly T[]): Selected<T> {
  const all = pageState(prev, rows).checked;
  const next = new Map(prev);
  for (const row of rows) {
    if (all) next.delete(row.id);
    else next.set(row.id, row);
  }
  return next;
}

/** The selection without these ids (the orders that moved, say). */
export function dropRows<T>(prev: Selected<T>, ids: Iterable<number>): Selected<T> {
  const gone = new Set(ids);
  return new Map([...prev].filter(([id]) => !gone.has(id)));
}

export interface RowSelection<T extends { id: number }> {
  /** The selected rows by id, in the order they were checked. */
  selected: Selected<T>;
  /** Their ids, in that order. */
  ids: number[];
  size: number;
  has: (id: number) => boolean;
  toggle: (row: T, on?: boolean) => void;
  /** The "Seleccionar página" checkbox over these rows: its state and its click. */
  page: (rows: readonly T[]) => { checked: boolean; indeterminate: boolean; onChange: () => void };
  clear: () => void;
  drop: (ids: Iterable<number>) => void;
  /** Changes what the selection keeps of each row (the users just deactivated are now inactive). */
  update: (change: (row: T) => T) => void;
}

/**
 * A list's selection. It empties when `resetKey` changes (another page, filter or client: the selection
 * was of the rows shown); without one it lasts as long as the screen.
 */
export function useRowSelection<T extends { id: number }>(
  resetKey?: string | number | null,
): RowSelection<T> {
  const [selected, setSelected] = useState<Selected<T>>(NONE);
  // A new key empties the selection in the same render (React's "adjust state on a prop change").
  const [key, setKey] = useState(resetKey);
  if (key !== resetKey) {
    setKey(resetKey);
    setSelected(NONE);
  }
  return {
    selected,
    ids: [...selected.keys()],
    size: selected.size,
    has: (id) => selected.has(id),
    toggle: (row, on) => setSelected((prev) => toggleRow(prev, row, on)),
    page: (rows) => ({
      ...pageState(selected, rows),
      onChange: () => setSelected((prev) => togglePage(prev, rows)),
    }),
    clear: () => setSelected(NONE),
    drop: (ids) => setSelected((prev) => dropRows(prev, ids)),
    update: (change) => setSelected((prev) => new Map([...prev].map(([id, row]) => [id, change(row)]))),
  };
}
