import '@mantine/core/styles/Pagination.css';
import { Group, type GroupProps, Pagination, type PaginationProps } from '@mantine/core';

interface PagerProps extends Omit<GroupProps, 'onChange'> {
  /** The name of the navigation landmark, e.g. 'Páginas de usuarios'. */
  label: string;
  total: number;
  value: number;
  onChange: (page: number) => void;
  size?: PaginationProps['size'];
  /** At the foot of a table: padded, with a line above. */
  divided?: boolean;
}

/**
 * Every list's pager: Mantine's Pagination (its Spanish labels are theme defaults, app/theme.ts) inside a
 * labelled navigation landmark, hidden for one page. Spacing and borders come as Group props.
 */
export function Pager({ label, total, value, onChange, size, divided = false, ...group }: PagerProps) {
  if (total <= 1) return null;
  return (
    <Group
      component="nav"
      aria-label={label}
      justify="center"
      {...(divided ? { p: 'md', style: { borderTop: '1px solid var(--mantine-color-gray-3)' } } : {})}
      {...group}
    >
      <Pagination size={size} total={total} value={Math.min(value, total)} onChange={onChange} />
    </Group>
  );
}
