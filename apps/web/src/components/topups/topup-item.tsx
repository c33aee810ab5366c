/**
 * One budget top-up request (decision 0123) as the buyer's own list and the approvers' «Ampliaciones» show
 * it: what was asked for (the área's budget or the buyer's own, one category's in category mode), the
 * amount and month, the reason, when it was asked and what was decided. What goes beside it (the state,
 * or the approver's buttons) is the list's. Presentational: it reads nothing.
 */
import { Badge, Box, Group, Paper, Stack, Text } from '@mantine/core';
import type { TopupDto, TopupState } from '@portal/shared/schemas/areas';
import type { ReactNode } from 'react';
import { formatDateTime, formatMXN } from '../../lib/format';
import { monthLabel } from '../../lib/month-label';

const STATE: Record<TopupState, { label: string; color: string }> = {
  pendiente: { label: 'Pendiente', color: 'yellow' },
  aprobada: { label: 'Aprobada', color: 'teal' },
  rechazada: { label: 'Rechazada', color: 'red' },
};

export function TopupStateBadge({ estado }: { estado: TopupState }) {
  return (
    <Badge variant="light" color={STATE[estado].color} radius="sm" style={{ flexShrink: 0 }}>
      {STATE[estado].label}
    </Badge>
  );
}

/** What the request is for, in the words of its reader: the buyer's own ('tu') or an approver's ('su'). */
export function topupTargetText(r: Pick<TopupDto, 'area' | 'categoria'>, own: boolean): string {
  if (r.area) return `Presupuesto del área ${r.area.nombre} (${r.area.codigo})`;
  const whose = own ? 'Tu presupuesto' : 'Su presupuesto';
  return r.categoria ? `${whose} de ${r.categoria.nombre}` : whose;
}

/** Who decided and when, with the answer: 'Aprobó Rita Responsable el 03/04/2026 10:15: «Va»'. */
export function decisionText(r: TopupDto): string | null {
  if (r.estado === 'pendiente' || !r.decidido_en) return null;
  const verb = r.estado === 'aprobada' ? 'Aprobó' : 'Rechazó';
  const who = r.decidido_por ?? 'un autorizador';
  const answer = r.respuesta ? `: «${r.respuesta}»` : '';
  return `${verb} ${who} el ${formatDateTime(r.decidido_en)}${answer}`;
}

interface TopupItemProps {
  request: TopupDto;
  /** The buyer's own list: no name, 'Tu presupuesto'. */
  own?: boolean;
  aside: ReactNode;
}

export function TopupItem({ request: r, own = false, aside }: TopupItemProps) {
  const decided = decisionText(r);
  return (
    <Paper component="li" withBorder radius="md" p="sm" data-testid={`ampliacion-${r.id}`}>
      <Group justify="space-between" align="flex-start" gap="sm">
        <Stack gap={2} miw={0} style={{ flex: '1 1 16rem' }}>
          {own ? null : (
            <Text fw={700} truncate>
              {r.usuario.nombre}{' '}
              <Text span size="sm" c="dimmed" fw={400}>
                ({r.usuario.usuario})
              </Text>
            </Text>
          )}
          <Text size="sm" fw={own ? 600 : 400}>
            {topupTargetText(r, own)}
          </Text>
          <Group gap={6} wrap="wrap" style={{ fontVariantNumeric: 'tabular-nums' }}>
            <Text size="sm" fw={700}>
              +{formatMXN(r.importe)}
            </Text>
            <Text size="xs" c="dimmed">
              para {monthLabel(r.mes)}
            </Text>
          </Group>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            Motivo: {r.motivo}
          </Text>
          <Text size="xs" c="dimmed">
            Solicitada el {formatDateTime(r.created_at)}
            {decided ? `. ${decided}` : ''}
          </Text>
        </Stack>
        <Box style={{ flexShrink: 0 }}>{aside}</Box>
      </Group>
    </Paper>
  );
}
