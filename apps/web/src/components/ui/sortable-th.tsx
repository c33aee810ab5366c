/**
 * A column header that sorts its list on the server (decision 0067): a button in the header cell, the
 * cell's `aria-sort` saying how the list is sorted, an arrow for the sorted column and a faint double
 * arrow on the others. A click on the sorted column flips it; on another column it starts with
 * `firstDirection` (ascending for names, descending for dates and amounts). The list keeps `orden` in the
 * URL (`useSortParam` in lib/search-params.ts), which also sends the list back to page 1.
 */
import '@mantine/core/styles/Table.css';
import { Group, Table, type TableThProps, UnstyledButton } from '@mantine/core';
import { nextSort, type SortDirection, type SortValue, splitSort } from '@portal/shared/schemas/sort';
import { IconArrowDown, IconArrowsSort, IconArrowUp } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/** The field of a sort value: `ultimo_acceso` of `ultimo_acceso_desc`. */
type FieldOf<S extends string> = S extends `${infer F}_asc` ? F : S extends `${infer F}_desc` ? F : never;

interface SortableThProps<S extends string> extends Omit<TableThProps, 'onClick' | 'children'> {
  /** One of the list's fields. */
  field: FieldOf<S>;
  /** The list's sort now (one of its `listSort` values). */
  sort: S;
  onSort: (next: S) => void;
  firstDirection?: SortDirection;
  children: ReactNode;
}

export function SortableTh<S extends string>({
  field,
  sort,
  onSort,
  firstDirection = 'asc',
  children,
  ta,
  ...props
}: SortableThProps<S>) {
  const now = splitSort(sort as SortValue<FieldOf<S>>);
  const active = now.field === field;
  const Icon = !active ? IconArrowsSort : now.direction === 'asc' ? IconArrowUp : IconArrowDown;
  return (
    <Table.Th
      ta={ta}
      aria-sort={active ? (now.direction === 'asc' ? 'ascending' : 'descending') : 'none'}
      {...props}
    >
      <UnstyledButton
        onClick={() => onSort(nextSort(sort as SortValue<FieldOf<S>>, field, firstDirection) as S)}
        fz="inherit"
        fw="inherit"
        c="inherit"
        data-sort-field={field}
      >
        <Group gap={4} wrap="nowrap" justify={ta === 'right' ? 'flex-end' : 'flex-start'}>
          <span style={{ whiteSpace: 'nowrap' }}>{children}</span>
          <Icon size={14} aria-hidden style={{ opacity: active ? 1 : 0.45, flexShrink: 0 }} />
        </Group>
      </UnstyledButton>
    </Table.Th>
  );
}
