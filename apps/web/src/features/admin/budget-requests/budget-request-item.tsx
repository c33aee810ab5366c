/**
 * One budget asked above a client's cap (decision 0122), as both lists show it: the user, the client (for
 * the distributor), the budget it had → the one asked for (per category too), who asked and when, and who
 * decided and when. What goes beside it (the state, or the distributor's buttons) is the list's.
 */
import { Badge, Box, Group, Paper, Stack, Text, VisuallyHidden } from '@mantine/core';
import { BUDGET_REQUEST_STATE_NAMES, type BudgetRequestState } from '@portal/shared/domain/client-admin';
import type { BudgetRequestDto } from '@portal/shared/schemas/budget-requests';
import { IconArrowRight } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { formatDateTime, formatMXN } from '../../../lib/format';

const STATE_COLOR: Record<BudgetRequestState, string> = {
  pendiente: 'yellow',
  aprobada: 'teal',
  rechazada: 'red',
  reemplazada: 'gray',
};

export function BudgetRequestBadge({ estado }: { estado: BudgetRequestState }) {
  return (
    <Badge variant="light" color={STATE_COLOR[estado]} radius="sm" style={{ flexShrink: 0 }}>
      {BUDGET_REQUEST_STATE_NAMES[estado]}
    </Badge>
  );
}

function decidedText(r: BudgetRequestDto): string | null {
  if (!r.decidido_en) return null;
  const when = formatDateTime(r.decidido_en);
  if (r.estado === 'aprobada') return `Aprobó ${r.decidido_por ?? 'el distribuidor'} el ${when}`;
  if (r.estado === 'rechazada') return `Rechazó ${r.decidido_por ?? 'el distribuidor'} el ${when}`;
  return `Reemplazada el ${when}`;
}

export function BudgetRequestItem({
  request: r,
  showClient,
  aside,
}: {
  request: BudgetRequestDto;
  /** The distributor's list, of every client: the client's name under the user's. */
  showClient: boolean;
  aside: ReactNode;
}) {
  const decided = decidedText(r);
  return (
    <Paper component="li" withBorder radius="md" p="sm" data-testid={`solicitud-${r.usuario.usuario}`}>
      <Group justify="space-between" align="flex-start" gap="sm">
        <Stack gap={2} miw={0} style={{ flex: '1 1 16rem' }}>
          <Text fw={700} truncate>
            {r.usuario.nombre}
          </Text>
          <Text size="sm" c="dimmed" truncate>
            {r.usuario.usuario}
            {showClient ? ` · ${r.cliente.nombre}` : ''}
          </Text>
          <Group gap={6} mt={4} wrap="wrap" style={{ fontVariantNumeric: 'tabular-nums' }}>
            <Text size="sm" c="dimmed">
              {formatMXN(r.presupuesto_anterior)}
            </Text>
            <IconArrowRight size={14} aria-hidden />
            <VisuallyHidden>a</VisuallyHidden>
            <Text size="sm" fw={700}>
              {formatMXN(r.presupuesto)}
            </Text>
            <Text size="xs" c="dimmed">
              al mes
            </Text>
          </Group>
          {r.categorias?.length ? (
            <Text size="xs" c="dimmed">
              Por categoría: {r.categorias.map((c) => `${c.nombre} ${formatMXN(c.presupuesto)}`).join(' · ')}
            </Text>
          ) : null}
          <Text size="xs" c="dimmed">
            Pidió {r.solicitado_por} el {formatDateTime(r.created_at)}
            {decided ? `. ${decided}` : ''}
          </Text>
        </Stack>
        <Box style={{ flexShrink: 0 }}>{aside}</Box>
      </Group>
    </Paper>
  );
}
