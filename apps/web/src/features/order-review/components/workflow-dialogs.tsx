import { Button, Group, List, Modal, Stack, Text, Textarea } from '@mantine/core';
import { IconBan, IconCheck } from '@tabler/icons-react';
import { useState } from 'react';

export const MOTIVO_MAX = 255;

interface ApproveDialogProps {
  opened: boolean;
  onClose: () => void;
  onConfirm: () => void;
  pending: boolean;
  numero: string;
  /** What happens next, in the user's words. */
  outcome: string;
  /** The edits that will be saved (empty: none). */
  changes: string[];
  warning: string | null;
}

export function ApproveDialog(props: ApproveDialogProps) {
  const { opened, onClose, onConfirm, pending, numero, outcome, changes, warning } = props;
  return (
    <Modal
      opened={opened}
      onClose={() => !pending && onClose()}
      title={`¿Aprobar el pedido ${numero}?`}
      centered
      closeButtonProps={{ 'aria-label': 'Cerrar' }}
    >
      <Stack gap="md">
        <Text size="sm">{outcome}</Text>
        {changes.length > 0 ? (
          <div>
            <Text size="sm" fw={600} mb={4}>
              Se guardarán tus cambios:
            </Text>
            <List size="sm" spacing={2}>
              {changes.map((c) => (
                <List.Item key={c}>{c}</List.Item>
              ))}
            </List>
          </div>
        ) : null}
        {warning ? (
          <Text size="sm" c="orange">
            {warning}
          </Text>
        ) : null}
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
            Aprobar
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

interface CancelDialogProps {
  opened: boolean;
  onClose: () => void;
  onConfirm: (motivo: string) => void;
  pending: boolean;
  numero: string;
  comprador: string;
  discardsEdits: boolean;
}

/** Cancel with an optional reason (≤ 255 characters) that the buyer sees. */
export function CancelDialog(props: CancelDialogProps) {
  const { opened, onClose, onConfirm, pending, numero, comprador, discardsEdits } = props;
  const [motivo, setMotivo] = useState('');
  return (
    <Modal
      opened={opened}
      onClose={() => !pending && onClose()}
      title={`Cancelar el pedido ${numero}`}
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
          <Text size="sm">
            El pedido dejará de contar contra el presupuesto de {comprador} y se le avisará por correo. Esta
            acción no se puede deshacer.
          </Text>
          {discardsEdits ? (
            <Text size="sm" c="orange">
              Los cambios que hiciste en las cantidades se descartarán.
            </Text>
          ) : null}
          <Textarea
            label="Motivo (opcional)"
            description="El usuario verá este motivo en el detalle de su pedido."
            placeholder="Por ejemplo: ya se surtió por otro medio"
            value={motivo}
            onChange={(e) => setMotivo(e.currentTarget.value.slice(0, MOTIVO_MAX))}
            maxLength={MOTIVO_MAX}
            autosize
            minRows={3}
            maxRows={6}
            data-autofocus
          />
          <Text size="xs" c="dimmed" ta="right" mt={-10} aria-live="polite">
            {motivo.length}/{MOTIVO_MAX}
          </Text>
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
              Cancelar pedido
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
