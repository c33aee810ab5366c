/**
 * «Confirmar recepción» of one shipment (decision 0127): each of its lines with the units shipped, the units
 * received in good condition (all of them at first) and, when fewer, why; a difference asks «¿Qué
 * solicitas?» and opens a claim; a note and photos. The server's message follows as a notification and the
 * order is read again.
 */
import { Alert, Stack, Text } from '@mantine/core';
import { CLAIM_REASON_LABELS, RECEIPT_REASONS, type ReceiptReason } from '@portal/shared/domain/claims';
import { IconInfoCircle, IconPackageImport } from '@tabler/icons-react';
import { useState } from 'react';
import { type ReceiptRoutes, useReceiveShipment } from '../api/claims';
import { fullReceipt, type ReceiptLine, type ReceiptLineDraft, receiptCheck } from '../lib/claims';
import {
  ClaimDialogFrame,
  ClaimExtrasFields,
  extrasOf,
  UnitsAndReason,
  useClaimExtras,
  useDialogOutcome,
} from './claim-fields';

const RECEIPT_REASON_OPTIONS = RECEIPT_REASONS.map((r) => ({ value: r, label: CLAIM_REASON_LABELS[r] }));

export interface ReceiptDialogProps {
  idPedido: number;
  envio: { numero: number };
  /** The shipment's lines (receiptLines) with the units it carries. */
  lines: ReceiptLine[];
  onClose: () => void;
  /** The buyer's routes (the default) or a receiver's (decision 0130): the same form and rule. */
  routes?: ReceiptRoutes;
}

export default function ReceiptDialog({ idPedido, envio, lines, onClose, routes }: ReceiptDialogProps) {
  const [draft, setDraft] = useState<Record<number, ReceiptLineDraft>>(() => fullReceipt(lines));
  const extras = useClaimExtras(idPedido, routes);
  const receive = useReceiveShipment(idPedido, routes);
  const outcome = useDialogOutcome(`Envío ${envio.numero} recibido`, onClose);
  const check = receiptCheck(lines, draft, extrasOf(extras));

  const send = () => {
    extras.setTried(true);
    outcome.clear();
    if (!check.body) return;
    receive.mutate({ numero: envio.numero, body: check.body }, outcome.handlers);
  };

  return (
    <ClaimDialogFrame
      title={`Confirmar recepción del envío ${envio.numero}`}
      onClose={onClose}
      refusal={outcome.refusal}
      actions={{
        errorTitle: 'No se pudo confirmar la recepción',
        busy: receive.isPending,
        onConfirm: send,
        confirmLabel: check.differences ? 'Confirmar y abrir reclamo' : 'Confirmar recepción',
        confirmIcon: <IconPackageImport size={16} aria-hidden />,
        color: 'teal',
        disabled: extras.photos.uploading,
      }}
    >
      <Text size="sm">
        Indica cuántas unidades de cada producto llegaron en buen estado. Si algo faltó, llegó dañado o no es
        lo que pediste, escribe cuántas sí recibiste y elige el motivo.
      </Text>
      <Stack gap="xs" role="group" aria-label={`Productos del envío ${envio.numero}`}>
        {lines.map((line) => {
          const d = draft[line.id] ?? { recibido: line.enviadas, motivo: null };
          const set = (change: Partial<ReceiptLineDraft>) =>
            setDraft((all) => ({ ...all, [line.id]: { ...d, ...change } }));
          return (
            <UnitsAndReason
              key={line.id}
              nombre={line.nombre}
              hint={`Enviadas: ${line.enviadas}${line.unidad ? ` · ${line.unidad}` : ''}`}
              label="Recibidas en buen estado"
              max={line.enviadas}
              units={d.recibido}
              onUnits={(recibido) => set({ recibido })}
              motivo={d.motivo}
              onMotivo={(v) => set({ motivo: v as ReceiptReason | null })}
              asksReason={typeof d.recibido === 'number' && d.recibido < line.enviadas}
              options={RECEIPT_REASON_OPTIONS}
              errors={check.errors.lineas[line.id]}
              tried={extras.tried}
              testId="recepcion-linea"
            />
          );
        })}
      </Stack>
      {check.differences ? (
        <Alert color="orange" variant="light" icon={<IconInfoCircle size={18} aria-hidden />} p="sm">
          Con las diferencias se abrirá un reclamo: el equipo de surtido lo revisará y te avisará su
          respuesta.
        </Alert>
      ) : null}
      <ClaimExtrasFields state={extras} errors={check.errors} withResolution={check.differences} />
    </ClaimDialogFrame>
  );
}
