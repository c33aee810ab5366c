import { Group, Pagination } from '@mantine/core';

const CONTROL_LABELS = {
  first: 'Primera página',
  previous: 'Página anterior',
  next: 'Página siguiente',
  last: 'Última página',
} as const;

/** Mantine's Pagination with Spanish labels inside a labelled navigation landmark (hidden for one page). */
export function Pager({
  label,
  total,
  value,
  onChange,
}: {
  label: string;
  total: number;
  value: number;
  onChange: (page: number) => void;
}) {
  if (total <= 1) return null;
  return (
    <Group component="nav" aria-label={label} justify="center" mt="lg">
      <Pagination
        total={total}
        value={Math.min(value, total)}
        onChange={onChange}
        getItemProps={(n) => ({ 'aria-label': `Página ${n}` })}
        getControlProps={(control) => ({ 'aria-label': CONTROL_LABELS[control] })}
      />
    </Group>
  );
}
