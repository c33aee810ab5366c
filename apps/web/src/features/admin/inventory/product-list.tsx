/**
 * 'Artículos': the client's products as a dense table, sorted, searched and paginated by the server —
 * sortable headers (nombre, clave interna, categoría, precio, activo; decision 0067), the price edited in
 * place (Enter or leaving the field saves it, Escape undoes it; a refused price says why under the field),
 * the activo switch, 'Editar' for the whole form, and checkboxes with 'Activar' / 'Desactivar' for the
 * selected products after a confirmation that says how many.
 */
import '@mantine/core/styles/FloatingIndicator.css';
import '@mantine/core/styles/Image.css';
import '@mantine/core/styles/SegmentedControl.css';
import '@mantine/core/styles/Table.css';
import {
  ActionIcon,
  Box,
  Button,
  Center,
  Checkbox,
  CloseButton,
  EmptyState,
  Group,
  Image,
  NumberInput,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { INVENTORY_PER_PAGE } from '@portal/shared/limits';
import { MSG } from '@portal/shared/messages';
import {
  type AdminCategoryDto,
  type AdminProductDto,
  INVENTORY_SORT,
  type InventorySort,
  ProductForm,
} from '@portal/shared/schemas/inventory';
import { IconEdit, IconPackageOff, IconPhotoOff, IconSearch } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type KeyboardEvent, useEffect, useState } from 'react';
import { EXENTO_DE_IVA } from '../../../components/orders/iva-label';
import { showSuccess } from '../../../components/ui/alerts';
import { CategoryIcon } from '../../../components/ui/category-icon';
import { confirmAction } from '../../../components/ui/confirm';
import { LoadingRows } from '../../../components/ui/list-states';
import { Pager } from '../../../components/ui/pager';
import { Refusal } from '../../../components/ui/refusal';
import { SortableTh } from '../../../components/ui/sortable-th';
import { serverFieldErrors } from '../../../lib/form-errors';
import { formatCount, formatMXN } from '../../../lib/format';
import { lazyValue } from '../../../lib/lazy-value';
import { type RowSelection, useRowSelection } from '../../../lib/row-selection';
import { adminKeys, type ProductListParams } from '../api/keys';
import { activateProducts, updateProductInline, useProducts } from './api';
import { processFailure } from './errors';
import { ScheduledPrice } from './scheduled-price';

function Thumb({ src }: { src: string | null }) {
  const [failed, setFailed] = useState(false);
  if (!src || failed) {
    return (
      <Center
        w={32}
        h={32}
        bg="gray.1"
        c="gray.5"
        aria-hidden
        data-testid="sin-imagen"
        style={{ flexShrink: 0, borderRadius: 'var(--mantine-radius-sm)' }}
      >
        <IconPhotoOff size={16} stroke={1.4} />
      </Center>
    );
  }
  return (
    <Image
      src={src}
      alt=""
      w={32}
      h={32}
      fit="cover"
      bg="gray.1"
      loading="lazy"
      radius="sm"
      style={{ flexShrink: 0 }}
      onError={() => setFailed(true)}
    />
  );
}

const priceRule = lazyValue(() => ProductForm.shape.precio);

/** The price typed in place: saved on Enter or blur when it changed, refused under the field when bad. */
function PriceCell({ product, idCliente }: { product: AdminProductDto; idCliente: number }) {
  const queryClient = useQueryClient();
  const [value, setValue] = useState<string | number>(product.precio);
  const [error, setError] = useState<string | null>(null);
  // Another save (the form, a reload) brings a new price.
  useEffect(() => {
    setValue(product.precio);
    setError(null);
  }, [product.precio]);

  const save = useMutation({
    mutationFn: (precio: number) => updateProductInline(product, { precio }),
    onSuccess: (res) => {
      setError(null);
      showSuccess(
        MSG.modificadoCorrectamente,
        `Precio de «${res.articulo.nombre}»: ${formatMXN(res.articulo.precio)}`,
      );
      void queryClient.invalidateQueries({ queryKey: adminKeys.inventory(idCliente) });
    },
    onError: (e) => setError(serverFieldErrors(e).precio ?? processFailure(e)),
  });

  function commit() {
    if (save.isPending) return;
    if (value !== '' && Number(value) === product.precio) {
      setError(null);
      return;
    }
    const parsed = priceRule.safeParse(value);
    if (!parsed.success || parsed.data === undefined) {
      setError(
        parsed.success ? MSG.invPrecioInvalido : (parsed.error.issues[0]?.message ?? MSG.invPrecioInvalido),
      );
      return;
    }
    save.mutate(parsed.data);
  }

  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key === 'Enter') {
      e.preventDefault();
      commit();
    } else if (e.key === 'Escape') {
      setValue(product.precio);
      setError(null);
    }
  }

  return (
    <NumberInput
      size="xs"
      w={130}
      aria-label={`Precio de ${product.nombre}`}
      prefix="$"
      thousandSeparator=","
      decimalScale={2}
      fixedDecimalScale
      hideControls
      value={value}
      onChange={(v) => {
        setValue(v);
        if (error) setError(null);
      }}
      onBlur={commit}
      onKeyDown={onKeyDown}
      error={error}
      disabled={save.isPending}
      styles={{ input: { textAlign: 'right', fontVariantNumeric: 'tabular-nums' } }}
    />
  );
}

