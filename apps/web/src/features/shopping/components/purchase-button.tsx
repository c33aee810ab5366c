import { Box, Button, Group, Modal, Paper, Stack, Text, ThemeIcon } from '@mantine/core';
import { MSG } from '@portal/shared/messages';
import type { OrderSummaryDto } from '@portal/shared/schemas/orders';
import type { CartItemDto } from '@portal/shared/schemas/shopping';
import { IconCircleCheck, IconSend, IconShoppingCartCheck } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { DialogActions } from '../../../components/ui/dialog-actions';
import { isApiError } from '../../../lib/api';
import { formatMXN, formatOrderNumber } from '../../../lib/format';
import { useSession } from '../../../lib/session';
import { useRefreshCart } from '../api/cart';
import { useSubmitOrder } from '../api/purchase';
import { useShopper } from '../api/shopper';
import { noteForPurchase, purchaseConfirmation } from '../lib/order-extras';
import { overspentCategory, type TopupTarget, topupTargetOf } from '../lib/topups';
import { RequestTopupButton, TopupDialog } from './topup-dialog';

interface PurchaseButtonProps {
  carrito: CartItemDto[];
  total: number;
  units: number;
  /** The note for the approvers as typed (sent trimmed; none when empty). */
  nota?: string;
  /** The delivery address chosen in the cart (decision 0126); none: the buyer's default. */
  idDireccion?: number | null;
  /** The order was created (the cart is empty from now on). */
  onSent: (pedido: OrderSummaryDto) => void;
  fullWidthOnPhone?: boolean;
}

/**
 * 'Confirmar compra' → '¿Confirmar compra?' → POST /api/compra → 'Compra enviada correctamente' (until closed).
 * The confirmation cannot be sent twice: its button is disabled (and the dialog cannot close) while the
 * request runs. A refusal shows the server's reason in the dialog, above its buttons; the cart is then
 * reloaded from the server. A budget's refusal (the buyer's, a category's or the área's) offers
 * 'Solicitar ampliación', which opens the request in place of the confirmation.
 */
export function PurchaseButton({
  carrito,
  total,
  units,
  nota = '',
  idDireccion = null,
  onSent,
  fullWidthOnPhone,
}: PurchaseButtonProps) {
  const [confirming, setConfirming] = useState(false);
  // The client's rules approve this total at once: the confirmation says so (decisions 0098, 0100).
  const confirmation = purchaseConfirmation(useSession().user.cliente, total);
  const [refusal, setRefusal] = useState<{ msg: string; code: string | null } | null>(null);
  const [topup, setTopup] = useState<TopupTarget | null>(null);
  const shopper = useShopper();
  const submit = useSubmitOrder((res) => {
    setConfirming(false);
    onSent(res.pedido);
  });
  const refreshCart = useRefreshCart();
  // One order per confirmation, even for a double click faster than a re-render.
  const sending = useRef(false);

  const confirm = () => {
    if (sending.current) return;
    sending.current = true;
    setRefusal(null);
    submit.mutate(
      { carrito, nota: noteForPurchase(nota), idDireccion },
      {
        onError: (error) => {
          sending.current = false;
          if (isApiError(error) && error.status === 401) {
            setConfirming(false);
            return;
          }
          setRefusal(
            isApiError(error) && error.status >= 400 && error.status < 500 && error.msg
              ? { msg: error.msg, code: error.code }
              : { msg: MSG.ocurrioUnError, code: null },
          );
          void refreshCart();
        },
      },
    );
  };

  return (
    <>
      <Button
        size="md"
        w={fullWidthOnPhone ? { base: '100%', xs: 'auto' } : undefined}
        leftSection={<IconShoppingCartCheck size={18} />}
        onClick={() => {
          setRefusal(null);
          setConfirming(true);
        }}
        disabled={submit.isPending || carrito.length === 0}
      >
        Confirmar compra
      </Button>

      <Modal
        opened={confirming}
        onClose={() => {
          if (!submit.isPending) setConfirming(false);
        }}
        title={MSG.confirmarCompraTitulo}
        centered
        closeOnClickOutside={!submit.isPending}
        closeOnEscape={!submit.isPending}
        withCloseButton={!submit.isPending}
        closeButtonProps={{ 'aria-label': 'Cerrar' }}
      >
        <Stack gap="md">
          <Text>{confirmation}</Text>
          <Paper bg="gray.0" radius="md" p="sm">
            <Group justify="space-between">
              <Text size="sm" c="dimmed">
                {carrito.length === 1 ? '1 producto' : `${carrito.length} productos`} ·{' '}
                {units === 1 ? '1 artículo' : `${units} artículos`}
              </Text>
              <Text fw={700}>{formatMXN(total)}</Text>
            </Group>
          </Paper>
          <DialogActions
            error={
              refusal ? (
                <>
                  {refusal.msg}
                  {topupTargetOf(refusal.code) ? (
                    <RequestTopupButton
                      mt="xs"
                      color="red"
                      display="flex"
                      onClick={() => {
                        // The category a refused purchase ran out of, from the cart read again.
                        const target = topupTargetOf(refusal.code, overspentCategory(shopper));
                        setConfirming(false);
                        setTopup(target);
                      }}
                    />
                  ) : null}
                </>
              ) : null
            }
            errorTitle={MSG.compraRechazadaTitulo}
            busy={submit.isPending}
            onCancel={() => setConfirming(false)}
            onConfirm={confirm}
            confirmLabel="Enviar pedido"
            confirmIcon={<IconSend size={16} />}
            disabled={submit.isSuccess}
          />
        </Stack>
      </Modal>
      <TopupDialog target={topup} onClose={() => setTopup(null)} />
    </>
  );
}

/**
 * 'Compra enviada correctamente' / 'Tu pedido será procesado.' — or 'Tu pedido quedó aprobado
 * automáticamente' for an order the client's rules approved at purchase. It stays until closed (decision 0098).
 */
interface PurchaseSentDialogProps {
  /** The order just created (kept while the dialog fades out). */
  sent: OrderSummaryDto | null;
  opened: boolean;
  onClose: () => void;
}

export function PurchaseSentDialog({ sent, opened, onClose }: PurchaseSentDialogProps) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      withCloseButton={false}
      centered
      size="sm"
      title={
        <Stack align="center" gap="sm" pt="md" component="span">
          <ThemeIcon color="teal" variant="light" radius="xl" size={64} aria-hidden>
            <IconCircleCheck size={40} stroke={1.6} />
          </ThemeIcon>
          <Text component="span" fw={700} fz="xl" ta="center">
            {MSG.compraEnviadaTitulo}
          </Text>
        </Stack>
      }
      styles={{ header: { justifyContent: 'center' }, title: { flex: 1 } }}
    >
      <Stack align="center" gap="sm" pb="md" ta="center">
        <Text c="dimmed" data-testid="compra-enviada-texto">
          {sent?.status === 'aprobado' ? MSG.pedidoAprobadoAutomaticamente : MSG.compraEnviada}
        </Text>
        {sent ? (
          <Box>
            <Text size="sm">
              Pedido{' '}
              <Text span fw={700}>
                {formatOrderNumber(sent.id)}
              </Text>{' '}
              · {formatMXN(sent.total)}
            </Text>
          </Box>
        ) : null}
        <Group gap="sm" mt="xs">
          <Button component={Link} to="/usuario/historial" variant="light" onClick={onClose}>
            Ver historial
          </Button>
          <Button variant="default" onClick={onClose}>
            Cerrar
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
