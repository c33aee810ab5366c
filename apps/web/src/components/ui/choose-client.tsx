import { EmptyState, Paper } from '@mantine/core';
import { IconBuildingStore } from '@tabler/icons-react';

/**
 * What a distributor's screen of one client shows until a client is chosen in the select above it:
 * `description` says what the screen will then do.
 */
export function ChooseClientFirst({ description }: { description: string }) {
  return (
    <Paper withBorder radius="lg" shadow="xs" p={{ base: 'lg', sm: 48 }}>
      <EmptyState
        color="indigo"
        variant="light"
        icon={<IconBuildingStore size={28} stroke={1.6} />}
        title="Elige un cliente para empezar"
        description={description}
      />
    </Paper>
  );
}