interface ProductListProps {
  idCliente: number;
  categories: AdminCategoryDto[];
  params: ProductListParams;
  onParams: (changes: Partial<ProductListParams>) => void;
  onSort: (orden: InventorySort) => void;
  editingId: number | null;
  onEdit: (p: AdminProductDto) => void;
}

/** Search (sent after a pause), category and state, and how many products the filter holds. */
function ProductFilters({
  categories,
  params,
  onParams,
  total,
}: {
  categories: AdminCategoryDto[];
  params: ProductListParams;
  onParams: (changes: Partial<ProductListParams>) => void;
  /** Undefined until the first answer. */
  total: number | undefined;
}) {
  const [search, setSearch] = useState(params.q);
  const pushSearch = useDebouncedCallback((q: string) => onParams({ q, page: 1 }), 300);
  useEffect(() => setSearch(params.q), [params.q]);
  return (
    <>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <TextInput
          type="search"
          aria-label="Buscar productos"
          placeholder="Buscar un producto..."
          leftSection={<IconSearch size={16} aria-hidden />}
          value={search}
          onChange={(e) => {
            setSearch(e.currentTarget.value);
            pushSearch(e.currentTarget.value);
          }}
          rightSection={
            search ? (
              <CloseButton
                size="sm"
                aria-label="Limpiar búsqueda"
                onClick={() => {
                  setSearch('');
                  onParams({ q: '', page: 1 });
                }}
              />
            ) : null
          }
        />
        <Select
          aria-label="Filtrar por categoría"
          placeholder="Todas las categorías"
          data={categories.map((c) => ({ value: String(c.id), label: c.nombre }))}
          value={params.categoria ? String(params.categoria) : null}
          onChange={(v) => onParams({ categoria: v ? Number(v) : null, page: 1 })}
          clearable
          searchable
          nothingFoundMessage="Sin coincidencias"
        />
      </SimpleGrid>
      <Group justify="space-between" gap="sm">
        <SegmentedControl
          size="xs"
          aria-label="Filtrar por estado"
          value={params.activo}
          onChange={(v) => onParams({ activo: v as ProductListParams['activo'], page: 1 })}
          data={[
            { value: 'todos', label: 'Todos' },
            { value: 'activos', label: 'Activos' },
            { value: 'inactivos', label: 'Inactivos' },
          ]}
        />
        <Text size="sm" c="dimmed" aria-live="polite">
          {total !== undefined ? `${formatCount(total)} ${total === 1 ? 'producto' : 'productos'}` : ''}
        </Text>
      </Group>
    </>
  );
}

/** While products are checked: how many, 'Activar', 'Desactivar' (after a confirmation) and 'Quitar selección'. */
function ProductsBulkBar({
  selected,
  onDone,
}: {
  selected: RowSelection<AdminProductDto>;
  /** After a bulk change: the list reloads. */
  onDone: () => void;
}) {
  const bulk = useMutation({
    mutationFn: ({ ids, activo }: { ids: number[]; activo: boolean }) => activateProducts(ids, activo),
    onSuccess: (res) => {
      showSuccess(MSG.modificadoCorrectamente, res.msg);
      selected.clear();
      onDone();
    },
  });

  function confirmBulk(activo: boolean) {
    const ids = selected.ids;
    const n = ids.length;
    const what = n === 1 ? '1 producto' : `${n} productos`;
    confirmAction({
      title: activo ? `¿Activar ${what}?` : `¿Desactivar ${what}?`,
      message: (
        <Text size="sm">
          {activo
            ? `${n === 1 ? 'El producto seleccionado quedará activo' : `Los ${n} productos seleccionados quedarán activos`} y se mostrarán a los usuarios que los tengan asignados.`
            : `${n === 1 ? 'El producto seleccionado quedará inactivo' : `Los ${n} productos seleccionados quedarán inactivos`}: los usuarios ya no podrán agregarlos a su carrito.`}
        </Text>
      ),
      confirmLabel: activo ? `Activar ${what}` : `Desactivar ${what}`,
      danger: !activo,
      // A refusal (another client's product…) stays in the dialog (decision 0070).
      onConfirm: () => bulk.mutateAsync({ ids, activo }),
      failure: MSG.procesoFallido,
    });
  }

  if (selected.size === 0) return null;
  return (
    <Paper
      withBorder
      radius="md"
      px="md"
      py="xs"
      bg="indigo.0"
      role="region"
      aria-label="Productos seleccionados"
    >
      <Group justify="space-between" gap="sm">
        <Text size="sm" fw={600} aria-live="polite">
          {selected.size === 1 ? '1 producto seleccionado' : `${selected.size} productos seleccionados`}
        </Text>
        <Group gap="xs">
          <Button size="xs" color="teal" loading={bulk.isPending} onClick={() => confirmBulk(true)}>
            Activar
          </Button>
          <Button
            size="xs"
            color="red"
            variant="light"
            loading={bulk.isPending}
            onClick={() => confirmBulk(false)}
          >
            Desactivar
          </Button>
          <Button size="xs" variant="subtle" color="gray" onClick={selected.clear}>
            Quitar selección
          </Button>
        </Group>
      </Group>
    </Paper>
  );
}

