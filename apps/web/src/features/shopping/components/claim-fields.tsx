/**
 * What the receipt and the claim dialogs share (decision 0127): their frame (a dialog full screen at phone
 * width, with its refusal above the buttons), «¿Qué solicitas?» (reposición or crédito), the note and the
 * photos, and the state behind them.
 */
import { Modal, NumberInput, Paper, Select, SimpleGrid, Stack, Text, Textarea } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { CLAIM_NOTE_MAX, type ClaimResolution } from '@portal/shared/domain/claims';
import { type ReactNode, useState } from 'react';
import { ClaimResolutionField } from '../../../components/orders/claim-resolution-field';
import { showSuccess } from '../../../components/ui/alerts';
import { DialogActions, type DialogActionsProps } from '../../../components/ui/dialog-actions';
import { errorMessage, isApiError } from '../../../lib/api';
import type { ReceiptRoutes } from '../api/claims';
import type { DraftErrors, UnitsValue } from '../lib/claims';
import { ClaimPhotosField, useClaimPhotos } from './claim-photos';

/** The note, the photos and the resolution of one dialog, and whether it tried to send. */
export function useClaimExtras(idPedido: number, routes?: ReceiptRoutes) {
  const [nota, setNota] = useState('');
  const [resolucion, setResolucion] = useState<ClaimResolution | null>(null);
  // Missing choices are said once the buyer tries to send, not while they fill the form.
  const [tried, setTried] = useState(false);
  const photos = useClaimPhotos(idPedido, routes);
  // A receiver (decision 0130) receives another person's order: the budget is the buyer's, not theirs.
  const forReceiver = routes === '/api/recepcion';
  return { nota, setNota, resolucion, setResolucion, tried, setTried, photos, forReceiver };
}
export type ClaimExtrasState = ReturnType<typeof useClaimExtras>;

/** The values the pure checks take. */
export const extrasOf = (s: ClaimExtrasState) => ({
  nota: s.nota,
  resolucion: s.resolucion,
  fotos: s.photos.ids,
});

/** «¿Qué solicitas?», the note and the photos. */
export function ClaimExtrasFields({
  state,
  errors,
  withResolution,
}: {
  state: ClaimExtrasState;
  errors: DraftErrors;
  /** The receipt asks for it only when a line arrived short. */
  withResolution: boolean;
}) {
  return (
    <>
      {withResolution ? (
        <ClaimResolutionField
          label="¿Qué solicitas?"
          value={state.resolucion}
          onChange={state.setResolucion}
          descriptions={
            state.forReceiver
              ? {
                  reposicion: 'Envían de nuevo esas unidades, sin cargo al presupuesto de quien compró.',
                  credito: 'El importe de esas unidades regresa al presupuesto de quien compró.',
                }
              : {
                  reposicion: 'Te envían de nuevo esas unidades, sin cargo a tu presupuesto.',
                  credito: 'El importe de esas unidades regresa a tu presupuesto.',
                }
          }
          error={state.tried ? errors.resolucion : undefined}
          required
        />
      ) : null}
      <Textarea
        label="Nota (opcional)"
        placeholder="Ej. La caja llegó mojada y dos paquetes rotos."
        autosize
        minRows={2}
        maxRows={6}
        value={state.nota}
        onChange={(e) => state.setNota(e.currentTarget.value)}
        error={errors.nota}
        description={`Hasta ${CLAIM_NOTE_MAX} caracteres.`}
      />
      <ClaimPhotosField photos={state.photos} />
    </>
  );
}

/**
 * A dialog of the buyer's receipt or claim: full screen on phones; the server's refusal above its buttons
 * (a 409 — received or claimed already — reloads the order behind it).
 */
export function ClaimDialogFrame({
  title,
  onClose,
  actions,
  refusal,
  children,
}: {
  title: string;
  onClose: () => void;
  actions: Omit<DialogActionsProps, 'onCancel' | 'error'>;
  refusal: string | null;
  children: ReactNode;
}) {
  const phone = useMediaQuery('(max-width: 36em)') ?? false;
  return (
    <Modal
      opened
      onClose={() => !actions.busy && onClose()}
      title={title}
      centered
      size="lg"
      fullScreen={phone}
      closeButtonProps={{ 'aria-label': 'Cerrar' }}
    >
      <Stack gap="md">
        {children}
        <DialogActions {...actions} error={refusal} onCancel={onClose} />
      </Stack>
    </Modal>
  );
}

/** A dialog's answer: the server's words as a notification and the dialog closed, or its refusal inside it. */
export function useDialogOutcome(title: string, onClose: () => void) {
  const [refusal, setRefusal] = useState<string | null>(null);
  return {
    refusal,
    clear: () => setRefusal(null),
    handlers: {
      onSuccess: (res: { msg: string }) => {
        showSuccess(title, res.msg);
        onClose();
      },
      onError: (error: unknown) => {
        // A session that ended sends the app to the sign-in screen: nothing to show here.
        if (isApiError(error) && error.status === 401) onClose();
        else setRefusal(errorMessage(error));
      },
    },
  };
}

/**
 * One line of a receipt or a claim: the product and a hint, a number of units and, once it calls for one,
 * the reason (its problem said once the buyer tried to send).
 */
export function UnitsAndReason({
  nombre,
  hint,
  label,
  max,
  units,
  onUnits,
  motivo,
  onMotivo,
  asksReason,
  options,
  errors,
  tried,
  testId,
}: {
  nombre: string;
  hint: string;
  /** The number's label ('Recibidas en buen estado'); its accessible name adds the product. */
  label: string;
  max: number;
  units: UnitsValue;
  onUnits: (v: UnitsValue) => void;
  motivo: string | null;
  onMotivo: (v: string | null) => void;
  asksReason: boolean;
  options: { value: string; label: string }[];
  errors: { cantidad?: string; motivo?: string } | undefined;
  tried: boolean;
  testId: string;
}) {
  return (
    <Paper withBorder radius="sm" p="sm" data-testid={testId}>
      <Text size="sm" fw={600}>
        {nombre}
      </Text>
      <Text size="xs" c="dimmed" mb={6}>
        {hint}
      </Text>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs">
        <NumberInput
          label={label}
          aria-label={`${label} de ${nombre}`}
          min={0}
          max={max}
          allowDecimal={false}
          allowNegative={false}
          value={units}
          onChange={onUnits}
          error={errors?.cantidad}
        />
        {asksReason ? (
          <Select
            label="Motivo"
            aria-label={`Motivo de ${nombre}`}
            placeholder="Elige el motivo"
            data={options}
            value={motivo}
            onChange={onMotivo}
            error={tried ? errors?.motivo : undefined}
            withAsterisk
            comboboxProps={{ withinPortal: true }}
          />
        ) : null}
      </SimpleGrid>
    </Paper>
  );
}
