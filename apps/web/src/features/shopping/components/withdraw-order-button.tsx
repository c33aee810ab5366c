import { Button, Text } from '@mantine/core';
import { IconArrowBackUp } from '@tabler/icons-react';
import { openConfirm, showError, showSuccess } from '../../../components/ui/alerts';
import { errorMessage } from '../../../lib/api';
import { formatOrderNumber } from '../../../lib/format';
import { useWithdrawOrder } from '../api/order-actions';

/**
 * 'Retirar pedido' on the buyer's own pendiente order, after a confirmation. When an approver acted first
 * (409) the server's message is shown and the order reloads with its new status.
 */
export function WithdrawOrderButton({ id }: { id: number }) {
  const withdraw = useWithdrawOrder(id);
  const numero = formatOrderNumber(id);
  const ask = () =>
    openConfirm({
      title: `¿Retirar el pedido ${numero}?`,
      centered: true,
      closeButtonProps: { 'aria-label': 'Cerrar' },
      children: (
        <Text size="sm">
          El pedido quedará cancelado y ya no se revisará. Su importe vuelve a tu presupuesto y deja de contar
          en tu límite de compras.
        </Text>
      ),
      labels: { confirm: 'Retirar pedido', cancel: 'Conservar' },
      confirmProps: { color: 'red', leftSection: <IconArrowBackUp size={16} /> },
      onConfirm: () =>
        withdraw.mutate(undefined, {
          onSuccess: (res) => showSuccess('Pedido retirado', res.msg),
          onError: (error) => void showError(errorMessage(error), 'No se pudo retirar'),
        }),
    });
  return (
    <Button
      variant="light"
      color="red"
      leftSection={<IconArrowBackUp size={16} />}
      loading={withdraw.isPending}
      onClick={ask}
    >
      Retirar pedido
    </Button>
  );
}
