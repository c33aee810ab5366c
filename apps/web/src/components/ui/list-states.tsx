/** The states of a list besides its rows: loading, empty and failed. */
import { Alert, Button, EmptyState, type EmptyStateProps, Skeleton, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { errorMessage } from '../../lib/api';

/** Grey bars where the rows will be, named for assistive technology. */
export function LoadingRows({ label, rows = 5 }: { label: string; rows?: number }) {
  return (
    <Stack gap="xs" p="md" role="status" aria-busy="true" aria-label={label}>
      {Array.from({ length: rows }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders
        <Skeleton key={i} height={36} radius="sm" />
      ))}
    </Stack>
  );
}

/** Why the list could not be loaded, with 'Reintentar'. */
export function LoadError({ title, error, onRetry }: { title: string; error: unknown; onRetry: () => void }) {
  return (
    <Alert m="md" color="red" variant="light" title={title} icon={<IconAlertTriangle size={18} />}>
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{errorMessage(error)}</Text>
        <Button size="xs" variant="white" color="red" onClick={onRetry}>
          Reintentar
        </Button>
      </Stack>
    </Alert>
  );
}

/** No rows (none yet, or none match the search) inside a list's frame. */
export function ListEmpty(props: EmptyStateProps) {
  return <EmptyState py={48} px="md" color="indigo" variant="light" {...props} />;
}
