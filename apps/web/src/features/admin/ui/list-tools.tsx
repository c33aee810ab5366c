/**
 * The pieces every administrator list shares: page and search in the URL (`?page=`, `?q=` — the navbar's
 * 'Buscar...' writes the same `q`), the "Mostrando…" line and the '¿Estás seguro?' confirmation. The list's
 * frame is list-panel.tsx; the search box, loading, empty and error states are in components/ui.
 */
import { Badge, Group, Text } from '@mantine/core';
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

/** "Mostrando 1–10 de 42 usuarios" (and an "Actualizando…" dot while a new page loads). */
export function ListStatus({
  page,
  perPage,
  shown,
  total,
  noun,
  fetching,
}: {
  page: number;
  perPage: number;
  shown: number;
  total: number;
  noun: [string, string];
  fetching?: boolean;
}) {
  const first = total > 0 ? (page - 1) * perPage + 1 : 0;
  const last = first + shown - (shown ? 1 : 0);
  return (
    <Group gap="xs" justify="space-between" mih={22}>
      <Text size="sm" c="dimmed" aria-live="polite">
        {total === 0 || shown === 0
          ? 'Sin resultados'
          : `Mostrando ${first}–${last} de ${total} ${total === 1 ? noun[0] : noun[1]}`}
      </Text>
      {fetching ? (
        <Badge variant="dot" color="gray" size="sm">
          Actualizando…
        </Badge>
      ) : null}
    </Group>
  );
}

/** The admin screens' confirmation: the one dialog of components/ui/confirm.tsx (decision 0070). */
export { confirmAction } from '../../../components/ui/confirm';

/** Table header borders and the like. */
export const DIVIDER = { borderTop: '1px solid var(--mantine-color-gray-3)' } as const;
