/**
 * The order's lines. While the authorizer may edit (acciones.editar), each line has an edit-quantity and a
 * remove control; edits stay local and are validated as docs/domain.md "Order workflow" says.
 */
import '@mantine/core/styles/Table.css';
import {
  ActionIcon,
  Badge,
  Box,
  Card,
  Group,
  NumberInput,
  Stack,
  Table,
  Text,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { pesosToCentavos } from '@portal/shared/domain/money';
import { MSG } from '@portal/shared/messages';
import type { OrderLineDto } from '@portal/shared/schemas/orders';
import { IconArrowBackUp, IconCheck, IconPencil, IconTrash, IconX } from '@tabler/icons-react';
import type { KeyboardEvent } from 'react';
import { EXENTO_DE_IVA } from '../../../components/orders/iva-label';
import { businessToday, LineFulfilment } from '../../../components/orders/order-shipments';
import { NewPriceNote } from '../../../components/ui/new-price-note';
import { formatCentavos, formatMXN } from '../../../lib/format';

export interface LineControls {
  editable: boolean;
  /** Quantity now (undefined: the line will be removed). */
  quantityOf: (productId: number) => number | undefined;
  limitOf: (productId: number) => number;
  /** Lines still kept (the last one cannot be removed). */
  keptCount: number;
  /** The line whose quantity is being edited (one at a time), its draft value and its error. */
  editor: { id: number; value: number | string; error: string | null } | null;
  startEdit: (productId: number) => void;
  changeDraft: (value: number | string) => void;
  /** Validates the draft and applies it, or leaves the error on the editor. */
  applyEdit: () => void;
  cancelEdit: () => void;
  remove: (productId: number) => void;
  restore: (productId: number) => void;
}

const numeric = { fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' } as const;

function lineAmount(line: OrderLineDto, cantidad: number) {
  return formatCentavos(pesosToCentavos(line.costo) * cantidad);
}

function ProductCell({ line, removed }: { line: OrderLineDto; removed: boolean }) {
  return (
    <Box miw={0}>
      <Text size="sm" fw={600} td={removed ? 'line-through' : undefined} c={removed ? 'dimmed' : undefined}>
        {line.nombre}
      </Text>
      <Text size="xs" c="dimmed">
        {line.clave_interna} · {line.unidad_de_medida} · {line.categoria}
        {line.impuesto ? '' : ` · ${EXENTO_DE_IVA}`}
      </Text>
      <LineFulfilment linea={line} today={businessToday()} />
      {removed ? (
        <Badge size="xs" color="red" variant="light" mt={4}>
          Se quitará al aprobar
        </Badge>
      ) : null}
    </Box>
  );
}

/** The quantity, and while editing a number input with apply / discard. */
function QuantityCell({ line, controls }: { line: OrderLineDto; controls: LineControls }) {
  const current = controls.quantityOf(line.id_producto);
  const limit = controls.limitOf(line.id_producto);
  const editor = controls.editor?.id === line.id_producto ? controls.editor : null;

  if (current === undefined) {
    return (
      <Text size="sm" c="dimmed" td="line-through" style={numeric}>
        {line.cantidad}
      </Text>
    );
  }

  const changed = current !== line.cantidad;
  if (!editor) {
    return (
      <Group gap={6} wrap="nowrap" justify="center">
        <Box ta="center">
          <Text size="sm" fw={changed ? 700 : 400} c={changed ? 'indigo.7' : undefined} style={numeric}>
            {current}
          </Text>
          {changed ? (
            <Text size="xs" c="dimmed" style={numeric}>
              antes {line.cantidad}
            </Text>
          ) : null}
        </Box>
        {controls.editable ? (
          <Tooltip label="Editar cantidad">
            <ActionIcon
              variant="subtle"
              size="md"
              aria-label={`Editar cantidad de ${line.nombre}`}
              onClick={() => controls.startEdit(line.id_producto)}
            >
              <IconPencil size={16} />
            </ActionIcon>
          </Tooltip>
        ) : null}
      </Group>
    );
  }

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      controls.applyEdit();
    } else if (e.key === 'Escape') {
      e.preventDefault();
      controls.cancelEdit();
    }
  };

  return (
    <Stack gap={2} align="center" miw={150}>
      <Group gap={4} wrap="nowrap" align="flex-start">
        <NumberInput
          aria-label={`Cantidad de ${line.nombre}`}
          value={editor.value}
          onChange={controls.changeDraft}
          onKeyDown={onKeyDown}
          min={1}
          max={limit}
          step={1}
          allowDecimal={false}
          allowNegative={false}
          clampBehavior="none"
          hideControls
          inputMode="numeric"
          size="sm"
          w={72}
          error={Boolean(editor.error)}
          aria-describedby={`cantidad-ayuda-${line.id}`}
          autoFocus
        />
        <ActionIcon
          variant="filled"
          color="teal"
          size={36}
          aria-label={`Aplicar cantidad de ${line.nombre}`}
          onClick={controls.applyEdit}
        >
          <IconCheck size={16} />
        </ActionIcon>
        <ActionIcon
          variant="default"
          size={36}
          aria-label={`Descartar cambio de ${line.nombre}`}
          onClick={controls.cancelEdit}
        >
          <IconX size={16} />
        </ActionIcon>
      </Group>
      {editor.error ? (
        <Text size="xs" c="red" role="alert" maw={220} ta="center" id={`cantidad-ayuda-${line.id}`}>
          {editor.error}
        </Text>
      ) : (
        <Text size="xs" c="dimmed" id={`cantidad-ayuda-${line.id}`}>
          Máximo {limit}
        </Text>
      )}
    </Stack>
  );
}

