/**
 * Fulfilment in bulk on the "Surtido" queue (docs/domain.md "Fulfilment", decision 0094): the bar that moves
 * the selected orders together and the summary of what happened to each one (the guías file dialog is
 * guias-dialog.tsx, loaded when opened).
 */
import { Button, Group, Menu, Paper, Text } from '@mantine/core';
import {
  FULFILMENT_LABELS,
  type FulfilmentState,
  nextFulfilmentStates,
} from '@portal/shared/domain/fulfilment';
import type { BulkFulfilmentResponse } from '@portal/shared/schemas/fulfilment';
import { IconChevronUp, IconListCheck } from '@tabler/icons-react';
import { BulkResultSummary } from '../../../components/ui/bulk-result-summary';
import { plural } from '../../../lib/format';
import type { PickListFormat } from './api';

/**
 * At the foot of the queue while orders are selected: how many, their pick list (PDF or CSV) and 'Mover
 * a…' any later state.
 */
export function BulkMoveBar({
  count,
  busy,
  picking,
  onMove,
  onPickList,
  onClear,
}: {
  count: number;
  busy: boolean;
  picking: boolean;
  onMove: (estado: FulfilmentState) => void;
  onPickList: (formato: PickListFormat) => void;
  onClear: () => void;
}) {
  if (count === 0) return null;
  return (
    <Paper
      pos="sticky"
      bottom={0}
      withBorder
      shadow="md"
      radius="md"
      p="sm"
      mt="sm"
      style={{ zIndex: 5 }}
      role="region"
      aria-label="Acciones sobre los pedidos seleccionados"
      data-testid="barra-surtido"
    >
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Text size="sm" fw={600} aria-live="polite">
          {plural(count, 'pedido seleccionado', 'pedidos seleccionados')}
        </Text>
        <Group gap="xs" wrap="wrap">
          <Button variant="subtle" color="gray" size="sm" onClick={onClear}>
            Quitar selección
          </Button>
          <Menu position="top-end" withinPortal>
            <Menu.Target>
              <Button
                size="sm"
                variant="default"
                loading={picking}
                leftSection={<IconListCheck size={16} aria-hidden />}
                rightSection={<IconChevronUp size={14} aria-hidden />}
              >
                Lista de surtido
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Label>Por producto, con los pedidos que surte</Menu.Label>
              <Menu.Item onClick={() => onPickList('pdf')}>PDF para imprimir</Menu.Item>
              <Menu.Item onClick={() => onPickList('csv')}>CSV (hoja de cálculo)</Menu.Item>
            </Menu.Dropdown>
          </Menu>
          <Menu position="top-end" withinPortal>
            <Menu.Target>
              <Button size="sm" loading={busy} rightSection={<IconChevronUp size={14} aria-hidden />}>
                Mover seleccionados a…
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Label>Cada pedido avanza por su cuenta</Menu.Label>
              {/* Every state after por_surtir but «Envío parcial», which only a shipment of some units reaches. */}
              {nextFulfilmentStates('por_surtir').map((estado) => (
                <Menu.Item key={estado} onClick={() => onMove(estado)}>
                  {FULFILMENT_LABELS[estado]}
                </Menu.Item>
              ))}
            </Menu.Dropdown>
          </Menu>
        </Group>
      </Group>
    </Paper>
  );
}

/** What a bulk move did, order by order: the state it reached, or why it stayed where it was. */
export function BulkMoveSummary({
  result,
  onClose,
}: {
  result: BulkFulfilmentResponse;
  onClose: () => void;
}) {
  const ok = result.resultados.filter((r) => r.ok).length;
  const failed = result.resultados.length - ok;
  const title =
    failed === 0
      ? `${plural(ok, 'pedido movido', 'pedidos movidos')}`
      : `${ok} de ${plural(result.resultados.length, 'pedido movido', 'pedidos movidos')}; ${plural(failed, 'no se movió', 'no se movieron')}`;
  return (
    <BulkResultSummary
      title={title}
      items={result.resultados.map((r) => ({
        ...r,
        ok: r.ok && !!r.estado,
        done: r.estado ? FULFILMENT_LABELS[r.estado] : undefined,
      }))}
      refusedLabel="No se movió"
      onClose={onClose}
      mb="md"
      data-testid="resumen-surtido"
    />
  );
}
