/**
 * Bulk approve and cancel on the order list (docs/domain.md "Bulk approve and cancel"): the sticky bar
 * with what the selection would do, the confirmations with count and sum, and the per-order summary of a
 * call. Each order is approved as it stands; an order that would exceed its buyer's budget is never sent
 * for approval (it may be cancelled).
 */
import { Button, Group, Modal, Paper, Stack, Text, Textarea } from '@mantine/core';
import { IconBan, IconCheck } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { BulkResultSummary } from '../../../components/ui/bulk-result-summary';
import { Refusal } from '../../../components/ui/refusal';
import { errorMessage } from '../../../lib/api';
import { formatMXN, formatOrderNumber, plural } from '../../../lib/format';
import {
  type AuthorizerOrderRow,
  authorizerKeys,
  type BulkResponse,
  bulkApprove,
  bulkCancel,
} from '../api/orders';
import { bulkOutcome, bulkSummaryTitle } from '../lib/bulk-outcome';
import { MOTIVO_MAX } from './workflow-dialogs';

export type BulkAction = 'aprobar' | 'cancelar';

/** Sum of totals in pesos, in centavos so that no float drifts. */
export function sumPesos(rows: readonly AuthorizerOrderRow[]): number {
  return rows.reduce((s, r) => s + Math.round(r.total * 100), 0) / 100;
}

interface BulkBarProps {
  selected: AuthorizerOrderRow[];
  onApprove: () => void;
  onCancel: () => void;
  onClear: () => void;
}

/** At the foot of the list while something is selected: 'Aprobar (n) · $total' and 'Cancelar (n)'. */
export function BulkBar({ selected, onApprove, onCancel, onClear }: BulkBarProps) {
  if (selected.length === 0) return null;
  const approvable = selected.filter((r) => !r.excede_presupuesto);
  const over = selected.length - approvable.length;
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
      data-testid="barra-lote"
    >
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Stack gap={0}>
          <Text size="sm" fw={600} aria-live="polite">
            {plural(selected.length, 'pedido seleccionado', 'pedidos seleccionados')}
          </Text>
          {over > 0 ? (
            <Text size="xs" c="red.9">
              {over === 1
                ? '1 excede el presupuesto de su usuario: solo se puede cancelar.'
                : `${over} exceden el presupuesto de su usuario: solo se pueden cancelar.`}
            </Text>
          ) : null}
        </Stack>
        <Group gap="xs" wrap="wrap">
          <Button variant="subtle" color="gray" size="sm" onClick={onClear}>
            Quitar selección
          </Button>
          <Button
            color="red"
            variant="light"
            size="sm"
            leftSection={<IconBan size={16} aria-hidden />}
            onClick={onCancel}
          >
            Cancelar ({selected.length})
          </Button>
          <Button
            color="teal"
            size="sm"
            leftSection={<IconCheck size={16} aria-hidden />}
            onClick={onApprove}
            disabled={approvable.length === 0}
          >
            Aprobar ({approvable.length}) · {formatMXN(sumPesos(approvable))}
          </Button>
        </Group>
      </Group>
    </Paper>
  );
}

interface BulkDialogProps {
  opened: boolean;
  onClose: () => void;
  pending: boolean;
  rows: AuthorizerOrderRow[];
  /** The refusal of the whole call (the dialog stays open), above its buttons. */
  refusal: string | null;
}

function OrderNumbers({ rows }: { rows: AuthorizerOrderRow[] }) {
  return (
    <Text size="sm" c="dimmed" style={{ wordBreak: 'break-word' }}>
      {rows.map((r) => formatOrderNumber(r.id)).join(', ')}
    </Text>
  );
}

