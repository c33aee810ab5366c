/**
 * The frame every paged list shares: a header (the list's search box, filters or title) with the
 * "Mostrando…" line, then the rows — or their loading, error and empty states (list-states.tsx) — and the
 * pager below. The pages give the rows (a table, cards) as children; the frame decides which state shows.
 * No data is fetched here: the page passes its query's state.
 */
import { Badge, Box, Group, type MantineSpacing, Paper, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { LoadError, LoadingRows } from './list-states';
import { Pager } from './pager';

/** Table header borders and the like. */
export const DIVIDER = { borderTop: '1px solid var(--mantine-color-gray-3)' } as const;

/** The page the server answered, for the "Mostrando…" line. */
export interface ListPage {
  page: number;
  perPage: number;
  shown: number;
  total: number;
}

/** What the frame needs of the list's query (a react-query result fits). */
export interface ListQueryState {
  isPending: boolean;
  isError: boolean;
  isFetching: boolean;
  error: unknown;
  refetch: () => unknown;
}

/** How many pages the list has (1 until the first answer). */
export function pageCount(page: ListPage | undefined): number {
  return page ? Math.max(1, Math.ceil(page.total / page.perPage)) : 1;
}

/** "Mostrando 1–10 de 42 usuarios", or "Sin resultados". */
export function listStatusText({ page, perPage, shown, total }: ListPage, noun: [string, string]): string {
  const first = total > 0 ? (page - 1) * perPage + 1 : 0;
  const last = first + shown - (shown ? 1 : 0);
  return total === 0 || shown === 0
    ? 'Sin resultados'
    : `Mostrando ${first}–${last} de ${total} ${total === 1 ? noun[0] : noun[1]}`;
}

/** The "Actualizando…" dot while a new page loads. */
export function FetchingBadge() {
  return (
    <Badge variant="dot" color="gray" size="sm">
      Actualizando…
    </Badge>
  );
}

/** "Mostrando 1–10 de 42 usuarios" (and an "Actualizando…" dot while a new page loads). */
export function ListStatus({
  noun,
  fetching,
  ...page
}: ListPage & { noun: [string, string]; fetching?: boolean }) {
  return (
    <Group gap="xs" justify="space-between" mih={22}>
      <Text size="sm" c="dimmed" aria-live="polite">
        {listStatusText(page, noun)}
      </Text>
      {fetching ? <FetchingBadge /> : null}
    </Group>
  );
}

export interface ListPanelProps {
  /** Above the status line: the list's search box or its title. */
  header: ReactNode;
  headerGap?: MantineSpacing | number;
  /** The page the server answered (undefined until the first answer). */
  page?: ListPage;
  /** Singular and plural of what the list holds ("Mostrando 1–10 de 42 usuarios"). */
  noun: [string, string];
  /** A line of the list's own instead of the "Mostrando…" one (undefined: the standard line). */
  status?: ReactNode;
  /** Between the header and the rows: a result of the last action, say. */
  notice?: ReactNode;
  query: ListQueryState;
  /** "Cargando …" of the loading rows, and how many. */
  loading: { label: string; rows?: number };
  /** "No se pudieron cargar …". */
  errorTitle: string;
  /** Shown when the page has no rows (a ListEmpty). */
  empty: ReactNode;
  /** The pager's name ('Páginas de usuarios') and its change; its pages come from `page`. */
  pager: { label: string; onChange: (page: number) => void };
  /** The rows, shown when the page has any. */
  children: ReactNode;
}

export function ListPanel({
  header,
  headerGap = 'sm',
  page,
  noun,
  status,
  query,
  loading,
  ...props
}: ListPanelProps) {
  return (
    <Paper withBorder radius="lg" shadow="xs" style={{ overflow: 'hidden' }}>
      <Stack gap={headerGap} p={{ base: 'sm', sm: 'md' }}>
        {header}
        {status !== undefined ? (
          status
        ) : page ? (
          <ListStatus {...page} noun={noun} fetching={query.isFetching} />
        ) : null}
      </Stack>
      {props.notice}
      <Box style={DIVIDER}>
        {query.isPending ? (
          <LoadingRows label={loading.label} rows={loading.rows} />
        ) : query.isError ? (
          <LoadError title={props.errorTitle} error={query.error} onRetry={() => void query.refetch()} />
        ) : page && page.shown > 0 ? (
          props.children
        ) : (
          props.empty
        )}
      </Box>
      <Pager
        label={props.pager.label}
        total={pageCount(page)}
        value={page?.page ?? 1}
        onChange={props.pager.onChange}
        divided
      />
    </Paper>
  );
}
