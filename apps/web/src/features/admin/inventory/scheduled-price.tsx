/**
 * Scheduled price changes in the inventory list (decision 0132): under each price, the pending change with
 * 'Cancelar' (after a confirmation), or 'Programar precio', which opens a dialog asking the new price and the
 * date it holds from, shows what it would touch (the server's preview: carts, saved lists, orders waiting for
 * approval and each buyer's cart before and after) and only then schedules it.
 */
import { Anchor, Button, Group, Modal, NumberInput, Stack, Text } from '@mantine/core';
import { addDays } from '@portal/shared/domain/time';
import { MSG } from '@portal/shared/messages';
import {
  type AdminProductDto,
  type PricePreviewResponse,
  ProductForm,
} from '@portal/shared/schemas/inventory';
import { IconCalendarDollar, IconX } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { businessToday } from '../../../components/orders/order-shipments';
import { showSuccess } from '../../../components/ui/alerts';
import { confirmAction } from '../../../components/ui/confirm';
import { DayField } from '../../../components/ui/day-field';
import { DialogActions } from '../../../components/ui/dialog-actions';
import { errorMessage } from '../../../lib/api';
import { formatIsoDate, formatMXN } from '../../../lib/format';
import { lazyValue } from '../../../lib/lazy-value';
import { adminKeys } from '../api/keys';
import { cancelScheduledPrice, previewPrices, schedulePrice } from './api';
import { PricePreviewSummary } from './price-preview-summary';

const priceRule = lazyValue(() => ProductForm.shape.precio);

/** The dialog: new price and date, the preview, then «Programar». */
function ScheduleDialog({
  product,
  onClose,
  onDone,
}: {
  product: AdminProductDto;
  onClose: () => void;
  onDone: () => void;
}) {
  const tomorrow = addDays(businessToday(), 1);
  const [precio, setPrecio] = useState<string | number>(product.precio_programado?.precio ?? product.precio);
  const [fecha, setFecha] = useState(product.precio_programado?.vigente_desde ?? tomorrow);
  const [priceError, setPriceError] = useState<string | null>(null);
  const [dateError, setDateError] = useState<string | null>(null);
  const [preview, setPreview] = useState<{ key: string; data: PricePreviewResponse } | null>(null);
  const key = `${precio}|${fecha}`;

  const check = (): number | null => {
    const parsed = priceRule.safeParse(precio);
    const price = parsed.success ? parsed.data : undefined;
    setPriceError(price === undefined ? MSG.invPrecioInvalido : null);
    setDateError(fecha && fecha >= tomorrow ? null : 'Elige una fecha posterior a hoy.');
    return price === undefined || !fecha || fecha < tomorrow ? null : price;
  };
  const look = useMutation({
    mutationFn: (price: number) => previewPrices(product.id_cliente, [{ id: product.id, precio: price }]),
    onSuccess: (data) => setPreview({ key, data }),
  });
  const save = useMutation({
    mutationFn: (price: number) => schedulePrice(product, { precio: price, vigente_desde: fecha }),
    onSuccess: (res) => {
      showSuccess(MSG.modificadoCorrectamente, res.msg);
      onDone();
    },
  });
  const shown = preview?.key === key ? preview.data : null;
  const failure = look.error ?? save.error;

  return (
    <Stack gap="md">
      <Text size="sm">
        Precio actual: <strong>{formatMXN(product.precio)}</strong>. Hasta la fecha se mantiene; a partir de
        ella carritos, listas y pedidos nuevos usan el precio nuevo.
      </Text>
      <Group align="flex-start" gap="md" grow preventGrowOverflow={false}>
        <NumberInput
          label="Precio nuevo"
          prefix="$"
          thousandSeparator=","
          decimalScale={2}
          fixedDecimalScale
          hideControls
          value={precio}
          onChange={setPrecio}
          error={priceError}
          miw={140}
        />
        <DayField
          label="Vigente desde"
          value={fecha}
          onChange={setFecha}
          minDate={tomorrow}
          error={dateError}
        />
      </Group>
      {shown ? <PricePreviewSummary preview={shown} /> : null}
      <DialogActions
        error={failure ? errorMessage(failure) : null}
        busy={look.isPending || save.isPending}
        onCancel={onClose}
        onConfirm={() => {
          const price = check();
          if (price === null) return;
          if (shown) save.mutate(price);
          else look.mutate(price);
        }}
        confirmLabel={shown ? 'Programar' : 'Ver lo que toca'}
      />
    </Stack>
  );
}

/** Under the price: the pending change with 'Cancelar', or 'Programar precio'. */
export function ScheduledPrice({ product }: { product: AdminProductDto }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const refresh = () =>
    void queryClient.invalidateQueries({ queryKey: adminKeys.inventory(product.id_cliente) });
  const pending = product.precio_programado;
  const cancel = () =>
    confirmAction({
      title: '¿Cancelar el precio programado?',
      message: `«${product.nombre}» conservará ${formatMXN(product.precio)}; no cambiará a ${formatMXN(pending!.precio)} el ${formatIsoDate(pending!.vigente_desde)}.`,
      confirmLabel: 'Cancelar el cambio',
      cancelLabel: 'Volver',
      danger: true,
      onConfirm: async () => {
        const res = await cancelScheduledPrice(product);
        showSuccess(MSG.modificadoCorrectamente, res.msg);
        refresh();
      },
    });
  return (
    <>
      {pending ? (
        <Group gap={4} wrap="nowrap" justify="flex-end" data-testid="precio-programado">
          <Anchor component="button" type="button" size="xs" onClick={() => setOpen(true)}>
            Desde el {formatIsoDate(pending.vigente_desde)}: {formatMXN(pending.precio)}
          </Anchor>
          <Button
            variant="subtle"
            color="red"
            size="compact-xs"
            px={4}
            aria-label={`Cancelar el precio programado de ${product.nombre}`}
            onClick={cancel}
          >
            <IconX size={14} aria-hidden />
          </Button>
        </Group>
      ) : (
        <Group justify="flex-end">
          <Button
            variant="subtle"
            size="compact-xs"
            leftSection={<IconCalendarDollar size={14} aria-hidden />}
            onClick={() => setOpen(true)}
            aria-label={`Programar precio de ${product.nombre}`}
          >
            Programar precio
          </Button>
        </Group>
      )}
      <Modal
        opened={open}
        onClose={() => setOpen(false)}
        title={`Programar precio: ${product.nombre}`}
        size="lg"
      >
        {open ? (
          <ScheduleDialog
            product={product}
            onClose={() => setOpen(false)}
            onDone={() => {
              setOpen(false);
              refresh();
            }}
          />
        ) : null}
      </Modal>
    </>
  );
}
