/**
 * «Tus solicitudes de ampliación» on the buyer's catalogue (decision 0123): its latest budget top-up
 * requests with their state and, once decided, who decided and the answer. Nothing when it has none.
 */
import { Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useId } from 'react';
import { TopupItem, TopupStateBadge } from '../../../components/topups/topup-item';
import { useOwnTopups } from '../api/topups';

/** How many of the latest requests are shown. */
const SHOWN = 3;

export function OwnTopups() {
  const query = useOwnTopups();
  const titleId = useId();
  const rows = query.data?.ampliaciones ?? [];
  if (rows.length === 0) return null;
  const pending = rows.filter((r) => r.estado === 'pendiente').length;
  return (
    <Paper
      withBorder
      radius="md"
      p={{ base: 'sm', sm: 'md' }}
      shadow="xs"
      mb="lg"
      component="section"
      aria-labelledby={titleId}
    >
      <Group justify="space-between" gap="xs" mb="sm">
        <Title order={2} fz="md" id={titleId}>
          Tus solicitudes de ampliación
        </Title>
        {pending > 0 ? (
          <Text size="xs" c="dimmed">
            {pending === 1 ? '1 pendiente' : `${pending} pendientes`}
          </Text>
        ) : null}
      </Group>
      <Stack component="ul" gap="xs" m={0} p={0} style={{ listStyle: 'none' }}>
        {rows.slice(0, SHOWN).map((r) => (
          <TopupItem key={r.id} request={r} own aside={<TopupStateBadge estado={r.estado} />} />
        ))}
      </Stack>
    </Paper>
  );
}
