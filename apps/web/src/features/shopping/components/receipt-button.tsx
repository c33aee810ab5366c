import { Button, Modal, Stack, Text, Textarea } from '@mantine/core';
import { FULFILMENT_NOTE_MAX } from '@portal/shared/domain/fulfilment';
import { IconPackageImport } from '@tabler/icons-react';
import { useState } from 'react';
import { showSuccess } from '../../../components/ui/alerts';
import { DialogActions } from '../../../components/ui/dialog-actions';
import { errorMessage } from '../../../lib/api';
import { formatOrderNumber } from '../../../lib/format';
import { useConfirmReceipt } from '../api/order-actions';

/**
 * 'Recibido' on the buyer's own shipped order: every shipment received in full, with an optional note the
 * operator sees (decision 0058); a difference goes through a shipment's own receipt, which opens a claim
 * (decision 0127).
 */
export function ReceiptButton({ id }: { id: number }) {
  const [open, setOpen] = useState(false);
  const [nota, setNota] = useState('');
  const [refusal, setRefusal] = useState<string | null>(null);
  const confirm = useConfirmReceipt(id);
  const tooLong = nota.trim().length > FULFILMENT_NOTE_MAX;
  const send = () =>
    confirm.mutate(nota, {
      onSuccess: (res) => {
        setOpen(false);
        setNota('');
        showSuccess('Pedido recibido', res.msg);
      },
      onError: (error) => setRefusal(errorMessage(error)),
    });
  return (
    <>
      <Button
        color="teal"
        leftSection={<IconPackageImport size={16} aria-hidden />}
        onClick={() => {
          setRefusal(null);
          setOpen(true);
        }}
        data-testid="confirmar-recibido"
      >
        Recibido
      </Button>
      <Modal
        opened={open}
        onClose={() => setOpen(false)}
        title={`Confirmar que recibiste el pedido ${formatOrderNumber(id)}`}
        centered
        closeButtonProps={{ 'aria-label': 'Cerrar' }}
      >
        <Stack gap="sm">
          <Text size="sm">
            Confirma que recibiste todos los envíos completos. Si faltó algún artículo o llegó dañado, usa
            «Confirmar recepción» en ese envío: ahí pides reposición o crédito. La nota solo la lee el equipo
            que surte los pedidos.
          </Text>
          <Textarea
            label="Nota (opcional)"
            placeholder="Ej. Faltó una caja de tóner."
            autosize
            minRows={3}
            value={nota}
            onChange={(e) => setNota(e.currentTarget.value)}
            error={tooLong ? 'La nota admite hasta 500 caracteres.' : undefined}
          />
          <DialogActions
            error={refusal}
            errorTitle="No se pudo confirmar"
            busy={confirm.isPending}
            onCancel={() => setOpen(false)}
            onConfirm={send}
            confirmLabel="Confirmar recepción"
            color="teal"
            disabled={tooLong}
          />
        </Stack>
      </Modal>
    </>
  );
}
