import '@mantine/core/styles/FloatingIndicator.css';
import '@mantine/core/styles/SegmentedControl.css';
import {
  ActionIcon,
  Alert,
  Box,
  Button,
  Card,
  EmptyState,
  Group,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import {
  CATALOG_ORDERS,
  type CatalogOrder,
  type CategoryDto,
  type ProductDto,
} from '@portal/shared/schemas/shopping';
import {
  IconAlertTriangle,
  IconLayoutGrid,
  IconList,
  IconPackageOff,
  IconSearch,
  IconSearchOff,
  IconX,
} from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Pager } from '../../../components/ui/pager';
import { Spinner } from '../../../components/ui/spinner';
import { errorMessage } from '../../../lib/api';
import { useSession } from '../../../lib/session';
import { catalogueQuery } from '../api/catalogue';
import { useShopper } from '../api/shopper';
import { addBlocked, type CartTarget, targetFromProduct } from '../lib/cart-rules';
import {
  type CatalogueView,
  ORDER_LABELS,
  PAGE_SIZES,
  type PageSize,
  pageSizeOf,
  storedPrefs,
  useCataloguePrefs,
} from '../lib/catalogue-prefs';
import { CartBar } from './cart-bar';
import { CartItemDialog } from './cart-item-dialog';
import { CatalogueList } from './catalogue-list';
import { ProductCard } from './product-card';

const GRID_COLS = { base: 1, xs: 2, md: 3, lg: 4 };
/** The cards of the first row at the widest layout: their pictures load at once. */
const FIRST_SCREEN_CARDS = GRID_COLS.lg;

/** The search text lives in the URL (`?q=`), where the navbar's 'Buscar...' of the other pages sends it. */
function useUrlSearch(): [string, (q: string) => void] {
  const [params, setParams] = useSearchParams();
  const value = params.get('q') ?? '';
  const set = (q: string) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (q) next.set('q', q);
        else next.delete('q');
        return next;
      },
      { replace: true },
    );
  return [value, set];
}

function GridSkeleton() {
  return (
    <SimpleGrid cols={GRID_COLS} spacing="md" aria-label="Cargando" aria-busy role="status">
      {Array.from({ length: 8 }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders without identity
        <Card key={i} withBorder radius="md" padding="md">
          <Card.Section>
            <Skeleton h={150} radius={0} />
          </Card.Section>
          <Skeleton h={14} mt="md" w="85%" />
          <Skeleton h={10} mt="sm" />
          <Skeleton h={10} mt={6} />
          <Skeleton h={10} mt={6} w="60%" />
          <Skeleton h={36} mt="md" />
        </Card>
      ))}
    </SimpleGrid>
  );
}

interface CatalogueProps {
  /** A category page: only that category's products. */
  categoria?: CategoryDto | null;
}

/** The view, order and page size controls (remembered per user). */
function ViewControls({
  vista,
  orden,
  porPagina,
  onChange,
}: {
  vista: CatalogueView;
  orden: CatalogOrder;
  porPagina: PageSize;
  onChange: (change: { vista?: CatalogueView; orden?: CatalogOrder; porPagina?: PageSize }) => void;
}) {
  return (
    <Group gap="sm" wrap="wrap">
      <SegmentedControl
        aria-label="Vista del catálogo"
        size="sm"
        value={vista}
        onChange={(v) => onChange({ vista: v as CatalogueView })}
        data={[
          {
            value: 'tarjetas',
            label: (
              <Group gap={6} wrap="nowrap" justify="center">
                <IconLayoutGrid size={16} aria-hidden />
                <span>Tarjetas</span>
              </Group>
            ),
          },
          {
            value: 'lista',
            label: (
              <Group gap={6} wrap="nowrap" justify="center">
                <IconList size={16} aria-hidden />
                <span>Lista</span>
              </Group>
            ),
          },
        ]}
      />
      <Select
        aria-label="Ordenar por"
        size="sm"
        w={170}
        allowDeselect={false}
        value={orden}
        onChange={(v) => v && onChange({ orden: v as CatalogOrder })}
        data={CATALOG_ORDERS.map((o) => ({ value: o, label: `Ordenar: ${ORDER_LABELS[o]}` }))}
      />
      <Select
        aria-label="Productos por página"
        size="sm"
        w={140}
        allowDeselect={false}
        value={String(porPagina)}
        onChange={(v) => v && onChange({ porPagina: Number(v) as PageSize })}
        data={PAGE_SIZES.map((n) => ({ value: String(n), label: `${n} por página` }))}
      />
    </Group>
  );
}

/** The catalogue's first page as the screen asks for it on entry (decision 0141). */
export function catalogueEntryQuery(userId: number, search: URLSearchParams, categoria: number | null) {
  const prefs = storedPrefs(userId);
  const q = (search.get('q') ?? '').trim();
  return catalogueQuery({ q, categoria, page: 1, perPage: pageSizeOf(prefs), orden: prefs.orden });
}

/**
 * The catalogue: its search box 'Buscar un producto...', the cards or the compact list for restocking,
 * sorted and paginated by the server, and on phones the bar that leads to the cart.
 */
