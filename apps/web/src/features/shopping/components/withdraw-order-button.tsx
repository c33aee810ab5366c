import { Button, Text } from '@mantine/core';
import { IconArrowBackUp } from '@tabler/icons-react';
import { showSuccess } from '../../../components/ui/alerts';
import { confirmAction } from '../../../components/ui/confirm';
import { formatOrderNumber } from '../../../lib/format';
import { useWithdrawOrder } from '../api/order-actions';

/**
 * 'Retirar pedido' on the buyer's own pendiente order, after a confirmation. When an approver acted first
 * (409) the server's message is shown in the dialog and the order reloads with its new status.
 */
export function WithdrawOrderButton({ id }: { id: number }) {
  const withdraw = useWithdrawOrder(id);
  const numero = formatOrderNumber(id);
  const ask = () =>
    confirmAction({
      title: `¿Retirar el pedido ${numero}?`,
      message: (
        <Text size="sm">
          El pedido quedará cancelado y ya no se revisará. Su importe vuelve a tu presupuesto y deja de contar
          en tu límite de compras.
        </Text>
      ),
      confirmLabel: 'Retirar pedido',
      // Withdrawing cancels the order: the way out is 'Volver', never a second 'Cancelar' (decision 0098).
      cancelLabel: 'Volver',
      danger: true,
      onConfirm: async () => {
        const res = await withdraw.mutateAsync(undefined);
        showSuccess('Pedido retirado', res.msg);
      },
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
