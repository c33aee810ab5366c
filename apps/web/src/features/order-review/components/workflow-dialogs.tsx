import { Button, Group, List, Modal, Radio, Stack, Text, Textarea } from '@mantine/core';
import { COMENTARIO_MAX } from '@portal/shared/limits';
import { MSG } from '@portal/shared/messages';
import { IconArrowBackUp, IconBan, IconCheck } from '@tabler/icons-react';
import { useState } from 'react';
import {
  CANCEL_PRESETS,
  type CancelChoice,
  cancelReason,
  OTHER_LABEL,
  OTHER_REASON,
} from '../lib/cancel-reasons';

export const MOTIVO_MAX = 255;

interface ApproveDialogProps {
  opened: boolean;
  onClose: () => void;
  /** Confirms with the optional comment saved with the approval (decision 0047). */
  onConfirm: (comentario: string) => void;
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
  const [comentario, setComentario] = useState('');
  return (
    <Modal
      opened={opened}
      onClose={() => !pending && onClose()}
      title={`¿Aprobar el pedido ${numero}?`}
      centered
      closeButtonProps={{ 'aria-label': 'Cerrar' }}
      onExitTransitionEnd={() => setComentario('')}
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
        <Textarea
          label="Comentario (opcional)"
          description="Se agrega a los comentarios del pedido; el comprador lo verá."
          placeholder="Por ejemplo: se aprueba sin el tóner, ya hay existencia"
          value={comentario}
          onChange={(e) => setComentario(e.currentTarget.value)}
          maxLength={COMENTARIO_MAX}
          autosize
          minRows={2}
          maxRows={6}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={pending}>
            Volver
          </Button>
          <Button
            color="teal"
            onClick={() => onConfirm(comentario)}
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

/**
 * Cancel with an optional reason the buyer sees: one of the presets, or "Otro…" with its text (≤ 255
 * characters, required then).
 */
export function CancelDialog(props: CancelDialogProps) {
  const { opened, onClose, onConfirm, pending, numero, comprador, discardsEdits } = props;
  const [choice, setChoice] = useState<CancelChoice>('');
  const [motivo, setMotivo] = useState('');
  const [error, setError] = useState<string | null>(null);
  return (
    <Modal
      opened={opened}
      onClose={() => !pending && onClose()}
      title={`Cancelar el pedido ${numero}`}
      centered
      closeButtonProps={{ 'aria-label': 'Cerrar' }}
      onExitTransitionEnd={() => {
        setChoice('');
        setMotivo('');
        setError(null);
      }}
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          const reason = cancelReason(choice, motivo);
          if (!reason.ok) {
            setError(reason.error);
            return;
          }
          onConfirm(reason.motivo);
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
          <Radio.Group
            label="Motivo (opcional)"
            description="El usuario verá este motivo en el detalle de su pedido."
            value={choice}
            onChange={(v) => {
              setChoice(v as CancelChoice);
              setError(null);
            }}
          >
            <Stack gap={8} mt="xs">
              {CANCEL_PRESETS.map((p) => (
                <Radio key={p} value={p} label={p} />
              ))}
              <Radio value={OTHER_REASON} label={OTHER_LABEL} />
            </Stack>
          </Radio.Group>
          {choice === OTHER_REASON ? (
            <>
              <Textarea
                label="Escribe el motivo"
                placeholder="Por ejemplo: ya se surtió por otro medio"
                value={motivo}
                onChange={(e) => {
                  setMotivo(e.currentTarget.value.slice(0, MOTIVO_MAX));
                  setError(null);
                }}
                maxLength={MOTIVO_MAX}
                error={error}
                autosize
                minRows={3}
                maxRows={6}
                withAsterisk
                data-autofocus
              />
              <Text size="xs" c="dimmed" ta="right" mt={-10} aria-live="polite">
                {motivo.length}/{MOTIVO_MAX}
              </Text>
            </>
          ) : null}
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

interface ReturnDialogProps {
  opened: boolean;
  onClose: () => void;
  onConfirm: (comentario: string) => void;
  pending: boolean;
  numero: string;
}

/**
 * Send the order back to level 1 (decision 0111): a required comment that says what to correct. It joins the
 * order's comments, and the Autorizador who gave the first approval gets it by e-mail.
 */
export function ReturnDialog({ opened, onClose, onConfirm, pending, numero }: ReturnDialogProps) {
  const [comentario, setComentario] = useState('');
  const [error, setError] = useState<string | null>(null);
  return (
    <Modal
      opened={opened}
      onClose={() => !pending && onClose()}
      title={`Devolver el pedido ${numero} al primer nivel`}
      centered
      closeButtonProps={{ 'aria-label': 'Cerrar' }}
      onExitTransitionEnd={() => {
        setComentario('');
        setError(null);
      }}
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!comentario.trim()) {
            setError(MSG.comentarioVacio);
            return;
          }
          onConfirm(comentario);
        }}
      >
        <Stack gap="md">
          <Text size="sm">
            El pedido vuelve a «Pendiente» para que el Autorizador lo corrija y lo vuelva a autorizar, o lo
            cancele. Sigue contando contra el presupuesto del comprador.
          </Text>
          <Textarea
            label="Qué debe corregirse"
            description="Se agrega a los comentarios del pedido (el comprador también lo verá) y se envía por correo al Autorizador."
            placeholder="Por ejemplo: quita las sillas, ya llegaron por otro pedido"
            value={comentario}
            onChange={(e) => {
              setComentario(e.currentTarget.value);
              setError(null);
            }}
            maxLength={COMENTARIO_MAX}
            error={error}
            autosize
            minRows={3}
            maxRows={6}
            withAsterisk
            data-autofocus
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose} disabled={pending}>
              Volver
            </Button>
            <Button type="submit" loading={pending} leftSection={<IconArrowBackUp size={18} aria-hidden />}>
              Devolver al primer nivel
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