/** The product's stock (decision 0124): units on hand, what approved orders hold, or '—' when unknown. */
function StockCell({ product: p }: { product: AdminProductDto }) {
  if (p.existencia === null)
    return (
      <Text fz="sm" c="dimmed" aria-label="Existencia desconocida">
        —
      </Text>
    );
  return (
    <>
      <Text fz="sm">{formatCount(p.existencia)}</Text>
      {p.reservado > 0 ? (
        <Text fz="xs" c="dimmed">
          {formatCount(p.reservado)} apartadas
        </Text>
      ) : null}
    </>
  );
}

/** One product: its checkbox, name and thumbnail, keys, category, price in place, the activo switch, 'Editar'. */
function ProductRow({
  product: p,
  idCliente,
  icon,
  editing,
  selected,
  toggle,
  onEdit,
}: {
  product: AdminProductDto;
  idCliente: number;
  icon: string | undefined;
  editing: boolean;
  selected: RowSelection<AdminProductDto>;
  /** The activo switch: busy while this product's change is sent. */
  toggle: { busy: boolean; onChange: () => void };
  onEdit: (p: AdminProductDto) => void;
}) {
  return (
    <Table.Tr
      data-testid="producto-admin"
      bg={editing ? 'indigo.0' : selected.has(p.id) ? 'gray.0' : undefined}
    >
      <Table.Td>
        <Checkbox
          size="xs"
          aria-label={`Seleccionar ${p.nombre}`}
          checked={selected.has(p.id)}
          onChange={() => selected.toggle(p)}
        />
      </Table.Td>
      <Table.Td>
        <Group gap="xs" wrap="nowrap">
          <Thumb src={p.miniatura ?? p.imagen} />
          <Box miw={0}>
            <Text fz="sm" fw={600} lineClamp={1} title={p.nombre}>
              {p.nombre}
            </Text>
            {p.clave_cliente ? (
              <Text fz="xs" c="dimmed" lineClamp={1}>
                Clave cliente: {p.clave_cliente}
              </Text>
            ) : null}
          </Box>
        </Group>
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>{p.clave_interna}</Table.Td>
      <Table.Td>
        <Group gap={6} wrap="nowrap">
          <CategoryIcon name={icon} size={14} />
          <Text fz="sm" truncate>
            {p.categoria}
          </Text>
        </Group>
      </Table.Td>
      <Table.Td>
        <Group justify="flex-end" gap={6} wrap="nowrap" align="flex-start">
          <PriceCell product={p} idCliente={idCliente} />
          <Text fz="xs" c="dimmed" pt={6} w={44}>
            {p.impuesto ? '+ IVA' : EXENTO_DE_IVA}
          </Text>
        </Group>
        <ScheduledPrice product={p} />
      </Table.Td>
      <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
        <StockCell product={p} />
      </Table.Td>
      <Table.Td>
        <Switch
          size="sm"
          checked={p.activo}
          disabled={toggle.busy}
          onChange={toggle.onChange}
          aria-label={`Activo: ${p.nombre}`}
        />
      </Table.Td>
      <Table.Td>
        <Tooltip label="Editar" withArrow>
          <ActionIcon
            variant={editing ? 'filled' : 'subtle'}
            onClick={() => onEdit(p)}
            aria-label={`Editar ${p.nombre}`}
          >
            <IconEdit size={16} />
          </ActionIcon>
        </Tooltip>
      </Table.Td>
    </Table.Tr>
  );
}