export function Catalogue({ categoria = null }: CatalogueProps) {
  const shopper = useShopper();
  const { carrito, categorias, presupuesto } = shopper;
  const [prefs, setPrefs] = useCataloguePrefs(useSession().user.id);
  const perPage = pageSizeOf(prefs);
  const [text, setText] = useUrlSearch();
  const [q] = useDebouncedValue(text.trim(), 300);
  const idCategoria = categoria?.id ?? null;
  // A new search, category, order or page size starts at page 1.
  const listKey = `${idCategoria ?? 0}|${q}|${prefs.orden}|${perPage}`;
  const [paging, setPaging] = useState({ key: listKey, page: 1 });
  const page = paging.key === listKey ? paging.page : 1;
  const query = useQuery(catalogueQuery({ q, categoria: idCategoria, page, perPage, orden: prefs.orden }));
  const [target, setTarget] = useState<CartTarget | null>(null);
  const topRef = useRef<HTMLDivElement>(null);
  const inCart = useMemo(() => new Map(carrito.map((item) => [item.id, item.cantidad])), [carrito]);
  const blockedOf = (product: ProductDto) => addBlocked(shopper, targetFromProduct(product));
  const sinPresupuesto = useMemo(
    () =>
      new Set(
        presupuesto.tipo_presupuesto === 'categoria'
          ? categorias.filter((c) => !c.presupuesto).map((c) => c.id)
          : [],
      ),
    [categorias, presupuesto.tipo_presupuesto],
  );

  const data = query.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.per_page)) : 1;
  const searching = text.trim() !== q || (query.isFetching && query.isPlaceholderData);

  const open = (product: ProductDto) => setTarget(targetFromProduct(product));

  return (
    <Stack gap="md" ref={topRef} style={{ scrollMarginTop: 80 }}>
      <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }} shadow="xs">
        <Stack gap="sm">
          <Group justify="space-between" gap="sm" wrap="wrap">
            <TextInput
              placeholder="Buscar un producto..."
              aria-label="Buscar un producto"
              value={text}
              onChange={(e) => setText(e.currentTarget.value)}
              leftSection={<IconSearch size={16} aria-hidden />}
              rightSection={
                text ? (
                  <ActionIcon
                    variant="subtle"
                    color="gray"
                    size="sm"
                    aria-label="Limpiar búsqueda de productos"
                    onClick={() => setText('')}
                  >
                    <IconX size={14} />
                  </ActionIcon>
                ) : null
              }
              flex={1}
              miw={220}
              maw={520}
              autoComplete="off"
            />
            <Group gap={8} wrap="nowrap" aria-live="polite">
              {searching ? <Spinner size={14} label="Cargando" /> : null}
              {data ? (
                <Text size="sm" c="dimmed" data-testid="catalogo-total">
                  {data.total === 1 ? '1 producto' : `${data.total} productos`}
                  {q ? ` para “${q}”` : ''}
                </Text>
              ) : null}
            </Group>
          </Group>
          <ViewControls
            vista={prefs.vista}
            orden={prefs.orden}
            porPagina={perPage}
            onChange={(change) => setPrefs(change)}
          />
        </Stack>
      </Paper>

      {query.isPending ? (
        <GridSkeleton />
      ) : query.isError && !data ? (
        <Alert
          color="red"
          variant="light"
          title="No se pudieron cargar los productos"
          icon={<IconAlertTriangle size={18} />}
        >
          <Text size="sm">{errorMessage(query.error)}</Text>
          <Button size="xs" variant="light" color="red" mt="sm" onClick={() => void query.refetch()}>
            Reintentar
          </Button>
        </Alert>
      ) : data && data.productos.length === 0 ? (
        <Paper withBorder radius="md" p={{ base: 'lg', sm: 40 }} shadow="xs">
          {q ? (
            <EmptyState
              color="indigo"
              variant="light"
              icon={<IconSearchOff size={28} stroke={1.6} />}
              title="No encontramos productos"
              description={`Nada coincide con “${q}”. Prueba con otro nombre, clave o precio.`}
            >
              <Button variant="light" onClick={() => setText('')}>
                Limpiar búsqueda
              </Button>
            </EmptyState>
          ) : (
            <EmptyState
              color="indigo"
              variant="light"
              icon={<IconPackageOff size={28} stroke={1.6} />}
              title={categoria ? 'No hay productos en esta categoría' : 'Aún no tienes productos asignados'}
              description="Cuando tu administrador te asigne productos los verás aquí."
            />
          )}
        </Paper>
      ) : data ? (
        <Box style={{ opacity: searching ? 0.6 : 1, transition: 'opacity 120ms' }}>
          {prefs.vista === 'lista' ? (
            <CatalogueList productos={data.productos} inCart={inCart} blockedOf={blockedOf} />
          ) : (
            <SimpleGrid cols={GRID_COLS} spacing="md">
              {data.productos.map((product, index) => (
                <ProductCard
                  key={product.id}
                  product={product}
                  firstScreen={index < FIRST_SCREEN_CARDS}
                  inCart={inCart.get(product.id) ?? 0}
                  sinPresupuesto={sinPresupuesto.has(product.id_categoria)}
                  blocked={blockedOf(product)}
                  onOpen={open}
                />
              ))}
            </SimpleGrid>
          )}
          <Pager
            label="Páginas de productos"
            mt="xl"
            total={pages}
            value={page}
            onChange={(next) => {
              setPaging({ key: listKey, page: next });
              topRef.current?.scrollIntoView({ block: 'start', behavior: 'smooth' });
            }}
          />
        </Box>
      ) : null}

      <CartItemDialog target={target} onClose={() => setTarget(null)} />
      <CartBar />
    </Stack>
  );
}
