import { Alert, Box, Button, Group, Modal, NumberInput, Paper, Stack, Text } from '@mantine/core';
import { quantityProblem } from '@portal/shared/domain/cart';
import { pesosToCentavos } from '@portal/shared/domain/money';
import { MSG } from '@portal/shared/messages';
import { IconAlertTriangle, IconCheck, IconShoppingCartPlus, IconTrash } from '@tabler/icons-react';
import { type FormEvent, type ReactNode, useState } from 'react';
import { EXENTO_DE_IVA } from '../../../components/orders/iva-label';
import { showSuccess } from '../../../components/ui/alerts';
import { errorMessage, isApiError } from '../../../lib/api';
import { formatCentavos, formatMXN } from '../../../lib/format';
import { useRemoveCartItem, useSetCartItem } from '../api/cart';
import { useShopper } from '../api/shopper';
import { type CartTarget, cartRefusal, isQuantityRefusal, toQuantity } from '../lib/cart-rules';
import { type TopupTarget, topupOffer } from '../lib/topups';
import { ProductThumb } from './product-thumb';
import { RequestTopupButton, TopupDialog } from './topup-dialog';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group justify="space-between" gap="xs" wrap="nowrap">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={600} ta="right">
        {children}
      </Text>
    </Group>
  );
}

function articulos(n: number): string {
  return `${n} ${n === 1 ? 'artículo' : 'artículos'}`;
}

interface BodyProps {
  target: CartTarget;
  /** Quantity in the cart when the dialog opened (0: not in the cart). */
  current: number;
  onClose: () => void;
  onBusyChange: (busy: boolean) => void;
  /** 'Solicitar ampliación' under a budget refusal: this dialog closes and the request's opens. */
  onRequestTopup: (target: TopupTarget) => void;
}

function DialogBody({ target, current, onClose, onBusyChange, onRequestTopup }: BodyProps) {
  const shopper = useShopper();
  const setItem = useSetCartItem();
  const removeItem = useRemoveCartItem();
  const [value, setValue] = useState<number | string>(current > 0 ? current : 1);
  const [submitted, setSubmitted] = useState(false);
  const [serverField, setServerField] = useState<string | null>(null);
  const [serverAlert, setServerAlert] = useState<{ msg: string; code: string | null } | null>(null);
  const busy = setItem.isPending || removeItem.isPending;

  const cantidad = toQuantity(value);
  const quantityIssue = quantityProblem(cantidad, target.cantidadLimite);
  // The early answer from the shared rules; the server checks again when the button is pressed.
  const early = quantityIssue ? null : cartRefusal(shopper, target, cantidad);
  const fieldError =
    serverField ??
    (quantityIssue && (submitted || quantityIssue.code === 'OVER_QUANTITY_LIMIT') ? quantityIssue.msg : null);
  const alert = serverAlert ?? (early ? { msg: early.msg, code: early.code } : null);
  const topup = topupOffer(shopper, alert?.code, target.idCategoria);
  const validQuantity = quantityIssue ? 0 : (cantidad ?? 0);
  const total = pesosToCentavos(target.precio) * validQuantity;

  const track = <T,>(promise: Promise<T>) => {
    onBusyChange(true);
    return promise.finally(() => onBusyChange(false));
  };

  const fail = (error: unknown) => {
    if (isApiError(error) && isQuantityRefusal(error.code)) setServerField(error.msg);
    else setServerAlert({ msg: errorMessage(error), code: isApiError(error) ? error.code : null });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (quantityIssue || cantidad === null) return;
    setServerAlert(null);
    setServerField(null);
    void track(
      setItem.mutateAsync({ id: target.id, cantidad }).then(() => {
        if (current > 0) showSuccess(MSG.actualizadoTitulo, MSG.carritoActualizado);
        else showSuccess(MSG.agregadoTitulo, MSG.articuloAgregado);
        onClose();
      }, fail),
    );
  };

  const remove = () => {
    setServerAlert(null);
    void track(
      removeItem.mutateAsync(target.id).then(() => {
        showSuccess(MSG.eliminadoTitulo, MSG.articuloEliminado);
        onClose();
      }, fail),
    );
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Group gap="md" wrap="nowrap" align="flex-start">
          <ProductThumb src={target.miniatura} size={72} radius="var(--mantine-radius-md)" />
          <Box miw={0}>
            <Text fw={600} lh={1.3}>
              {target.nombre}
            </Text>
            <Text size="xs" c="dimmed" mt={4}>
              Clave {target.clave} · {target.unidad}
            </Text>
            <Text size="xs" c="dimmed">
              {target.categoria}
            </Text>
          </Box>
        </Group>

        <Paper bg="gray.0" radius="md" p="sm">
          <Stack gap={6}>
            <Row label="Precio unitario">{formatMXN(target.precio)}</Row>
            <Row label="Límite por pedido">{articulos(target.cantidadLimite)}</Row>
            {current > 0 ? <Row label="En tu carrito">{articulos(current)}</Row> : null}
          </Stack>
        </Paper>

        <NumberInput
          label="Cantidad"
          description={`Puedes pedir de 1 a ${target.cantidadLimite}.`}
          value={value}
          onChange={(next) => {
            setValue(next);
            setServerField(null);
            setServerAlert(null);
          }}
          min={1}
          max={target.cantidadLimite}
          step={1}
          allowDecimal={false}
          allowNegative={false}
          clampBehavior="none"
          error={fieldError}
          inputMode="numeric"
          data-autofocus
          size="md"
        />

        <Box>
          <Group justify="space-between" align="baseline">
            <Text fw={600}>Total</Text>
            <Text fw={800} fz={22} c="indigo.8" aria-live="polite" data-testid="dialogo-total">
              {formatCentavos(total)}
            </Text>
          </Group>
          <Text size="xs" c="dimmed" ta="right">
            {target.impuesto ? 'Más IVA (16%)' : EXENTO_DE_IVA}
          </Text>
        </Box>

        {alert ? (
          <Alert
            color="red"
            variant="light"
            title="Error"
            icon={<IconAlertTriangle size={18} />}
            role="alert"
          >
            {alert.msg}
            {topup ? (
              <RequestTopupButton mt="xs" color="red" display="flex" onClick={() => onRequestTopup(topup)} />
            ) : null}
          </Alert>
        ) : null}

        <Group justify="space-between" gap="sm" mt="xs">
          {current > 0 ? (
            <Button
              variant="subtle"
              color="red"
              leftSection={<IconTrash size={16} />}
              onClick={remove}
              loading={removeItem.isPending}
              disabled={busy}
              px="xs"
            >
              Eliminar del carrito
            </Button>
          ) : (
            <span />
          )}
          <Group gap="sm" ml="auto">
            <Button variant="default" onClick={onClose} disabled={busy}>
              Cancelar
            </Button>
            <Button
              type="submit"
              loading={setItem.isPending}
              disabled={busy}
              leftSection={current > 0 ? <IconCheck size={16} /> : <IconShoppingCartPlus size={16} />}
            >
              {current > 0 ? 'Actualizar' : 'Agregar al carrito'}
            </Button>
          </Group>
        </Group>
      </Stack>
    </form>
  );
}

