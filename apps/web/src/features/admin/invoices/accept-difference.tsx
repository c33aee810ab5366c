/**
 * «Aceptar diferencia» (decision 0133): the operator accepts what an invoice's match found, with a reason
 * (required, up to MATCH_REASON_MAX characters). A 409 (someone else resolved it first) keeps the dialog open
 * with the server's words and the confirm disabled; the list is read again.
 */
import { Button, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { MATCH_REASON_MAX } from '@portal/shared/domain/invoice-match';
import type { InvoiceDto } from '@portal/shared/schemas/invoices';
import { IconCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { showSuccess } from '../../../components/ui/alerts';
import { DialogActions } from '../../../components/ui/dialog-actions';
import { errorMessage, isApiError } from '../../../lib/api';
import { useAcceptDifference } from './api';

const MSG_MOTIVO = 'Escribe el motivo por el que aceptas la diferencia.';

export function AcceptDifferenceButton({ id, factura }: { id: number; factura: InvoiceDto }) {
  const phone = useMediaQuery('(max-width: 36em)') ?? false;
  const accept = useAcceptDifference(id);
  const [opened, setOpened] = useState(false);
  const [motivo, setMotivo] = useState('');
  const [tried, setTried] = useState(false);
  const [refusal, setRefusal] = useState<{ msg: string; decided: boolean } | null>(null);
  const name = [factura.serie, factura.folio].filter(Boolean).join('-') || factura.uuid;
  const open = () => {
    setMotivo('');
    setTried(false);
    setRefusal(null);
    accept.reset();
    setOpened(true);
  };
  const close = () => !accept.isPending && setOpened(false);
  const confirm = () => {
    setTried(true);
    if (!motivo.trim()) return;
    setRefusal(null);
    accept.mutate(
      { uuid: factura.uuid, motivo: motivo.trim() },
      {
        onSuccess: (res) => {
          showSuccess(`Factura ${name}`, res.msg);
          setOpened(false);
        },
        onError: (error) =>
          setRefusal({ msg: errorMessage(error), decided: isApiError(error) && error.status === 409 }),
      },
    );
  };
  return (
    <>
      <div>
        <Button size="xs" variant="light" color="orange" onClick={open}>
          Aceptar diferencia
        </Button>
      </div>
      <Modal
        opened={opened}
        onClose={close}
        title={`Aceptar la diferencia de la factura ${name}`}
        centered
        fullScreen={phone}
        closeButtonProps={{ 'aria-label': 'Cerrar' }}
      >
        <Stack gap="md">
          <Stack component="ul" gap={0} m={0} pl="md" aria-label="Diferencias de la factura">
            {factura.diferencias.map((d) => (
              <Text component="li" size="sm" key={`${d.tipo}-${d.conceptos.join('-')}`}>
                {d.clave && d.tipo !== 'sin_producto' ? `${d.clave}: ` : ''}
                {d.texto}
              </Text>
            ))}
          </Stack>
          <Textarea
            label="Motivo"
            description="Queda en el historial del pedido y en la factura."
            required
            autosize
            minRows={2}
            maxLength={MATCH_REASON_MAX}
            value={motivo}
            onChange={(e) => setMotivo(e.currentTarget.value)}
            error={tried && !motivo.trim() ? MSG_MOTIVO : undefined}
            data-autofocus
          />
          <DialogActions
            error={refusal?.msg ?? null}
            errorTitle="No se aceptó la diferencia"
            busy={accept.isPending}
            onCancel={close}
            onConfirm={confirm}
            confirmLabel="Aceptar diferencia"
            confirmIcon={<IconCheck size={16} aria-hidden />}
            disabled={refusal?.decided}
          />
        </Stack>
      </Modal>
    </>
  );
}