export function ProductList({
  idCliente,
  categories,
  params,
  onParams,
  onSort,
  editingId,
  onEdit,
}: ProductListProps) {
  const queryClient = useQueryClient();
  const { data, isLoading, isError, isFetching } = useProducts(idCliente, params);
  // Another page, filter, sort or client: the selection was of the rows shown.
  const selected = useRowSelection<AdminProductDto>(
    JSON.stringify([idCliente, params.page, params.q, params.categoria, params.activo, params.orden]),
  );
  // A refused switch in a row: shown above the table, where the user acted (decision 0070).
  const [refusal, setRefusal] = useState<string | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: adminKeys.inventory(idCliente) });

  const toggle = useMutation({
    mutationFn: ({ product, activo }: { product: AdminProductDto; activo: boolean }) =>
      updateProductInline(product, { activo }),
    onSuccess: (res, { activo }) => {
      showSuccess(
        MSG.modificadoCorrectamente,
        `«${res.articulo.nombre}» quedó ${activo ? 'activo' : 'inactivo'}.`,
      );
      refresh();
    },
    onError: (error) => setRefusal(processFailure(error)),
  });

  const icons = new Map(categories.map((c) => [c.id, c.icono]));
  const products = data?.productos ?? [];
  const total = data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / INVENTORY_PER_PAGE));
  const filtered = Boolean(params.q || params.categoria || params.activo !== 'todos');
  const sortProps = { sort: params.orden ?? INVENTORY_SORT.byDefault, onSort };

  return (
    <Stack gap="md">
      <ProductFilters
        categories={categories}
        params={params}
        onParams={onParams}
        total={data ? total : undefined}
      />

      <ProductsBulkBar selected={selected} onDone={refresh} />

      <Refusal error={refusal} onClose={() => setRefusal(null)} />

      {isLoading ? (
        <LoadingRows label="Cargando productos" rows={5} gap={6} p={0} />
      ) : isError ? (
        <Text c="red" role="alert">
          No se pudieron cargar los productos. Recarga la página para intentarlo de nuevo.
        </Text>
      ) : products.length === 0 ? (
        <EmptyState
          py="xl"
          variant="light"
          color="gray"
          icon={<IconPackageOff size={26} stroke={1.6} />}
          title={filtered ? 'Ningún producto coincide' : 'Este cliente aún no tiene productos'}
          description={
            filtered
              ? 'Prueba con otra búsqueda o quita los filtros.'
              : 'Agrégalos con «Nuevo producto» o cárgalos en bloque con «Cargar productos».'
          }
        />
      ) : (
        <Box style={{ opacity: isFetching && !isLoading ? 0.7 : 1, transition: 'opacity 120ms' }}>
          <Table.ScrollContainer minWidth={820}>
            <Table
              verticalSpacing={4}
              horizontalSpacing="xs"
              fz="sm"
              highlightOnHover
              aria-label="Productos del cliente"
              data-testid="tabla-productos"
            >
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={36}>
                    <Checkbox
                      size="xs"
                      aria-label="Seleccionar los productos de esta página"
                      {...selected.page(products)}
                    />
                  </Table.Th>
                  <SortableTh field="nombre" {...sortProps}>
                    Nombre
                  </SortableTh>
                  <SortableTh field="clave" {...sortProps}>
                    Clave interna
                  </SortableTh>
                  <SortableTh field="categoria" {...sortProps}>
                    Categoría
                  </SortableTh>
                  <SortableTh field="precio" firstDirection="desc" ta="right" {...sortProps}>
                    Precio
                  </SortableTh>
                  <Table.Th ta="right">Existencia</Table.Th>
                  <SortableTh field="activo" firstDirection="desc" {...sortProps}>
                    Activo
                  </SortableTh>
                  <Table.Th w={48}>
                    <VisuallyHidden>Acciones</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {products.map((p) => (
                  <ProductRow
                    key={p.id}
                    product={p}
                    idCliente={idCliente}
                    icon={icons.get(p.id_categoria)}
                    editing={editingId === p.id}
                    selected={selected}
                    toggle={{
                      busy: toggle.isPending && toggle.variables?.product.id === p.id,
                      onChange: () => {
                        setRefusal(null);
                        toggle.mutate({ product: p, activo: !p.activo });
                      },
                    }}
                    onEdit={onEdit}
                  />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Pager
            label="Páginas de productos"
            mt="md"
            total={pages}
            value={params.page}
            onChange={(page) => onParams({ page })}
          />
        </Box>
      )}
    </Stack>
  );
}
