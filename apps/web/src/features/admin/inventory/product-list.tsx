/**
 * 'Artículos': the client's products as cards — picture, name, clave, price,
 * category, Activo/Inactivo — with edit and the activo toggle behind '¿Estás seguro?'.
 * Paginated and searched by the server (the navbar's 'Buscar...' is the same `?q=`).
 */
import {
  Box,
  Button,
  Card,
  Center,
  CloseButton,
  EmptyState,
  Group,
  Image,
  SegmentedControl,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedCallback, useMediaQuery } from '@mantine/hooks';
import { INVENTORY_PER_PAGE } from '@portal/shared/limits';
import { MSG } from '@portal/shared/messages';
import type { AdminCategoryDto, AdminProductDto } from '@portal/shared/schemas/inventory';
import { IconEdit, IconPackageOff, IconPhotoOff, IconSearch } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ActiveBadge } from '../../../components/ui/active-badge';
import { openConfirm, showError, showSuccess } from '../../../components/ui/alerts';
import { CategoryIcon } from '../../../components/ui/category-icon';
import { Pager } from '../../../components/ui/pager';
import { formatMXN } from '../../../lib/format';
import { adminKeys, type ProductListParams } from '../api/keys';
import { toggleProduct, useProducts } from './api';
import { processFailure } from './errors';

function Thumb({ src, size }: { src: string | null; size?: number }) {
  const [failed, setFailed] = useState(false);
  const w = size ?? '100%';
  const h = size ?? 130;
  if (!src || failed) {
    return (
      <Center
        w={w}
        h={h}
        bg="gray.1"
        c="gray.5"
        aria-hidden
        data-testid="sin-imagen"
        style={{ flexShrink: 0, borderRadius: size ? 'var(--mantine-radius-md)' : 0 }}
      >
        <IconPhotoOff size={size ? 28 : 34} stroke={1.4} />
      </Center>
    );
  }
  return (
    <Image
      src={src}
      alt=""
      w={w}
      h={h}
      fit="cover"
      bg="gray.1"
      loading="lazy"
      radius={size ? 'md' : 0}
      style={{ flexShrink: 0 }}
      onError={() => setFailed(true)}
    />
  );
}

interface CardProps {
  product: AdminProductDto;
  icono: string | undefined;
  selected: boolean;
  onEdit: (p: AdminProductDto) => void;
  onToggle: (p: AdminProductDto) => void;
  toggling: boolean;
  /** Phones: picture beside the text, so more products fit on the screen. */
  compact: boolean;
}

function AdminProductCard({ product, icono, selected, onEdit, onToggle, toggling, compact }: CardProps) {
  const titleId = `producto-admin-${product.id}`;
  const details = (
    <>
      <Text
        id={titleId}
        component="h3"
        fw={600}
        size="sm"
        lh={1.35}
        lineClamp={2}
        mih={compact ? undefined : 38}
        title={product.nombre}
      >
        {product.nombre}
      </Text>
      <Text size="xs" c="dimmed">
        Clave:{' '}
        <Text span size="xs" fw={600} c="dark.6">
          {product.clave_interna}
        </Text>
        {product.clave_cliente ? ` · Cliente: ${product.clave_cliente}` : ''}
      </Text>
      <Group gap={6} wrap="nowrap" c="dimmed">
        <CategoryIcon name={icono} size={14} />
        <Text size="xs" truncate>
          {product.categoria}
        </Text>
      </Group>
    </>
  );
  const price = (
    <Group justify="space-between" align="baseline" mt="auto" pt={4}>
      <Text fw={700} c="indigo.8">
        {formatMXN(product.precio)}
      </Text>
      <Text size="xs" c="dimmed">
        {product.impuesto ? '+ IVA' : 'Sin IVA'}
      </Text>
    </Group>
  );
  const actions = (
    <Group justify="space-between" mt={6} gap="xs" wrap="nowrap">
      <Switch
        size="sm"
        label="Activo"
        checked={product.activo}
        disabled={toggling}
        onChange={() => onToggle(product)}
        aria-label={`${product.activo ? 'Desactivar' : 'Activar'} ${product.nombre}`}
      />
      <Button
        size="xs"
        variant={selected ? 'filled' : 'light'}
        leftSection={<IconEdit size={14} />}
        onClick={() => onEdit(product)}
        aria-label={`Editar ${product.nombre}`}
        style={{ flexShrink: 0 }}
      >
        Editar
      </Button>
    </Group>
  );
  const cardProps = {
    component: 'article',
    'aria-labelledby': titleId,
    withBorder: true,
    radius: 'md',
    padding: 'sm',
    shadow: selected ? 'md' : 'xs',
    style: {
      display: 'flex',
      flexDirection: 'column',
      borderColor: selected ? 'var(--mantine-color-indigo-5)' : undefined,
    },
    'data-testid': 'producto-admin',
  } as const;
  // Card.Section must be a direct child of Card (no fragment) to sit flush with the card's edges.
  if (compact) {
    return (
      <Card {...cardProps}>
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <Thumb src={product.miniatura ?? product.imagen} size={84} />
          <Stack gap={3} style={{ flex: 1, minWidth: 0 }}>
            {details}
            <Group justify="space-between" gap={4} wrap="nowrap">
              <Text fw={700} c="indigo.8" size="sm">
                {formatMXN(product.precio)}
              </Text>
              <ActiveBadge activo={product.activo} variant="filled" />
            </Group>
          </Stack>
        </Group>
        {actions}
      </Card>
    );
  }
  return (
    <Card {...cardProps}>
      <Card.Section pos="relative">
        <Thumb src={product.miniatura ?? product.imagen} />
        <Box pos="absolute" top={8} right={8}>
          <ActiveBadge activo={product.activo} variant="filled" />
        </Box>
      </Card.Section>
      <Stack gap={4} mt="sm" style={{ flex: 1 }}>
        {details}
        {price}
        {actions}
      </Stack>
    </Card>
  );
}

