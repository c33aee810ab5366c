import '@mantine/core/styles/Table.css';
import { Badge, Button, NumberInput, Paper, Table, Text } from '@mantine/core';
import { quantityProblem } from '@portal/shared/domain/cart';
import { MSG } from '@portal/shared/messages';
import type { ProductDto } from '@portal/shared/schemas/shopping';
import { IconCheck, IconShoppingCartPlus } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { NewPriceNote } from '../../../components/ui/new-price-note';
import phoneTable from '../../../components/ui/phone-table.module.css';
import { errorMessage, isApiError } from '../../../lib/api';
import { formatMXN } from '../../../lib/format';
import { useRemoveCartItem, useSetCartItem } from '../api/cart';
import { useShopper } from '../api/shopper';
import {
  blockedLabel,
  cartRefusal,
  isQuantityRefusal,
  targetFromProduct,
  toQuantity,
  type WebCartRefusal,
} from '../lib/cart-rules';
import { type TopupTarget, topupOffer } from '../lib/topups';
import { Availability } from './availability';
import classes from './catalogue-list.module.css';
import { LimitHint } from './limit-hint';
import { RequestTopupButton, TopupDialog } from './topup-dialog';

/** A row's message: what happened, or why not; a refusal keeps its code (a budget's offers a top-up). */
type RowNote = { kind: 'error' | 'field' | 'ok'; msg: string; code?: string } | null;

interface RowProps {
  product: ProductDto;
  /** Quantity in the cart (0: not there). */
  inCart: number;
  /** Why not even one unit can be added (the add is disabled), or null. */
  blocked: WebCartRefusal | null;
  /** 'Solicitar ampliación' under a budget refusal. */
  onRequestTopup: (target: TopupTarget) => void;
}

/**
 * One product of the compact list: its quantity field adds the product or changes its cart line in place
 * (Enter or the button), through the cart's own calls; 0 removes a line. Refusals stay on the row.
 */