/** Confirms a bulk approval: how many, how much, and what happens next. */
export function BulkApproveDialog(props: BulkDialogProps & { onConfirm: () => void; outcome: string }) {
  const { opened, onClose, pending, rows, onConfirm, outcome, refusal } = props;
  return (
    <Modal
      opened={opened}
      onClose={() => !pending && onClose()}
      title={`¿Aprobar ${plural(rows.length, 'pedido', 'pedidos')} por ${formatMXN(sumPesos(rows))}?`}
      centered
      closeButtonProps={{ 'aria-label': 'Cerrar' }}
    >
      <Stack gap="md">
        <OrderNumbers rows={rows} />
        <Text size="sm">
          Se aprobarán tal como están, sin cambios en las cantidades. {outcome} Cada pedido se procesa por
          separado: si alguno no se puede aprobar, los demás sí se aprueban.
        </Text>
        <Refusal error={refusal} />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={pending}>
            Volver
          </Button>
          <Button
            color="teal"
            onClick={onConfirm}
            loading={pending}
            leftSection={<IconCheck size={18} aria-hidden />}
            data-autofocus
          >
            Aprobar {rows.length}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Confirms a bulk cancellation, with one optional reason for every order. */
export function BulkCancelDialog(props: BulkDialogProps & { onConfirm: (motivo: string) => void }) {
  const { opened, onClose, pending, rows, onConfirm, refusal } = props;
  const [motivo, setMotivo] = useState('');
  return (
    <Modal
      opened={opened}
      onClose={() => !pending && onClose()}
      title={`¿Cancelar ${plural(rows.length, 'pedido', 'pedidos')} por ${formatMXN(sumPesos(rows))}?`}
      centered
      closeButtonProps={{ 'aria-label': 'Cerrar' }}
      onExitTransitionEnd={() => setMotivo('')}
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          onConfirm(motivo);
        }}
      >
        <Stack gap="md">
          <OrderNumbers rows={rows} />
          <Text size="sm">
            Dejarán de contar contra el presupuesto de sus usuarios y se les avisará por correo. Esta acción
            no se puede deshacer.
          </Text>
          <Textarea
            label="Motivo (opcional)"
            description="Cada usuario verá este motivo en el detalle de su pedido."
            placeholder="Por ejemplo: pedidos duplicados"
            value={motivo}
            onChange={(e) => setMotivo(e.currentTarget.value.slice(0, MOTIVO_MAX))}
            maxLength={MOTIVO_MAX}
            autosize
            minRows={2}
            maxRows={5}
            data-autofocus
          />
          <Refusal error={refusal} />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose} disabled={pending}>
              Volver
            </Button>
            <Button
              type="submit"
              color="red"
              loading={pending}
              leftSection={<IconBan size={18} aria-hidden />}
            >
              Cancelar {rows.length}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

const DONE: Record<string, string> = {
  aprobado: 'Aprobado',
  espera: 'En espera del segundo nivel',
  cancelado: 'Cancelado',
};

/** What a bulk call did, order by order: which went through and which did not, and why. */
export function BulkSummary({
  result,
  action,
  onClose,
}: {
  result: BulkResponse;
  action: BulkAction;
  onClose: () => void;
}) {
  return (
    <BulkResultSummary
      title={bulkSummaryTitle(result.resultados, action)}
      items={result.resultados.map((r) => ({ ...r, done: DONE[r.estatus ?? ''] ?? r.estatus ?? '' }))}
      refusedLabel="No se procesó"
      onClose={onClose}
      m="md"
      mb={0}
      data-testid="resumen-lote"
    />
  );
}

/**
 * The bar and the two confirmations over the selected orders (the ones the user can act on): sends the
 * call, keeps a refusal in the dialog, and gives `onDone` what happened to each order.
 */
export function OrdersBulk({
  selected,
  levels,
  onClear,
  onDone,
}: {
  selected: AuthorizerOrderRow[];
  /** The client's authorization levels: what an approval leads to. */
  levels: number;
  onClear: () => void;
  onDone: (result: BulkResponse, action: BulkAction) => void;
}) {
  const queryClient = useQueryClient();
  const [dialog, setDialog] = useState<BulkAction | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const approveRows = selected.filter((r) => !r.excede_presupuesto);
  const bulk = useMutation({
    mutationFn: (input: { action: BulkAction; ids: number[]; motivo?: string }) =>
      input.action === 'aprobar' ? bulkApprove(input.ids) : bulkCancel(input.ids, input.motivo ?? ''),
    onSuccess: (result, input) => {
      onDone(result, input.action);
      setDialog(null);
      void queryClient.invalidateQueries({ queryKey: authorizerKeys.all });
    },
    onError: (err) => setRefusal(errorMessage(err)),
  });
  const open = (action: BulkAction) => {
    setRefusal(null);
    setDialog(action);
  };
  return (
    <>
      <BulkBar
        selected={selected}
        onApprove={() => open('aprobar')}
        onCancel={() => open('cancelar')}
        onClear={onClear}
      />
      <BulkApproveDialog
        opened={dialog === 'aprobar'}
        onClose={() => setDialog(null)}
        pending={bulk.isPending}
        rows={approveRows}
        refusal={refusal}
        outcome={bulkOutcome(approveRows, levels)}
        onConfirm={() => bulk.mutate({ action: 'aprobar', ids: approveRows.map((r) => r.id) })}
      />
      <BulkCancelDialog
        opened={dialog === 'cancelar'}
        onClose={() => setDialog(null)}
        pending={bulk.isPending}
        rows={selected}
        refusal={refusal}
        onConfirm={(motivo) => bulk.mutate({ action: 'cancelar', ids: selected.map((r) => r.id), motivo })}
      />
    </>
  );
}
