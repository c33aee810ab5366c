import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { FULFILMENT_NOTE_MAX } from '@portal/shared/domain/fulfilment';
import { IconPackageImport } from '@tabler/icons-react';
import { useState } from 'react';
import { showError, showSuccess } from '../../../components/ui/alerts';
import { errorMessage } from '../../../lib/api';
import { formatOrderNumber } from '../../../lib/format';
import { useConfirmReceipt } from '../api/order-actions';

/**
 * 'Recibido' on the buyer's own shipped order: a dialog with an optional note about missing or damaged items,
 * which the operator sees (decision 0058).
 */
export function ReceiptButton({ id }: { id: number }) {
  const [open, setOpen] = useState(false);
  const [nota, setNota] = useState('');
  const confirm = useConfirmReceipt(id);
  const tooLong = nota.trim().length > FULFILMENT_NOTE_MAX;
  const send = () =>
    confirm.mutate(nota, {
      onSuccess: (res) => {
        setOpen(false);
        setNota('');
        showSuccess('Pedido recibido', res.msg);
      },
      onError: (error) => {
        setOpen(false);
        void showError(errorMessage(error), 'No se pudo confirmar');
      },
    });
  return (
    <>
      <Button
        color="teal"
        leftSection={<IconPackageImport size={16} aria-hidden />}
        onClick={() => setOpen(true)}
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
            Si faltó algún artículo o llegó dañado, anótalo: el equipo que surte los pedidos lo recibirá.
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
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setOpen(false)}>
              Cancelar
            </Button>
            <Button color="teal" onClick={send} loading={confirm.isPending} disabled={tooLong}>
              Confirmar recepción
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