interface ProductListProps {
  idCliente: number;
  categories: AdminCategoryDto[];
  params: ProductListParams;
  onParams: (changes: Partial<ProductListParams>) => void;
  editingId: number | null;
  onEdit: (p: AdminProductDto) => void;
}

export function ProductList({
  idCliente,
  categories,
  params,
  onParams,
  editingId,
  onEdit,
}: ProductListProps) {
  const queryClient = useQueryClient();
  const compact = useMediaQuery('(max-width: 36em)') ?? false;
  const { data, isLoading, isError, isFetching } = useProducts(idCliente, params);
  const [search, setSearch] = useState(params.q);
  const pushSearch = useDebouncedCallback((q: string) => onParams({ q, page: 1 }), 300);
  // The navbar's search box writes the same `?q=`: follow it.
  useEffect(() => setSearch(params.q), [params.q]);

  const toggle = useMutation({
    mutationFn: ({ product, activo }: { product: AdminProductDto; activo: boolean }) =>
      toggleProduct(product, activo),
    onSuccess: (_res, { activo }) => {
      showSuccess(
        MSG.modificadoCorrectamente,
        activo ? 'El producto quedó activo.' : 'El producto quedó inactivo.',
      );
      void queryClient.invalidateQueries({ queryKey: adminKeys.inventory(idCliente) });
    },
    onError: (error) => void showError(processFailure(error)),
  });

  function confirmToggle(product: AdminProductDto) {
    const activo = !product.activo;
    openConfirm({
      title: MSG.confirmarTitulo,
      centered: true,
      children: (
        <Text size="sm">
          {activo
            ? `El producto «${product.nombre}» quedará activo y volverá a mostrarse a los usuarios que lo tengan asignado.`
            : `El producto «${product.nombre}» quedará inactivo: los usuarios ya no podrán agregarlo a su carrito.`}
        </Text>
      ),
      labels: { confirm: activo ? 'Sí, activar' : 'Sí, desactivar', cancel: 'Cancelar' },
      confirmProps: { color: activo ? 'teal' : 'red' },
      onConfirm: () => toggle.mutate({ product, activo }),
    });
  }

  const icons = new Map(categories.map((c) => [c.id, c.icono]));
  const products = data?.productos ?? [];
  const total = data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / INVENTORY_PER_PAGE));
  const filtered = Boolean(params.q || params.categoria || params.activo !== 'todos');

  return (
    <Stack gap="md">
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
          {data ? `${total.toLocaleString('es-MX')} ${total === 1 ? 'producto' : 'productos'}` : ''}
        </Text>
      </Group>

      {isLoading ? (
        <SimpleGrid cols={{ base: 1, xs: 2, xl: 3 }} spacing="md">
          {[0, 1, 2].map((k) => (
            <Skeleton key={k} h={300} radius="md" />
          ))}
        </SimpleGrid>
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
              : 'Agrégalos con el formulario o cárgalos en bloque con «Cargar productos».'
          }
        />
      ) : (
        <Box style={{ opacity: isFetching && !isLoading ? 0.7 : 1, transition: 'opacity 120ms' }}>
          <SimpleGrid cols={{ base: 1, xs: 2, xl: 3 }} spacing="md">
            {products.map((p) => (
              <AdminProductCard
                key={p.id}
                product={p}
                icono={icons.get(p.id_categoria)}
                selected={editingId === p.id}
                onEdit={onEdit}
                onToggle={confirmToggle}
                toggling={toggle.isPending && toggle.variables?.product.id === p.id}
                compact={compact}
              />
            ))}
          </SimpleGrid>
          <Pager
            label="Páginas de productos"
            mt="lg"
            total={pages}
            value={params.page}
            onChange={(page) => onParams({ page })}
          />
        </Box>
      )}
    </Stack>
  );
}
