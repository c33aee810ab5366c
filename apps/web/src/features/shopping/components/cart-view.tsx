import '@mantine/core/styles/Table.css';
import {
  ActionIcon,
  Box,
  Button,
  EmptyState,
  Group,
  Paper,
  Stack,
  Table,
  Text,
  Tooltip,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { ivaOf, pesosToCentavos } from '@portal/shared/domain/money';
import { laterShipmentLabel } from '@portal/shared/domain/stock';
import { MSG } from '@portal/shared/messages';
import type { OrderSummaryDto } from '@portal/shared/schemas/orders';
import type { CartItemDto } from '@portal/shared/schemas/shopping';
import {
  IconHistory,
  IconLayoutGrid,
  IconMinus,
  IconPencil,
  IconPlus,
  IconShoppingCart,
  IconTrash,
  IconTrashX,
} from '@tabler/icons-react';
import { type ReactNode, useCallback, useState } from 'react';
import { Link } from 'react-router';
import { ivaTotalLabel } from '../../../components/orders/iva-label';
import { OrderTotalsFoot } from '../../../components/orders/order-totals';
import { showSuccess } from '../../../components/ui/alerts';
import { confirmAction } from '../../../components/ui/confirm';
import { NewPriceNote } from '../../../components/ui/new-price-note';
import { Refusal } from '../../../components/ui/refusal';
import { errorMessage, isApiError } from '../../../lib/api';
import { formatCentavos, formatMXN } from '../../../lib/format';
import { useSession } from '../../../lib/session';
import { useEmptyCart, useRemoveCartItem, useSetCartItem } from '../api/cart';
import { useShipTo } from '../api/ship-to';
import { useShopper } from '../api/shopper';
import { type CartTarget, targetFromCartItem } from '../lib/cart-rules';
import { purchaseConfirmation } from '../lib/order-extras';
import { type TopupTarget, topupOffer } from '../lib/topups';
import { CartItemDialog } from './cart-item-dialog';
import { CartNote } from './cart-note';
import { LimitHint } from './limit-hint';
import { ProductThumb } from './product-thumb';
import { PurchaseButton, PurchaseSentDialog } from './purchase-button';
import { SaveListButton } from './save-list-button';
import { ShipToChoice } from './ship-to-choice';
import { RequestTopupButton, TopupDialog } from './topup-dialog';

/** A line's IVA as shown in its row (the order's IVA is rounded once over all lines: see the totals). */
function lineIva(item: CartItemDto): string {
  return formatCentavos(item.impuesto ? ivaOf(pesosToCentavos(item.importe)) : 0);
}

interface LineActions {
  onEdit: (item: CartItemDto) => void;
  onRemove: (item: CartItemDto) => void;
  /** One unit more or less, through the same call as the quantity dialog. */
  onStep: (item: CartItemDto, cantidad: number) => void;
  busy: boolean;
}

/** − quantity + : one unit less (down to 1; removing has its own button) or more (up to the limit). */
function QuantityStepper({
  item,
  onEdit,
  onStep,
  busy,
  idPrefix,
}: { item: CartItemDto; idPrefix: string } & Pick<LineActions, 'onEdit' | 'onStep' | 'busy'>) {
  const atLimit = item.cantidad >= item.cantidad_limite;
  const limitId = `${idPrefix}-limite-${item.id}`;
  return (
    <Stack gap={2} align="center" display="inline-flex">
      <Group gap={4} wrap="nowrap" justify="center" display="inline-flex">
        <ActionIcon
          variant="default"
          size="md"
          radius="md"
          aria-label={`Quitar una unidad de ${item.nombre}`}
          onClick={() => onStep(item, item.cantidad - 1)}
          disabled={busy || item.cantidad <= 1}
        >
          <IconMinus size={14} />
        </ActionIcon>
        <QuantityButton item={item} onEdit={onEdit} />
        <ActionIcon
          variant="default"
          size="md"
          radius="md"
          aria-label={`Agregar una unidad de ${item.nombre}`}
          aria-describedby={limitId}
          title={atLimit ? `Ya tienes el máximo por pedido (${item.cantidad_limite})` : undefined}
          onClick={() => onStep(item, item.cantidad + 1)}
          disabled={busy || atLimit}
        >
          <IconPlus size={14} />
        </ActionIcon>
      </Group>
      <LimitHint id={limitId} limit={item.cantidad_limite} reached={atLimit} />
    </Stack>
  );
}

function QuantityButton({ item, onEdit }: { item: CartItemDto; onEdit: (item: CartItemDto) => void }) {
  return (
    <Tooltip label="Cambiar cantidad">
      <UnstyledButton
        onClick={() => onEdit(item)}
        aria-label={`Cantidad de ${item.nombre}: ${item.cantidad}. Cambiar cantidad`}
        px="sm"
        py={4}
        style={{
          border: '1px solid var(--mantine-color-default-border)',
          borderRadius: 'var(--mantine-radius-md)',
          display: 'inline-flex',
          alignItems: 'center',
          gap: 8,
          background: 'var(--mantine-color-body)',
        }}
      >
        <Text fw={600} size="sm" data-testid="cantidad">
          {item.cantidad}
        </Text>
        <IconPencil size={14} color="var(--mantine-color-dimmed)" aria-hidden />
      </UnstyledButton>
    </Tooltip>
  );
}

function RemoveButton({
  item,
  onRemove,
  busy,
}: {
  item: CartItemDto;
  onRemove: LineActions['onRemove'];
  busy: boolean;
}) {
  return (
    <Tooltip label="Eliminar del carrito">
      <ActionIcon
        variant="subtle"
        color="red"
        size="lg"
        aria-label={`Eliminar ${item.nombre} del carrito`}
        onClick={() => onRemove(item)}
        disabled={busy}
      >
        <IconTrash size={18} />
      </ActionIcon>
    </Tooltip>
  );
}

function ProductCell({ item }: { item: CartItemDto }) {
  return (
    <Group gap="sm" wrap="nowrap">
      <ProductThumb src={item.miniatura} size={44} radius="var(--mantine-radius-sm)" />
      <Box miw={0}>
        <Text size="sm" fw={600} lh={1.3}>
          {item.nombre}
        </Text>
        <Text size="xs" c="dimmed">
          Clave {item.clave_interna} · {item.unidad_de_medida}
        </Text>
        {item.envio_posterior ? (
          <Text size="xs" fw={600} c="var(--mantine-color-orange-filled)" data-testid="envio-posterior">
            {laterShipmentLabel(item.cantidad, item.envio_posterior)}
          </Text>
        ) : null}
      </Box>
    </Group>
  );
}

interface TotalsProps {
  subtotal: number;
  iva: number;
  total: number;
}

function CartTable({
  carrito,
  totales,
  onEdit,
  onRemove,
  onStep,
  busy,
}: { carrito: CartItemDto[]; totales: TotalsProps } & LineActions) {
  return (
    <Paper withBorder radius="md" shadow="xs" visibleFrom="xs" style={{ overflow: 'hidden' }}>
      <Table.ScrollContainer minWidth={760} type="native">
        <Table
          verticalSpacing="sm"
          horizontalSpacing="md"
          highlightOnHover
          aria-label="Productos del carrito"
        >
          <Table.Thead bg="gray.0">
            <Table.Tr>
              <Table.Th>Producto</Table.Th>
              <Table.Th>Categoría</Table.Th>
              <Table.Th ta="right">Precio</Table.Th>
              <Table.Th ta="center">Cantidad</Table.Th>
              <Table.Th ta="right">Costo</Table.Th>
              <Table.Th ta="right">IVA</Table.Th>
              <Table.Th w={56}>
                <VisuallyHidden>Acciones</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {carrito.map((item) => (
              <Table.Tr key={item.id} data-testid={`carrito-${item.id}`}>
                <Table.Td>
                  <ProductCell item={item} />
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{item.categoria}</Text>
                </Table.Td>
                <Table.Td ta="right">
                  <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                    {formatMXN(item.costo)}
                  </Text>
                  <NewPriceNote pending={item.precio_programado} />
                </Table.Td>
                <Table.Td ta="center" style={{ whiteSpace: 'nowrap' }}>
                  <QuantityStepper item={item} onEdit={onEdit} onStep={onStep} busy={busy} idPrefix="tabla" />
                </Table.Td>
                <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                  {formatMXN(item.importe)}
                </Table.Td>
                <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                  {lineIva(item)}
                </Table.Td>
                <Table.Td>
                  <RemoveButton item={item} onRemove={onRemove} busy={busy} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
          <OrderTotalsFoot
            totals={totales}
            format={formatMXN}
            ivaLabel={ivaTotalLabel(carrito)}
            labelSpan={5}
            trailingCells={1}
            valueSize="sm"
          />
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}

function MobileRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group justify="space-between" gap="xs" wrap="nowrap">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={500} ta="right" component="div">
        {children}
      </Text>
    </Group>
  );
}

/** Below ~600 px the table becomes one card per product and a totals card. */
function CartCards({
  carrito,
  totales,
  onEdit,
  onRemove,
  onStep,
  busy,
}: { carrito: CartItemDto[]; totales: TotalsProps } & LineActions) {
  return (
    <Stack gap="sm" hiddenFrom="xs">
      {carrito.map((item) => (
        <Paper
          key={item.id}
          withBorder
          radius="md"
          p="sm"
          shadow="xs"
          component="article"
          aria-label={item.nombre}
        >
          <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
            <ProductCell item={item} />
            <RemoveButton item={item} onRemove={onRemove} busy={busy} />
          </Group>
          <Stack gap={6} mt="sm">
            <MobileRow label="Categoría">{item.categoria}</MobileRow>
            <MobileRow label="Precio">
              {formatMXN(item.costo)}
              <NewPriceNote pending={item.precio_programado} />
            </MobileRow>
            <MobileRow label="Cantidad">
              <QuantityStepper item={item} onEdit={onEdit} onStep={onStep} busy={busy} idPrefix="tarjeta" />
            </MobileRow>
            <MobileRow label="Costo">{formatMXN(item.importe)}</MobileRow>
            <MobileRow label="IVA">{lineIva(item)}</MobileRow>
          </Stack>
        </Paper>
      ))}
      <Paper withBorder radius="md" p="sm" shadow="xs" aria-label="Totales del carrito" role="group">
        <Stack gap={6}>
          <MobileRow label="Subtotal">{formatMXN(totales.subtotal)}</MobileRow>
          <MobileRow label={ivaTotalLabel(carrito)}>{formatMXN(totales.iva)}</MobileRow>
          <Group
            justify="space-between"
            pt={6}
            style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
          >
            <Text fw={700}>Total</Text>
            <Text fw={800} size="lg">
              {formatMXN(totales.total)}
            </Text>
          </Group>
        </Stack>
      </Paper>
    </Stack>
  );
}

/** The cart: lines, totals, quantity changes, removal with confirmation and the purchase. */
export function CartView() {
  const shopper = useShopper();
  const { carrito, totales, presupuesto, direccion } = shopper;
  const cliente = useSession().user.cliente;
  const removeItem = useRemoveCartItem();
  const setItem = useSetCartItem();
  const empty = useEmptyCart();
  const [target, setTarget] = useState<CartTarget | null>(null);
  // A refused quantity change, above the cart; a budget's offers 'Solicitar ampliación'.
  const [refusal, setRefusal] = useState<{ msg: string; topup: TopupTarget | null } | null>(null);
  const [topup, setTopup] = useState<TopupTarget | null>(null);
  const [nota, setNota] = useState('');
  // The address book entry the order goes to: the one chosen, else the first offered (the default).
  const choices = useShipTo().data?.direcciones ?? [];
  const [chosen, setChosen] = useState<number | null>(null);
  const idDireccion = choices.find((c) => c.id === chosen)?.id ?? choices[0]?.id ?? null;
  const [sent, setSent] = useState<{ pedido: OrderSummaryDto; opened: boolean } | null>(null);
  const closeSent = useCallback(() => setSent((s) => (s ? { ...s, opened: false } : s)), []);
  const sentDialog = (
    <PurchaseSentDialog sent={sent?.pedido ?? null} opened={sent?.opened ?? false} onClose={closeSent} />
  );

  const edit = (item: CartItemDto) => setTarget(targetFromCartItem(item));
  const remove = (item: CartItemDto) =>
    confirmAction({
      title: MSG.eliminarDelCarritoTitulo,
      message: (
        <Text>
          {MSG.eliminarDelCarrito}: «{item.nombre}»,{' '}
          {item.cantidad === 1 ? '1 pieza' : `${item.cantidad} piezas`} (
          {formatMXN(item.costo * item.cantidad)}).
        </Text>
      ),
      confirmLabel: 'Eliminar',
      danger: true,
      onConfirm: async () => {
        await removeItem.mutateAsync(item.id);
        showSuccess(MSG.eliminadoTitulo, MSG.articuloEliminado);
      },
    });

  const step = (item: CartItemDto, cantidad: number) =>
    setItem.mutate(
      { id: item.id, cantidad },
      {
        onSuccess: () => {
          setRefusal(null);
          showSuccess(MSG.actualizadoTitulo, MSG.carritoActualizado);
        },
        onError: (error) =>
          setRefusal({
            msg: errorMessage(error),
            topup: isApiError(error) ? topupOffer(shopper, error.code, item.id_categoria) : null,
          }),
      },
    );
  const emptyAll = () =>
    confirmAction({
      title: '¿Vaciar el carrito?',
      message: (
        <Text>
          Se quitarán {carrito.length === 1 ? 'el producto' : `los ${carrito.length} productos`} de tu carrito
          ({formatMXN(totales.total)}). Tus pedidos y tus listas no cambian.
        </Text>
      ),
      confirmLabel: 'Vaciar carrito',
      danger: true,
      onConfirm: async () => {
        const res = await empty.mutateAsync(undefined);
        showSuccess(MSG.eliminadoTitulo, res.msg);
      },
    });

  if (carrito.length === 0) {
    return (
      <>
        <Paper withBorder radius="lg" p={{ base: 'lg', sm: 48 }} shadow="xs">
          <EmptyState
            color="indigo"
            variant="light"
            icon={<IconShoppingCart size={28} stroke={1.6} />}
            title="Tu carrito está vacío"
            description="Agrega productos desde el catálogo para armar tu pedido."
          >
            <Group justify="center" gap="sm" mt="xs">
              <Button component={Link} to="/usuario/principal" leftSection={<IconLayoutGrid size={16} />}>
                Ver todos los productos
              </Button>
              <Button
                component={Link}
                to="/usuario/historial"
                variant="default"
                leftSection={<IconHistory size={16} />}
              >
                Ver historial
              </Button>
            </Group>
          </EmptyState>
        </Paper>
        {sentDialog}
      </>
    );
  }

  const units = carrito.reduce((n, item) => n + item.cantidad, 0);
  const limite = presupuesto.limite_de_compras;
  const busy = removeItem.isPending || setItem.isPending || empty.isPending;
  const lineProps = { carrito, totales, onEdit: edit, onRemove: remove, onStep: step, busy };

  return (
    <Stack gap="md">
      <Refusal
        error={
          refusal ? (
            <>
              {refusal.msg}
              {refusal.topup ? (
                <RequestTopupButton
                  mt="xs"
                  color="red"
                  display="flex"
                  onClick={() => setTopup(refusal.topup)}
                />
              ) : null}
            </>
          ) : null
        }
        onClose={() => setRefusal(null)}
      />
      <TopupDialog target={topup} onClose={() => setTopup(null)} />
      <CartTable {...lineProps} />
      <CartCards {...lineProps} />
      <Paper withBorder radius="md" p="md" shadow="xs">
        <ShipToChoice direccion={direccion} choices={choices} value={idDireccion} onChange={setChosen} />
        <CartNote value={nota} onChange={setNota} />
        <Group justify="space-between" gap="md" wrap="wrap" mt="md">
          <Box>
            <Text size="sm">
              {carrito.length === 1 ? '1 producto' : `${carrito.length} productos`} ·{' '}
              {units === 1 ? '1 artículo' : `${units} artículos`} · Total{' '}
              <Text span fw={700}>
                {formatMXN(totales.total)}
              </Text>
            </Text>
            <Text size="xs" c="dimmed">
              {limite === -1 ? '' : `Pedidos este mes: ${presupuesto.cantidad_de_compras} de ${limite}. `}
              {purchaseConfirmation(cliente, totales.total)}
            </Text>
          </Box>
          <Group gap="sm" wrap="wrap" w={{ base: '100%', xs: 'auto' }}>
            <SaveListButton lines={carrito} w={{ base: '100%', xs: 'auto' }} />
            <Button
              variant="subtle"
              color="red"
              leftSection={<IconTrashX size={16} />}
              onClick={emptyAll}
              loading={empty.isPending}
              disabled={busy}
              w={{ base: '100%', xs: 'auto' }}
            >
              Vaciar carrito
            </Button>
            <PurchaseButton
              fullWidthOnPhone
              carrito={carrito}
              total={totales.total}
              units={units}
              nota={nota}
              idDireccion={idDireccion}
              onSent={(pedido) => {
                setNota('');
                setSent({ pedido, opened: true });
              }}
            />
          </Group>
        </Group>
      </Paper>
      <CartItemDialog target={target} onClose={() => setTarget(null)} />
      {sentDialog}
    </Stack>
  );
}
