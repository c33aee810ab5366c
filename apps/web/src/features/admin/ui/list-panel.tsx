/**
 * The frame every administrator list shares: a header (the list's search box or title) with the
 * "Mostrando…" line, then the rows — or their loading, error and empty states — and the pager below.
 * The pages give the rows (a table, cards) as children; the frame decides which state shows.
 */
import { Box, type MantineSpacing, Paper, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { LoadError, LoadingRows } from '../../../components/ui/list-states';
import { Pager } from '../../../components/ui/pager';
import { DIVIDER, ListStatus } from './list-tools';

export interface ListPanelProps {
  /** Above the status line: the list's search box or its title. */
  header: ReactNode;
  headerGap?: MantineSpacing | number;
  /** The page the server answered (undefined until the first answer). */
  page?: { page: number; perPage: number; shown: number; total: number };
  /** Singular and plural of what the list holds ("Mostrando 1–10 de 42 usuarios"). */
  noun: [string, string];
  query: {
    isPending: boolean;
    isError: boolean;
    isFetching: boolean;
    error: unknown;
    refetch: () => unknown;
  };
  /** "Cargando …" of the loading rows, and how many. */
  loading: { label: string; rows?: number };
  /** "No se pudieron cargar …". */
  errorTitle: string;
  /** Shown when the page has no rows (a ListEmpty). */
  empty: ReactNode;
  pager: { label: string; total: number; value: number; onChange: (page: number) => void };
  /** The rows, shown when the page has any. */
  children: ReactNode;
}

export function ListPanel({
  header,
  headerGap = 'sm',
  page,
  noun,
  query,
  loading,
  ...props
}: ListPanelProps) {
  return (
    <Paper withBorder radius="lg" shadow="xs" style={{ overflow: 'hidden' }}>
      <Stack gap={headerGap} p={{ base: 'sm', sm: 'md' }}>
        {header}
        {page ? <ListStatus {...page} noun={noun} fetching={query.isFetching} /> : null}
      </Stack>
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
        total={props.pager.total}
        value={props.pager.value}
        onChange={props.pager.onChange}
        divided
      />
    </Paper>
  );
}
