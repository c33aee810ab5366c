/**
 * The operator's decision on a claim (decision 0127), on the «Reclamos» list and on the order's page: the
 * buttons the claim's state allows — «Aceptar» (Reposición or Crédito, what the buyer asked for chosen
 * first, and a note), «Pedir devolución» (guía, paquetería, note), «Rechazar» (the reason) — and their
 * dialog. The server's message follows as a notification; a claim someone decided first (409) says so in the
 * dialog while the list and the order are read again.
 */
import { Autocomplete, Button, Group, Modal, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { CLAIM_REASON_LABELS, CLAIM_RESOLUTION_LABELS, type ClaimAction } from '@portal/shared/domain/claims';
import { CARRIERS } from '@portal/shared/domain/fulfilment';
import type { ClaimDto } from '@portal/shared/schemas/claims';
import { IconArrowBackUp, IconCheck, IconX } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { ClaimResolutionField } from '../../../components/orders/claim-resolution-field';
import { showSuccess } from '../../../components/ui/alerts';
import { DialogActions } from '../../../components/ui/dialog-actions';
import { errorMessage, isApiError } from '../../../lib/api';
import { formatOrderNumber } from '../../../lib/format';
import { useDecideClaim } from './api';
import { claimActions, type DecisionDraft, decisionCheck } from './decision';

const CARRIER_NAMES = CARRIERS.map((c) => c.nombre);

/** A claim being decided: which, on which order, and how. */
export interface Deciding {
  reclamo: ClaimDto;
  idPedido: number;
  accion: ClaimAction;
}

const LOOK: Record<ClaimAction, { verb: string; label: string; color: string; icon: ReactNode }> = {
  aceptar: {
    verb: 'Aceptar',
    label: 'Aceptar reclamo',
    color: 'teal',
    icon: <IconCheck size={16} aria-hidden />,
  },
  devolucion: {
    verb: 'Pedir devolución',
    label: 'Pedir devolución',
    color: 'grape',
    icon: <IconArrowBackUp size={16} aria-hidden />,
  },
  rechazar: {
    verb: 'Rechazar',
    label: 'Rechazar reclamo',
    color: 'red',
    icon: <IconX size={16} aria-hidden />,
  },
};

/** The fields of one action. */
function DecisionFields({
  accion,
  draft,
  set,
  errors,
}: {
  accion: ClaimAction;
  draft: DecisionDraft;
  set: (change: Partial<DecisionDraft>) => void;
  errors: ReturnType<typeof decisionCheck>['errors'];
}) {
  if (accion === 'rechazar')
    return (
      <Textarea
        label="Motivo del rechazo"
        description="El comprador lo verá en su pedido y lo recibirá por correo."
        required
        autosize
        minRows={3}
        value={draft.texto}
        onChange={(e) => set({ texto: e.currentTarget.value })}
        error={errors.texto}
        data-autofocus
      />
    );
  const note = (
    <Textarea
      label={accion === 'devolucion' ? 'Indicaciones (opcional)' : 'Nota para el comprador (opcional)'}
      autosize
      minRows={2}
      value={draft.texto}
      onChange={(e) => set({ texto: e.currentTarget.value })}
      error={errors.texto}
    />
  );
  if (accion === 'devolucion')
    return (
      <>
        <Text size="sm">
          El comprador devuelve las unidades con esta guía; después aceptas o rechazas el reclamo.
        </Text>
        <TextInput
          label="Guía de devolución"
          required
          value={draft.guia}
          onChange={(e) => set({ guia: e.currentTarget.value })}
          error={errors.guia}
          data-autofocus
        />
        <Autocomplete
          label="Paquetería (opcional)"
          data={CARRIER_NAMES}
          value={draft.paqueteria}
          onChange={(paqueteria) => set({ paqueteria })}
          error={errors.paqueteria}
          comboboxProps={{ withinPortal: true }}
        />
        {note}
      </>
    );
  return (
    <>
      <ClaimResolutionField
        label="Resolución"
        value={draft.resolucion}
        onChange={(resolucion) => set({ resolucion })}
        descriptions={{
          reposicion: 'Se registra un envío de reposición con esas unidades, sin cargo al presupuesto.',
          credito: 'El importe de esas unidades regresa al presupuesto del comprador.',
        }}
      />
      {note}
    </>
  );
}

/** The dialog of one decision; `deciding` null closes it. */
export function ClaimDecisionDialog({
  deciding,
  onClose,
}: {
  deciding: Deciding | null;
  onClose: () => void;
}) {
  const phone = useMediaQuery('(max-width: 36em)') ?? false;
  const decide = useDecideClaim();
  const [draft, setDraft] = useState<DecisionDraft>({
    resolucion: 'credito',
    texto: '',
    guia: '',
    paqueteria: '',
  });
  const [tried, setTried] = useState(false);
  // The server's refusal; `decided`: someone decided the claim first (409), so this cannot succeed.
  const [refusal, setRefusal] = useState<{ msg: string; decided: boolean } | null>(null);
  // The last claim stays rendered while the dialog fades out.
  const [shown, setShown] = useState<Deciding | null>(null);
  if (deciding && deciding !== shown) {
    setShown(deciding);
    setDraft({ resolucion: deciding.reclamo.resolucion_solicitada, texto: '', guia: '', paqueteria: '' });
    setTried(false);
    setRefusal(null);
  }
  if (!shown) return null;
  const { reclamo: r, idPedido, accion } = shown;
  const look = LOOK[accion];
  const check = decisionCheck(accion, draft);
  const title = `Reclamo ${r.numero} del pedido ${formatOrderNumber(idPedido)}`;

  const confirm = () => {
    setTried(true);
    if (!check.body) return;
    setRefusal(null);
    decide.mutate(
      { id: r.id, idPedido, body: check.body },
      {
        onSuccess: (res) => {
          showSuccess(title, res.msg);
          onClose();
        },
        onError: (error) => {
          if (isApiError(error) && error.status === 401) onClose();
          else setRefusal({ msg: errorMessage(error), decided: isApiError(error) && error.status === 409 });
        },
      },
    );
  };

  return (
    <Modal
      opened={deciding !== null}
      onClose={() => !decide.isPending && onClose()}
      title={`${look.verb}: ${title}`}
      centered
      size="lg"
      fullScreen={phone}
      closeButtonProps={{ 'aria-label': 'Cerrar' }}
    >
      <Stack gap="md">
        <Stack component="ul" gap={0} m={0} pl="md" aria-label={`Productos del reclamo ${r.numero}`}>
          {r.lineas.map((l) => (
            <Text component="li" size="sm" key={l.id_linea}>
              {l.cantidad} × {l.nombre} — {CLAIM_REASON_LABELS[l.motivo]}
            </Text>
          ))}
        </Stack>
        <Text size="sm" c="dimmed">
          El comprador solicita: {CLAIM_RESOLUTION_LABELS[r.resolucion_solicitada]}
        </Text>
        <DecisionFields
          accion={accion}
          draft={draft}
          set={(change) => setDraft((d) => ({ ...d, ...change }))}
          errors={tried ? check.errors : { texto: draft.texto.trim() ? check.errors.texto : undefined }}
        />
        <DialogActions
          error={refusal?.msg ?? null}
          errorTitle="No se pudo decidir el reclamo"
          busy={decide.isPending}
          onCancel={onClose}
          onConfirm={confirm}
          confirmLabel={look.label}
          confirmIcon={look.icon}
          color={look.color}
          disabled={refusal?.decided}
        />
      </Stack>
    </Modal>
  );
}

/** The buttons the claim's state allows (none once decided). */
export function ClaimDecisionButtons({
  reclamo,
  idPedido,
  onDecide,
}: {
  reclamo: ClaimDto;
  idPedido: number;
  onDecide: (deciding: Deciding) => void;
}) {
  const actions = claimActions(reclamo.estado);
  if (actions.length === 0) return null;
  return (
    <Group gap="xs" wrap="wrap">
      {actions.map((accion) => (
        <Button
          key={accion}
          size="xs"
          variant={accion === 'aceptar' ? 'filled' : 'light'}
          color={LOOK[accion].color}
          leftSection={LOOK[accion].icon}
          aria-label={`${LOOK[accion].verb} el reclamo ${reclamo.numero} del pedido ${formatOrderNumber(idPedido)}`}
          onClick={() => onDecide({ reclamo, idPedido, accion })}
        >
          {LOOK[accion].verb}
        </Button>
      ))}
    </Group>
  );
}

/** The decision on the claims of one screen: each claim's buttons, and the one dialog. */
export function useClaimDecisions() {
  const [deciding, setDeciding] = useState<Deciding | null>(null);
  return {
    buttons: (reclamo: ClaimDto, idPedido: number) => (
      <ClaimDecisionButtons reclamo={reclamo} idPedido={idPedido} onDecide={setDeciding} />
    ),
    dialog: <ClaimDecisionDialog deciding={deciding} onClose={() => setDeciding(null)} />,
  };
}
