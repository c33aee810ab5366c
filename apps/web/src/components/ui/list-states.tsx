/** The states of a list besides its rows: loading, empty and failed. */
import {
  Alert,
  Button,
  EmptyState,
  type EmptyStateProps,
  type MantineRadius,
  Skeleton,
  Stack,
  type StackProps,
  Text,
} from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { errorMessage } from '../../lib/api';

interface LoadingRowsProps extends StackProps {
  label: string;
  rows?: number;
  /** Each bar's height: the height of the row it stands for, so nothing moves when the rows come. */
  height?: number;
  radius?: MantineRadius;
}

/** Grey bars where the rows will be, named for assistive technology. */
export function LoadingRows({ label, rows = 5, height = 36, radius = 'sm', ...stack }: LoadingRowsProps) {
  return (
    <Stack gap="xs" p="md" {...stack} role="status" aria-busy="true" aria-label={label}>
      {Array.from({ length: rows }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders
        <Skeleton key={i} height={height} radius={radius} />
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