function RowActions({ line, controls }: { line: OrderLineDto; controls: LineControls }) {
  const removed = controls.quantityOf(line.id_producto) === undefined;
  if (removed) {
    return (
      <Tooltip label="Restaurar producto">
        <ActionIcon
          variant="subtle"
          color="gray"
          aria-label={`Restaurar ${line.nombre}`}
          onClick={() => controls.restore(line.id_producto)}
        >
          <IconArrowBackUp size={18} />
        </ActionIcon>
      </Tooltip>
    );
  }
  const last = controls.keptCount <= 1;
  return (
    <Tooltip label={last ? MSG.pedidoSinLineas : 'Quitar del pedido'} multiline w={last ? 260 : undefined}>
      <ActionIcon
        variant="subtle"
        color="red"
        aria-label={`Quitar ${line.nombre}`}
        aria-disabled={last}
        data-disabled={last || undefined}
        onClick={() => {
          if (!last) controls.remove(line.id_producto);
        }}
      >
        <IconTrash size={18} />
      </ActionIcon>
    </Tooltip>
  );
}

export function OrderLinesTable({ lineas, controls }: { lineas: OrderLineDto[]; controls: LineControls }) {
  // One layout at a time (each line keeps its own editing state).
  const phone = useMediaQuery('(max-width: 47.99em)', false, { getInitialValueInEffect: false });
  if (!phone) {
    return (
      <Table.ScrollContainer minWidth={640} type="native">
        <Table verticalSpacing="sm" horizontalSpacing="md">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Producto</Table.Th>
              <Table.Th ta="right">Precio</Table.Th>
              <Table.Th ta="center">Cantidad</Table.Th>
              <Table.Th ta="right">Importe</Table.Th>
              {controls.editable ? (
                <Table.Th ta="right" w={64}>
                  <VisuallyHidden>Quitar</VisuallyHidden>
                </Table.Th>
              ) : null}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {lineas.map((line) => {
              const q = controls.quantityOf(line.id_producto);
              const removed = q === undefined;
              return (
                <Table.Tr key={line.id} bg={removed ? 'var(--mantine-color-gray-0)' : undefined}>
                  <Table.Td>
                    <ProductCell line={line} removed={removed} />
                  </Table.Td>
                  <Table.Td ta="right" style={numeric}>
                    {formatMXN(line.costo)}
                    <NewPriceNote pending={line.precio_programado} style={{ whiteSpace: 'normal' }} />
                  </Table.Td>
                  <Table.Td ta="center">
                    <QuantityCell line={line} controls={controls} />
                  </Table.Td>
                  <Table.Td ta="right" style={numeric} c={removed ? 'dimmed' : undefined}>
                    {removed ? <s>{lineAmount(line, line.cantidad)}</s> : lineAmount(line, q)}
                  </Table.Td>
                  {controls.editable ? (
                    <Table.Td ta="right">
                      <RowActions line={line} controls={controls} />
                    </Table.Td>
                  ) : null}
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );
  }

  // Phones: one card per line.
  return (
    <Stack gap="sm" component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
      {lineas.map((line) => {
        const q = controls.quantityOf(line.id_producto);
        const removed = q === undefined;
        return (
          <Card
            key={line.id}
            withBorder
            radius="md"
            padding="sm"
            component="li"
            bg={removed ? 'gray.0' : undefined}
          >
            <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
              <ProductCell line={line} removed={removed} />
              {controls.editable ? <RowActions line={line} controls={controls} /> : null}
            </Group>
            <Group justify="space-between" align="center" mt="xs" wrap="nowrap" gap="xs">
              <Text size="xs" c="dimmed" style={numeric}>
                {formatMXN(line.costo)} c/u
              </Text>
              <QuantityCell line={line} controls={controls} />
              <Text size="sm" fw={600} style={numeric} c={removed ? 'dimmed' : undefined}>
                {removed ? <s>{lineAmount(line, line.cantidad)}</s> : lineAmount(line, q)}
              </Text>
            </Group>
            <NewPriceNote pending={line.precio_programado} mt={4} />
          </Card>
        );
      })}
    </Stack>
  );
}
