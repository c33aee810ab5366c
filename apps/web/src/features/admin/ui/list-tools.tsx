/**
 * The pieces every administrator list shares: page and search in the URL (`?page=`, `?q=` — the navbar's
 * 'Buscar...' writes the same `q`) and the '¿Estás seguro?' confirmation. The list's frame
 * (components/ui/list-panel.tsx), search box, loading, empty and error states are in components/ui.
 */
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useRef } from 'react';
import { useSearchParamsUpdate } from '../../../lib/search-params';

const SEARCH_DEBOUNCE_MS = 300;

export function useListParams() {
  const [params, update] = useSearchParamsUpdate();
  const page = Math.max(1, Math.floor(Number(params.get('page')) || 1));
  const q = params.get('q') ?? '';
  const [debouncedQ] = useDebouncedValue(q.trim(), SEARCH_DEBOUNCE_MS);

  // A new search (from the list's box or the navbar) starts again on page 1.
  const lastQ = useRef(debouncedQ);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a change of the search resets the page
  useEffect(() => {
    if (lastQ.current !== debouncedQ) {
      lastQ.current = debouncedQ;
      if (page !== 1) update({ page: null });
    }
  }, [debouncedQ]);

  const setPage = (p: number) => {
    update({ page: p === 1 ? null : String(p) });
    window.scrollTo({ top: 0 });
  };
  return { page, q, debouncedQ, setPage, setQ: (value: string) => update({ q: value, page: null }) };
}

/** The admin screens' confirmation: the one dialog of components/ui/confirm.tsx (decision 0070). */
export { confirmAction } from '../../../components/ui/confirm';
