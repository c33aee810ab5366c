/**
 * One saved list: its name and items with the products' current data (an unavailable one greyed with the
 * server's reason), editable quantities, removable items, a rename, 'Agregar todo al carrito' (the shared
 * add-result dialog) and 'Eliminar lista' after '¿Estás seguro?' (docs/domain.md "Cart", decision 0043).
 */
import '@mantine/core/styles/Table.css';
import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Box,
  Button,
  Group,
  NumberInput,
  Paper,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { type GetInputPropsReturnType, schemaResolver, useForm } from '@mantine/form';
import {
  LIST_NAME_MAX,
  LIST_QUANTITY_MAX,
  ListCreateBody,
  type ListDetailDto,
  type ListItemDto,
} from '@portal/shared/schemas/lists';
import type { ReorderResponse } from '@portal/shared/schemas/shopping';
import { IconArrowLeft, IconDeviceFloppy, IconShoppingCartPlus, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { type CSSProperties, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { showSuccess } from '../../../components/ui/alerts';
import { confirmAction } from '../../../components/ui/confirm';
import { LoadError } from '../../../components/ui/list-states';
import { NewPriceNote } from '../../../components/ui/new-price-note';
import { PageHeader } from '../../../components/ui/page';
import phoneTable from '../../../components/ui/phone-table.module.css';
import { Refusal } from '../../../components/ui/refusal';
import { errorMessage, isApiError } from '../../../lib/api';
import { applyFieldErrors } from '../../../lib/form-errors';
import { formatDate, formatMXN } from '../../../lib/format';
import { listQuery, useDeleteList, useListToCart, useUpdateList } from '../api/lists';
import { AddResultDialog } from './add-result-dialog';
import { LimitHint } from './limit-hint';
import { ProductThumb } from './product-thumb';

interface ListValues {
  nombre: string;
  items: { id: number; cantidad: number | string }[];
}

const valuesOf = (lista: ListDetailDto): ListValues => ({
  nombre: lista.nombre,
  items: lista.items.map((i) => ({ id: i.id, cantidad: i.cantidad })),
});

/** On phones each item is a card: picture, name and remove; then its quantity and price. */
const CARD = {
  '--wide-min-width': '560px',
  '--phone-columns': 'auto 1fr auto',
  '--phone-areas': '"thumb name remove" "qty qty price"',
} as CSSProperties;

function ItemRow({
  item,
  quantityProps,
  onRemove,
}: {
  item: ListItemDto;
  /** The form's props of this item's quantity field. */
  quantityProps: GetInputPropsReturnType;
  onRemove: () => void;
}) {
  return (
    <Table.Tr
      data-testid="lista-item"
      data-disponible={item.disponible}
      bg={item.disponible ? undefined : 'var(--mantine-color-gray-0)'}
    >
      <Table.Td w={56} style={{ gridArea: 'thumb' }}>
        <Box style={item.disponible ? undefined : { opacity: 0.45, filter: 'grayscale(1)' }}>
          <ProductThumb src={item.miniatura} size={44} radius="sm" />
        </Box>
      </Table.Td>
      <Table.Td style={{ gridArea: 'name' }}>
        <Text fw={600} size="sm" c={item.disponible ? undefined : 'dimmed'}>
          {item.nombre}
        </Text>
        <Text size="xs" c="dimmed">
          {item.clave_interna}
          {item.clave_cliente ? ` · ${item.clave_cliente}` : ''} · {item.unidad_de_medida}
        </Text>
        {item.motivo ? (
          <Badge
            color="gray"
            variant="light"
            size="sm"
            mt={4}
            tt="none"
            h="auto"
            py={2}
            styles={{ label: { whiteSpace: 'normal', overflow: 'visible' } }}
          >
            {item.motivo}
          </Badge>
        ) : null}
      </Table.Td>
      <Table.Td ta="right" style={{ gridArea: 'price', whiteSpace: 'nowrap', justifySelf: 'end' }}>
        {formatMXN(item.precio)}
        <NewPriceNote pending={item.precio_programado} style={{ whiteSpace: 'normal' }} />
      </Table.Td>
      <Table.Td w={130} style={{ gridArea: 'qty' }}>
        <NumberInput
          aria-label={`Cantidad de ${item.nombre}`}
          aria-describedby={item.cantidad_limite !== null ? `lista-limite-${item.id}` : undefined}
          min={1}
          max={item.cantidad_limite ?? LIST_QUANTITY_MAX}
          allowDecimal={false}
          allowNegative={false}
          size="xs"
          {...quantityProps}
        />
        {item.cantidad_limite !== null ? (
          <Box mt={2}>
            <LimitHint id={`lista-limite-${item.id}`} limit={item.cantidad_limite} />
          </Box>
        ) : null}
      </Table.Td>
      <Table.Td w={48} style={{ gridArea: 'remove' }}>
        <ActionIcon
          variant="subtle"
          color="red"
          aria-label={`Quitar ${item.nombre} de la lista`}
          onClick={onRemove}
        >
          <IconTrash size={16} />
        </ActionIcon>
      </Table.Td>
    </Table.Tr>
  );
}

function ListEditor({ lista }: { lista: ListDetailDto }) {
  const navigate = useNavigate();
  const update = useUpdateList(lista.id);
  const remove = useDeleteList();
  const toCart = useListToCart();
  const [result, setResult] = useState<ReorderResponse | null>(null);
  const [resultOpen, setResultOpen] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  // A refused 'Agregar todo al carrito', under the page's header.
  const [addRefusal, setAddRefusal] = useState<string | null>(null);
  const form = useForm<ListValues>({
    mode: 'controlled',
    initialValues: valuesOf(lista),
    validate: (values) => schemaResolver(ListCreateBody, { sync: true })(values),
    onValuesChange: () => setFailure(null),
  });
  const byId = new Map(lista.items.map((i) => [i.id, i]));
  const dirty = form.isDirty();

  const save = form.onSubmit((values) =>
    update.mutate(
      // Only what changed: a rename alone keeps items the buyer can no longer have (shown greyed).
      {
        ...(form.isDirty('nombre') ? { nombre: values.nombre.trim() } : {}),
        ...(form.isDirty('items')
          ? { items: values.items.map((i) => ({ id: i.id, cantidad: Number(i.cantidad) })) }
          : {}),
      },
      {
        onSuccess: (res) => {
          form.setInitialValues(valuesOf(res.lista));
          form.setValues(valuesOf(res.lista));
          showSuccess('Lista guardada', res.msg);
        },
        onError: (error) => {
          const rest = applyFieldErrors(form, error);
          if (isApiError(error) && error.code === 'LIST_NAME_TAKEN') form.setFieldError('nombre', error.msg);
          else setFailure(Object.values(rest)[0] ?? errorMessage(error));
        },
      },
    ),
  );

  const addAll = () =>
    toCart.mutate(lista.id, {
      onSuccess: (res) => {
        setAddRefusal(null);
        setResult(res);
        setResultOpen(true);
      },
      onError: (error) => setAddRefusal(errorMessage(error)),
    });

  const count = lista.items.length;
  const askDelete = () =>
    confirmAction({
      title: `¿Eliminar la lista «${lista.nombre}»?`,
      message: (
        <Text size="sm">
          Se eliminará la lista con sus {count === 1 ? 'un producto' : `${count} productos`}. Tu carrito y tus
          pedidos no cambian.
        </Text>
      ),
      confirmLabel: 'Eliminar lista',
      danger: true,
      onConfirm: async () => {
        const res = await remove.mutateAsync(lista.id);
        showSuccess('Lista eliminada', res.msg);
        navigate('/usuario/listas');
      },
    });

  return (
    <Stack gap={0}>
      <Anchor component={Link} to="/usuario/listas" size="sm" mb="xs">
        <Group gap={4} component="span">
          <IconArrowLeft size={14} aria-hidden /> Mis listas
        </Group>
      </Anchor>
      <PageHeader
        title={lista.nombre}
        description={`${count === 1 ? '1 producto' : `${count} productos`} · actualizada el ${formatDate(lista.actualizada)}. Los precios son los actuales.`}
        actions={
          <>
            <Button variant="light" color="red" leftSection={<IconTrash size={16} />} onClick={askDelete}>
              Eliminar lista
            </Button>
            <Button
              leftSection={<IconShoppingCartPlus size={16} />}
              onClick={addAll}
              loading={toCart.isPending}
              disabled={dirty || count === 0}
            >
              Agregar todo al carrito
            </Button>
          </>
        }
      />
      <Refusal
        error={addRefusal}
        title="No se pudo agregar la lista"
        onClose={() => setAddRefusal(null)}
        mb="md"
      />
      {dirty ? (
        <Alert color="yellow" variant="light" mb="md">
          Tienes cambios sin guardar. Guárdalos antes de agregar la lista al carrito.
        </Alert>
      ) : null}
      <Paper withBorder radius="md" shadow="xs" p="md">
        <form onSubmit={save} noValidate>
          <Stack gap="md">
            <TextInput
              label="Nombre de la lista"
              maxLength={LIST_NAME_MAX}
              maw={420}
              {...form.getInputProps('nombre')}
            />
            {form.values.items.length === 0 ? (
              <Text c="dimmed" size="sm">
                La lista no tiene productos.
              </Text>
            ) : (
              <div className={phoneTable.scroll}>
                <Table className={phoneTable.table} style={CARD} verticalSpacing="xs">
                  <Table.Thead className={phoneTable.head}>
                    <Table.Tr>
                      <Table.Th>
                        <VisuallyHidden>Imagen</VisuallyHidden>
                      </Table.Th>
                      <Table.Th>Producto</Table.Th>
                      <Table.Th ta="right">Precio</Table.Th>
                      <Table.Th>Cantidad</Table.Th>
                      <Table.Th>
                        <VisuallyHidden>Quitar</VisuallyHidden>
                      </Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {form.values.items.map((value, index) => {
                      const item = byId.get(value.id);
                      return item ? (
                        <ItemRow
                          key={value.id}
                          item={item}
                          quantityProps={form.getInputProps(`items.${index}.cantidad`)}
                          onRemove={() => form.removeListItem('items', index)}
                        />
                      ) : null;
                    })}
                  </Table.Tbody>
                </Table>
              </div>
            )}
            {failure ? (
              <Alert color="red" variant="light">
                {failure}
              </Alert>
            ) : null}
            <Group justify="flex-end" gap="sm">
              <Button variant="default" disabled={!dirty || update.isPending} onClick={() => form.reset()}>
                Descartar cambios
              </Button>
              <Button
                type="submit"
                leftSection={<IconDeviceFloppy size={16} />}
                loading={update.isPending}
                disabled={!dirty}
              >
                Guardar cambios
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
      <AddResultDialog
        result={result}
        opened={resultOpen}
        onClose={() => setResultOpen(false)}
        title={`Lista «${lista.nombre}» al carrito`}
      />
    </Stack>
  );
}

/** The list page: loads the list (404 when it is not the buyer's) and edits it. */
export function SavedListDetail({ id }: { id: number }) {
  const lista = useQuery(listQuery(id));
  if (lista.isPending)
    return <Skeleton height={320} radius="md" role="status" aria-busy aria-label="Cargando la lista" />;
  if (lista.isError)
    return (
      <Stack gap="md">
        <Anchor component={Link} to="/usuario/listas" size="sm">
          Volver a Mis listas
        </Anchor>
        <LoadError title="No se pudo cargar la lista" error={lista.error} onRetry={() => lista.refetch()} />
      </Stack>
    );
  // A fresh editor for each saved version of the list (after a save the answer replaces it).
  return <ListEditor key={`${lista.data.id}-${lista.data.actualizada}`} lista={lista.data} />;
}
