import { Alert, type AlertProps, Badge, CloseButton, Group, List, Text } from '@mantine/core';
import { IconListCheck } from '@tabler/icons-react';
import { formatOrderNumber } from '../../lib/format';

/** One order of a bulk action: what it reached, or why it stayed where it was. */
export interface BulkResultItem {
  id: number;
  ok: boolean;
  /** The state reached, in words ('Aprobado', 'Enviado'). */
  done?: string;
  error?: string | null;
}

interface BulkResultSummaryProps extends Omit<AlertProps, 'title' | 'children'> {
  title: string;
  items: readonly BulkResultItem[];
  /** The badge of an order that did not go through ('No se procesó', 'No se movió'). */
  refusedLabel: string;
  onClose: () => void;
}

/** What a bulk action did, order by order (bulk approval, bulk fulfilment): one list, closed by the user. */
export function BulkResultSummary({ title, items, refusedLabel, onClose, ...props }: BulkResultSummaryProps) {
  const failed = items.some((r) => !r.ok);
  return (
    <Alert
      color={failed ? 'orange' : 'teal'}
      variant="light"
      icon={<IconListCheck size={20} aria-hidden />}
      title={title}
      role="status"
      {...props}
    >
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
        <List size="sm" spacing={4} style={{ flex: 1, minWidth: 0 }}>
          {items.map((r) => (
            <List.Item key={r.id}>
              <Group gap="xs" wrap="wrap">
                <Text span size="sm" ff="monospace" fw={600}>
                  {formatOrderNumber(r.id)}
                </Text>
                {r.ok ? (
                  <Badge color="teal" variant="light" size="sm">
                    {r.done}
                  </Badge>
                ) : (
                  <>
                    <Badge color="red" variant="light" size="sm">
                      {refusedLabel}
                    </Badge>
                    <Text span size="sm">
                      {r.error}
                    </Text>
                  </>
                )}
              </Group>
            </List.Item>
          ))}
        </List>
        <CloseButton aria-label="Cerrar resumen" onClick={onClose} />
      </Group>
    </Alert>
  );
}
