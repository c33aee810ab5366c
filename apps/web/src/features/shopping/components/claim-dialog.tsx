/**
 * «Abrir reclamo» on the buyer's order (decision 0127): the lines with units still to claim (shipped, less
 * those under a claim), how many of each and why — «No solicitado» too —, what the buyer asks for, a note and
 * photos. The server's message follows as a notification and the order is read again; its refusal (400,
 * 409) stays in the dialog.
 */
import { Stack, Text } from '@mantine/core';
import { CLAIM_REASON_LABELS, CLAIM_REASONS, type ClaimReason } from '@portal/shared/domain/claims';
import type { OrderDetailDto } from '@portal/shared/schemas/orders';
import { IconMessageReport } from '@tabler/icons-react';
import { useState } from 'react';
import { formatOrderNumber } from '../../../lib/format';
import { useOpenClaim } from '../api/claims';
import { type ClaimLineDraft, claimableLines, claimableUnits, claimCheck, unitsOf } from '../lib/claims';
import {
  ClaimDialogFrame,
  ClaimExtrasFields,
  extrasOf,
  UnitsAndReason,
  useClaimExtras,
  useDialogOutcome,
} from './claim-fields';

const CLAIM_REASON_OPTIONS = CLAIM_REASONS.map((r) => ({ value: r, label: CLAIM_REASON_LABELS[r] }));

export default function ClaimDialog({ pedido, onClose }: { pedido: OrderDetailDto; onClose: () => void }) {
  const lines = claimableLines(pedido);
  const [draft, setDraft] = useState<Record<number, ClaimLineDraft>>({});
  const extras = useClaimExtras(pedido.id);
  const open = useOpenClaim(pedido.id);
  const outcome = useDialogOutcome(`Pedido ${formatOrderNumber(pedido.id)}`, onClose);
  const check = claimCheck(lines, draft, extrasOf(extras));

  const send = () => {
    extras.setTried(true);
    outcome.clear();
    if (!check.body) return;
    open.mutate(check.body, outcome.handlers);
  };

  return (
    <ClaimDialogFrame
      title={`Abrir reclamo del pedido ${formatOrderNumber(pedido.id)}`}
      onClose={onClose}
      refusal={outcome.refusal ?? (extras.tried ? (check.errors.vacio ?? null) : null)}
      actions={{
        errorTitle: outcome.refusal ? 'No se pudo abrir el reclamo' : undefined,
        busy: open.isPending,
        onConfirm: send,
        confirmLabel: 'Abrir reclamo',
        confirmIcon: <IconMessageReport size={16} aria-hidden />,
        color: 'orange',
        disabled: extras.photos.uploading,
      }}
    >
      <Text size="sm">
        Indica cuántas unidades reclamas de cada producto y por qué. El equipo de surtido revisará el reclamo
        y te avisará su respuesta.
      </Text>
      <Stack gap="xs" role="group" aria-label="Productos que puedes reclamar">
        {lines.map((line) => {
          const d = draft[line.id] ?? { cantidad: 0, motivo: null };
          const set = (change: Partial<ClaimLineDraft>) =>
            setDraft((all) => ({ ...all, [line.id]: { ...d, ...change } }));
          const max = claimableUnits(line);
          return (
            <UnitsAndReason
              key={line.id}
              nombre={line.nombre}
              hint={`Puedes reclamar hasta ${max} · ${line.unidad_de_medida}`}
              label="Cantidad reclamada"
              max={max}
              units={d.cantidad}
              onUnits={(cantidad) => set({ cantidad })}
              motivo={d.motivo}
              onMotivo={(v) => set({ motivo: v as ClaimReason | null })}
              asksReason={unitsOf(d.cantidad) > 0}
              options={CLAIM_REASON_OPTIONS}
              errors={check.errors.lineas[line.id]}
              tried={extras.tried}
              testId="reclamo-linea-campos"
            />
          );
        })}
      </Stack>
      <ClaimExtrasFields state={extras} errors={check.errors} withResolution />
    </ClaimDialogFrame>
  );
}
