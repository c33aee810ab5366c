/**
 * How a buyer likes the catalogue: cards or the compact list, its order and its page size. Kept in this
 * browser's localStorage, one entry per user (two buyers sharing a computer keep their own), and read
 * defensively: anything unknown falls back to the defaults.
 */
import { CATALOG_ORDERS, type CatalogOrder } from '@portal/shared/schemas/shopping';
import { useCallback, useState } from 'react';

export type CatalogueView = 'tarjetas' | 'lista';

/** The page sizes offered. */
export const PAGE_SIZES = [12, 24, 48, 96] as const;
export type PageSize = (typeof PAGE_SIZES)[number];

export interface CataloguePrefs {
  vista: CatalogueView;
  orden: CatalogOrder;
  /** Chosen by the user; null: the view's own default (see pageSizeOf). */
  porPagina: PageSize | null;
}

export const DEFAULT_PREFS: CataloguePrefs = { vista: 'tarjetas', orden: 'nombre', porPagina: null };

/** The sort control's labels, in the control's order. */
export const ORDER_LABELS: Record<CatalogOrder, string> = {
  nombre: 'Nombre',
  clave: 'Clave',
  precio: 'Precio',
};

export function prefsKey(userId: number): string {
  return `portal:catalogo:${userId}`;
}

const isOrder = (v: unknown): v is CatalogOrder => CATALOG_ORDERS.includes(v as CatalogOrder);
const isPageSize = (v: unknown): v is PageSize => PAGE_SIZES.includes(v as PageSize);

/** The stored text (or null) as preferences; each field that is missing or unknown takes its default. */
export function parsePrefs(raw: string | null): CataloguePrefs {
  let stored: unknown = null;
  try {
    stored = raw ? JSON.parse(raw) : null;
  } catch {
    stored = null;
  }
  if (typeof stored !== 'object' || stored === null) return DEFAULT_PREFS;
  const s = stored as Record<string, unknown>;
  return {
    vista: s.vista === 'lista' ? 'lista' : 'tarjetas',
    orden: isOrder(s.orden) ? s.orden : DEFAULT_PREFS.orden,
    porPagina: isPageSize(s.porPagina) ? s.porPagina : null,
  };
}

/** Products a page: the user's choice, else 12 cards (a screenful) or 24 rows of the list. */
export function pageSizeOf(prefs: CataloguePrefs): PageSize {
  return prefs.porPagina ?? (prefs.vista === 'lista' ? 24 : 12);
}

function readStored(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** The user's catalogue preferences and a setter that stores each change (a blocked storage is ignored). */
/** The user's saved choices (the defaults when none, or unreadable). */
export function storedPrefs(userId: number): CataloguePrefs {
  return parsePrefs(readStored(prefsKey(userId)));
}

export function useCataloguePrefs(
  userId: number,
): [CataloguePrefs, (change: Partial<CataloguePrefs>) => void] {
  const key = prefsKey(userId);
  const [state, setState] = useState(() => ({ key, prefs: parsePrefs(readStored(key)) }));
  const prefs = state.key === key ? state.prefs : parsePrefs(readStored(key));
  const update = useCallback(
    (change: Partial<CataloguePrefs>) =>
      setState((prev) => {
        const next = { ...(prev.key === key ? prev.prefs : parsePrefs(readStored(key))), ...change };
        try {
          window.localStorage.setItem(key, JSON.stringify(next));
        } catch {
          // Private mode or a full storage: the choice lasts until the page is left.
        }
        return { key, prefs: next };
      }),
    [key],
  );
  return [prefs, update];
}