interface CartItemDialogProps {
  /** The product to add or change; null closes the dialog. */
  target: CartTarget | null;
  onClose: () => void;
}

/**
 * The add-to-cart dialog: quantity 1..cantidad_limite (the current one when the product is
 * already in the cart), the limit, the unit price and a live total; 'Eliminar del carrito' for an item
 * in the cart. Refusals show the server's message, on the field when it is about the quantity.
 */
export function CartItemDialog({ target, onClose }: CartItemDialogProps) {
  const { carrito } = useShopper();
  // The last product stays rendered while the dialog fades out.
  const [shown, setShown] = useState<{ target: CartTarget; current: number; seq: number } | null>(null);
  const [busy, setBusy] = useState(false);
  const [topup, setTopup] = useState<TopupTarget | null>(null);
  if (target && target !== shown?.target) {
    setShown({
      target,
      current: carrito.find((item) => item.id === target.id)?.cantidad ?? 0,
      // Each opening starts afresh, even for the same product.
      seq: (shown?.seq ?? 0) + 1,
    });
  }
  const inCart = (shown?.current ?? 0) > 0;
  return (
    <>
      <Modal
        opened={target !== null}
        onClose={() => {
          if (!busy) onClose();
        }}
        title={inCart ? 'Cambiar cantidad' : 'Agregar al carrito'}
        centered
        size={480}
        closeButtonProps={{ 'aria-label': 'Cerrar' }}
      >
        {shown ? (
          <DialogBody
            key={shown.seq}
            target={shown.target}
            current={shown.current}
            onClose={onClose}
            onBusyChange={setBusy}
            onRequestTopup={(next) => {
              onClose();
              setTopup(next);
            }}
          />
        ) : null}
      </Modal>
      <TopupDialog target={topup} onClose={() => setTopup(null)} />
    </>
  );
}