function RestockRow({ product, inCart, blocked, onRequestTopup }: RowProps) {
  const shopper = useShopper();
  const setItem = useSetCartItem();
  const removeItem = useRemoveCartItem();
  // The field follows the cart: a change of the line (here or in another tab) resets it.
  const [draft, setDraft] = useState<{ base: number; value: number | string }>({
    base: inCart,
    value: inCart || 1,
  });
  const value = draft.base === inCart ? draft.value : inCart || 1;
  const [note, setNote] = useState<RowNote>(null);
  const busy = setItem.isPending || removeItem.isPending;
  const target = targetFromProduct(product);
  const cantidad = toQuantity(value);
  const removing = inCart > 0 && cantidad === 0;
  const unchanged = cantidad === inCart;
  const quantityIssue = removing ? null : quantityProblem(cantidad, target.cantidadLimite);
  // Early answers, as in the dialog: the limit while typing; the budget once the quantity is valid.
  const early =
    unchanged || removing || blocked
      ? null
      : quantityIssue?.code === 'OVER_QUANTITY_LIMIT'
        ? quantityIssue
        : quantityIssue
          ? null
          : cartRefusal(shopper, target, cantidad);
  const shown: RowNote =
    note ??
    (early
      ? { kind: isQuantityRefusal(early.code) ? 'field' : 'error', msg: early.msg, code: early.code }
      : null) ??
    (blocked ? { kind: 'error', msg: blocked.msg, code: blocked.code } : null);
  const topup = shown?.kind === 'error' ? topupOffer(shopper, shown.code, product.id_categoria) : null;
  const nameId = `fila-producto-${product.id}`;
  const noteId = `fila-nota-${product.id}`;
  const limitId = `fila-limite-${product.id}`;
  const atLimit = inCart >= target.cantidadLimite;

  const fail = (error: unknown) =>
    setNote({
      kind: isApiError(error) && isQuantityRefusal(error.code) ? 'field' : 'error',
      msg: errorMessage(error),
      code: isApiError(error) ? error.code : undefined,
    });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy || blocked || unchanged) return;
    if (removing) {
      removeItem.mutate(product.id, {
        onSuccess: () => setNote({ kind: 'ok', msg: MSG.articuloEliminado }),
        onError: fail,
      });
      return;
    }
    if (quantityIssue || cantidad === null) {
      setNote({ kind: 'field', msg: quantityIssue?.msg ?? MSG.cantidadInvalida });
      return;
    }
    const adding = inCart === 0;
    setItem.mutate(
      { id: product.id, cantidad },
      {
        onSuccess: () => setNote({ kind: 'ok', msg: adding ? MSG.articuloAgregado : MSG.carritoActualizado }),
        onError: fail,
      },
    );
  };

  return (
    <Table.Tr className={classes.row} data-testid={`fila-${product.id}`}>
      <Table.Td className={classes.clave}>
        <Text size="sm" ff="monospace">
          {product.clave_interna}
        </Text>
      </Table.Td>
      <Table.Td className={classes.name}>
        <Text size="sm" fw={600} lh={1.3} id={nameId}>
          {product.nombre}
        </Text>
        <Availability value={product.disponibilidad} mt={2} />
        {blocked ? (
          <Badge color="dark" variant="light" size="sm" radius="sm" mt={4}>
            {blockedLabel(blocked)}
          </Badge>
        ) : null}
        <Text
          id={noteId}
          size="xs"
          mt={shown ? 4 : 0}
          c={shown?.kind === 'ok' ? undefined : blocked && !note ? 'dimmed' : 'red.9'}
          aria-live="polite"
        >
          {shown?.kind === 'ok' ? (
            <IconCheck
              size={12}
              color="var(--mantine-color-teal-7)"
              aria-hidden
              style={{ verticalAlign: '-1px', marginRight: 4 }}
            />
          ) : null}
          {shown?.msg}
        </Text>
        {topup ? (
          <RequestTopupButton
            size="compact-xs"
            variant="subtle"
            mt={2}
            px={4}
            onClick={() => onRequestTopup(topup)}
            aria-label={`Solicitar ampliación (${product.nombre})`}
          />
        ) : null}
      </Table.Td>
      <Table.Td className={classes.unit}>
        <Text size="sm">{product.unidad_de_medida}</Text>
      </Table.Td>
      <Table.Td className={classes.price} ta="right">
        <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
          {formatMXN(product.precio)}
        </Text>
        <NewPriceNote pending={product.precio_programado} />
      </Table.Td>
      <Table.Td className={classes.cart} ta="center">
        <span className={classes.phoneLabel}>En carrito: </span>
        {inCart > 0 ? (
          <Badge color="teal" variant="light" size="lg" radius="sm" data-testid="en-carrito">
            {inCart}
          </Badge>
        ) : (
          <Text span size="sm" c="dimmed" data-testid="en-carrito">
            0
          </Text>
        )}
      </Table.Td>
      <Table.Td className={classes.qty}>
        <form onSubmit={submit} noValidate className={classes.form}>
          <NumberInput
            aria-label={`Cantidad de ${product.nombre}`}
            aria-describedby={shown ? `${noteId} ${limitId}` : limitId}
            value={value}
            onChange={(next) => {
              setDraft({ base: inCart, value: next });
              setNote(null);
            }}
            onFocus={(e) => e.currentTarget.select()}
            min={inCart > 0 ? 0 : 1}
            max={target.cantidadLimite}
            step={1}
            allowDecimal={false}
            allowNegative={false}
            clampBehavior="blur"
            hideControls
            inputMode="numeric"
            size="sm"
            w={72}
            disabled={Boolean(blocked)}
            error={shown?.kind === 'field'}
          />
          <Button
            type="submit"
            size="sm"
            variant={inCart > 0 ? 'light' : 'filled'}
            loading={busy}
            disabled={Boolean(blocked) || unchanged}
            // A blocked add says why: the row's note (the refusal's own text) describes it.
            aria-describedby={blocked ? noteId : undefined}
            title={blocked ? blocked.msg : undefined}
            aria-label={
              inCart > 0
                ? `Actualizar ${product.nombre} en el carrito`
                : `Agregar ${product.nombre} al carrito`
            }
            leftSection={inCart > 0 ? <IconCheck size={16} /> : <IconShoppingCartPlus size={16} />}
            px="sm"
          >
            {inCart > 0 ? 'Actualizar' : 'Agregar'}
          </Button>
        </form>
        <LimitHint id={limitId} limit={target.cantidadLimite} reached={atLimit} />
      </Table.Td>
    </Table.Tr>
  );
}

interface CatalogueListProps {
  productos: ProductDto[];
  inCart: ReadonlyMap<number, number>;
  blockedOf: (product: ProductDto) => WebCartRefusal | null;
}

/** The compact catalogue for restocking: one row per product with its quantity field. */
export function CatalogueList({ productos, inCart, blockedOf }: CatalogueListProps) {
  const [topup, setTopup] = useState<TopupTarget | null>(null);
  return (
    <Paper withBorder radius="md" shadow="xs" style={{ overflow: 'hidden' }}>
      <Table
        className={classes.table}
        verticalSpacing="xs"
        horizontalSpacing="md"
        highlightOnHover
        aria-label="Lista de productos"
      >
        <Table.Thead bg="gray.0" className={phoneTable.head}>
          <Table.Tr>
            <Table.Th w={120}>Clave</Table.Th>
            <Table.Th>Producto</Table.Th>
            <Table.Th w={110}>Unidad</Table.Th>
            <Table.Th w={120} ta="right">
              Precio
            </Table.Th>
            <Table.Th w={110} ta="center" style={{ whiteSpace: 'nowrap' }}>
              En carrito
            </Table.Th>
            <Table.Th w={230}>Cantidad</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody className={classes.body}>
          {productos.map((product) => (
            <RestockRow
              key={product.id}
              product={product}
              inCart={inCart.get(product.id) ?? 0}
              blocked={blockedOf(product)}
              onRequestTopup={setTopup}
            />
          ))}
        </Table.Tbody>
      </Table>
      <TopupDialog target={topup} onClose={() => setTopup(null)} />
    </Paper>
  );
}
