/**
 * The products of the user's client with the switch
 * asignado ('habilitado' / 'no habilitado') and the cantidad_limite (saved on blur or Enter), both through
 * POST /api/productos/asignar; a category filter (`?categoria=`) with 'Habilitar categoría'; 'Asignar
 * todos' / 'Quitar todos' and 'Copiar de otro usuario…'; a side card with the username and the client; a
 * link back to the users list of that client. A client administrator (rol 5, scope.ts) has the same page for
 * its own buyers in its area; without its client's permission `asignaciones` it only sees them.
 */
import '@mantine/core/styles/Avatar.css';
import '@mantine/core/styles/Grid.css';
import '@mantine/core/styles/Table.css';
import {
  Anchor,
  Avatar,
  Badge,
  Box,
  Button,
  Card,
  EmptyState,
  Grid,
  Group,
  NumberInput,
  Paper,
  Select,
  Skeleton,
  Stack,
  Switch,
  Table,
  Text,
  ThemeIcon,
} from '@mantine/core';
import { formatMXN } from '@portal/shared/domain/money';
import { USER_PRODUCTS_PER_PAGE } from '@portal/shared/limits';
import { MSG } from '@portal/shared/messages';
import {
  type UserProductDto,
  UserProductsQuery,
  type UserProductsResponse,
} from '@portal/shared/schemas/assignments';
import {
  IconArrowLeft,
  IconBuildingStore,
  IconCheck,
  IconCircleCheck,
  IconCircleX,
  IconCopy,
  IconPackages,
  IconPhotoOff,
  IconUser,
  IconUserQuestion,
} from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { showSuccess } from '../../../components/ui/alerts';
import { confirmAction } from '../../../components/ui/confirm';
import { ListPanel } from '../../../components/ui/list-panel';
import { ListSearch } from '../../../components/ui/list-search';
import { ListEmpty } from '../../../components/ui/list-states';
import { PageHeader } from '../../../components/ui/page';
import { Spinner } from '../../../components/ui/spinner';
import { errorMessage, isApiError } from '../../../lib/api';
import { lazyValue } from '../../../lib/lazy-value';
import { useListParams, usePagedSearch } from '../../../lib/list-params';
import { useClientCategories } from '../inventory/api';
import { areaPath, isDistributor, mayAssign } from '../scope';
import { useAdminScope } from '../scope-context';
import { useAssignAll, useAssignBatch, useAssignProduct, useUserProducts } from './assignments-api';
import { CopyAssignmentsDialog } from './copy-assignments-dialog';

export const ASSIGN_FAILED = 'No se pudo completar el proceso.';

function useRowAssignment(userId: number, product: UserProductDto) {
  const assign = useAssignProduct(userId);
  const [limit, setLimit] = useState<number | string>(product.cantidad_limite);
  const [saved, setSaved] = useState(false);
  // What the switch asked for last: a limit saved while the switch's answer is on its way keeps it.
  const [wanted, setWanted] = useState(product.asignado);

  useEffect(() => setLimit(product.cantidad_limite), [product.cantidad_limite]);
  useEffect(() => setWanted(product.asignado), [product.asignado]);

  // A refused switch or limit: said under the row's limit field (decision 0070).
  const [error, setError] = useState<string | null>(null);
  const fail = (cause: unknown) => setError(errorMessage(cause, ASSIGN_FAILED));
  const validLimit = (v: number | string) => {
    const n = Number(v);
    return v !== '' && Number.isInteger(n) && n >= 1 ? n : null;
  };

  const toggle = (status: boolean) => {
    setSaved(false);
    setError(null);
    setWanted(status);
    assign.mutate(
      {
        id_producto: product.id,
        id_user: userId,
        cantidad_limite: validLimit(limit) ?? product.cantidad_limite,
        status,
      },
      {
        onError: (cause) => {
          setWanted(product.asignado);
          fail(cause);
        },
      },
    );
  };

  const saveLimit = () => {
    const n = validLimit(limit);
    if (n === null) {
      setLimit(product.cantidad_limite);
      return;
    }
    if (n === product.cantidad_limite) return;
    setError(null);
    assign.mutate(
      { id_producto: product.id, id_user: userId, cantidad_limite: n, status: wanted },
      {
        onSuccess: () => setSaved(true),
        onError: (cause) => {
          setLimit(product.cantidad_limite);
          fail(cause);
        },
      },
    );
  };

  const pendingStatus = assign.isPending ? assign.variables?.status : undefined;
  return {
    checked: pendingStatus ?? product.asignado,
    busy: assign.isPending,
    limit,
    saved,
    error,
    setLimit: (v: number | string) => {
      setSaved(false);
      setLimit(v);
    },
    toggle,
    saveLimit,
  };
}

type Row = ReturnType<typeof useRowAssignment>;

function AssignSwitch({ product, row }: { product: UserProductDto; row: Row }) {
  const assigns = mayAssign(useAdminScope());
  return (
    <Switch
      checked={row.checked}
      onChange={(e) => row.toggle(e.currentTarget.checked)}
      disabled={row.busy || !assigns}
      color="teal"
      aria-label={`Habilitar ${product.nombre}`}
      label={
        <Text
          span
          size="sm"
          c={row.checked ? 'teal' : 'dimmed'}
          fw={row.checked ? 600 : 400}
          style={{ whiteSpace: 'nowrap' }}
        >
          {row.checked ? 'habilitado' : 'no habilitado'}
        </Text>
      }
      styles={{ body: { alignItems: 'center' } }}
    />
  );
}

function LimitInput({ product, row }: { product: UserProductDto; row: Row }) {
  const assigns = mayAssign(useAdminScope());
  return (
    <NumberInput
      disabled={!assigns}
      aria-label={`Cantidad límite de ${product.nombre}`}
      value={row.limit}
      onChange={row.setLimit}
      onBlur={row.saveLimit}
      onKeyDown={(e) => {
        if (e.key === 'Enter') {
          e.preventDefault();
          row.saveLimit();
        }
      }}
      min={1}
      allowDecimal={false}
      allowNegative={false}
      error={row.error}
      w={row.error ? 220 : 110}
      size="sm"
      rightSection={
        row.busy ? (
          <Spinner size={14} label="Guardando" />
        ) : row.saved ? (
          <IconCheck size={16} color="var(--mantine-color-teal-7)" aria-label="Guardado" />
        ) : undefined
      }
      rightSectionPointerEvents="none"
    />
  );
}

function ProductCell({ product }: { product: UserProductDto }) {
  return (
    <Group gap="sm" wrap="nowrap" miw={0}>
      <Avatar
        src={product.miniatura ?? product.imagen}
        alt=""
        size={40}
        radius="sm"
        color="gray"
        variant="light"
      >
        <IconPhotoOff size={18} stroke={1.5} aria-hidden />
      </Avatar>
      <Box miw={0}>
        <Text size="sm" fw={600} lineClamp={2}>
          {product.nombre}
        </Text>
        <Group gap={6}>
          <Text size="xs" c="dimmed">
            <Text span size="xs" ff="monospace">
              {product.clave_interna}
            </Text>{' '}
            · {product.categoria}
          </Text>
          {product.activo ? null : (
            <Badge size="xs" color="gray" variant="light">
              Inactivo
            </Badge>
          )}
        </Group>
      </Box>
    </Group>
  );
}

function TableRow({ userId, product }: { userId: number; product: UserProductDto }) {
  const row = useRowAssignment(userId, product);
  return (
    <Table.Tr data-testid={`producto-${product.id}`}>
      <Table.Td>
        <ProductCell product={product} />
      </Table.Td>
      <Table.Td ta="right" style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
        {formatMXN(product.precio)}
      </Table.Td>
      <Table.Td>
        <AssignSwitch product={product} row={row} />
      </Table.Td>
      <Table.Td>
        <LimitInput product={product} row={row} />
      </Table.Td>
    </Table.Tr>
  );
}

function CardRow({ userId, product }: { userId: number; product: UserProductDto }) {
  const row = useRowAssignment(userId, product);
  return (
    <Card withBorder radius="md" padding="sm" component="li" data-testid={`producto-${product.id}`}>
      <ProductCell product={product} />
      <Text size="xs" c="dimmed" mt={6}>
        {formatMXN(product.precio)}
      </Text>
      <Group justify="space-between" mt="sm" wrap="nowrap">
        <AssignSwitch product={product} row={row} />
        <Group gap={6} wrap="nowrap">
          <Text size="xs" c="dimmed">
            Límite
          </Text>
          <LimitInput product={product} row={row} />
        </Group>
      </Group>
    </Card>
  );
}

function SideCard({ data, userId }: { data: UserProductsResponse; userId: number }) {
  const assigns = mayAssign(useAdminScope());
  const assignAll = useAssignAll(userId);
  const [copying, setCopying] = useState(false);
  const { usuario, cliente } = data;
  const run = (status: boolean) =>
    confirmAction({
      message: status
        ? `Se habilitarán todos los productos de ${cliente.nombre} para ${usuario.usuario}, no solo los de esta página o búsqueda. Los que ya tenga conservan su cantidad límite.`
        : `Se quitarán todos los productos a ${usuario.usuario}, no solo los de esta página o búsqueda: no podrá comprar hasta que se le asigne alguno.`,
      confirmLabel: status ? 'Asignar todos' : 'Quitar todos',
      danger: !status,
      failure: ASSIGN_FAILED,
      onConfirm: async () => {
        const res = await assignAll.mutateAsync(status);
        showSuccess(MSG.actualizadoCorrectamente, res.msg);
      },
    });
  return (
    <Paper withBorder radius="lg" shadow="xs" p="md">
      <Stack gap="md">
        <Group gap="sm" wrap="nowrap">
          <ThemeIcon size={44} radius="xl" variant="light" aria-hidden>
            <IconUser size={24} />
          </ThemeIcon>
          <Box miw={0}>
            <Text size="xs" c="dimmed">
              Usuario
            </Text>
            <Text fw={700} style={{ overflowWrap: 'anywhere' }} data-testid="tarjeta-usuario">
              {usuario.usuario}
            </Text>
            <Text size="sm" c="dimmed">
              {usuario.nombre}
            </Text>
          </Box>
        </Group>
        <Group gap="sm" wrap="nowrap">
          <ThemeIcon size={44} radius="xl" variant="light" color="teal" aria-hidden>
            <IconBuildingStore size={24} />
          </ThemeIcon>
          <Box miw={0}>
            <Text size="xs" c="dimmed">
              Cliente
            </Text>
            <Text fw={700} data-testid="tarjeta-cliente">
              {cliente.nombre}
            </Text>
          </Box>
        </Group>
        <Group justify="space-between" px="sm" py={8} bg="gray.0" style={{ borderRadius: 8 }}>
          <Text size="sm">Productos habilitados</Text>
          <Text size="sm" fw={700} data-testid="productos-habilitados">
            {usuario.asignados}
          </Text>
        </Group>
        {assigns ? (
          <Stack gap="xs">
            <Button
              variant="light"
              color="teal"
              leftSection={<IconCircleCheck size={18} aria-hidden />}
              onClick={() => run(true)}
              loading={assignAll.isPending && assignAll.variables === true}
              disabled={assignAll.isPending}
            >
              Asignar todos
            </Button>
            <Button
              variant="default"
              leftSection={<IconCircleX size={18} aria-hidden />}
              onClick={() => run(false)}
              loading={assignAll.isPending && assignAll.variables === false}
              disabled={assignAll.isPending || usuario.asignados === 0}
            >
              Quitar todos
            </Button>
            <Button
              variant="default"
              leftSection={<IconCopy size={18} aria-hidden />}
              onClick={() => setCopying(true)}
              h="auto"
              mih={36}
              py={6}
              styles={{ label: { whiteSpace: 'normal', textAlign: 'center' } }}
            >
              Copiar de otro usuario…
            </Button>
          </Stack>
        ) : (
          <Text size="sm" c="dimmed">
            Tu distribuidor no te permite cambiar los productos asignados: solo puedes consultarlos.
          </Text>
        )}
        <CopyAssignmentsDialog
          opened={copying}
          onClose={() => setCopying(false)}
          target={{ id: usuario.id, usuario: usuario.usuario, idCliente: cliente.id }}
        />
        <Text size="xs" c="dimmed">
          La cantidad límite es el máximo de piezas de cada producto por pedido.
        </Text>
      </Stack>
    </Paper>
  );
}

/** The category filter (`?categoria=`) and, with a category chosen, 'Habilitar categoría'. */
function CategoryFilter({
  data,
  userId,
  idCliente,
  categoria,
  onChange,
}: {
  data: UserProductsResponse | undefined;
  userId: number;
  idCliente: number | null;
  categoria: number | null;
  onChange: (id: number | null) => void;
}) {
  const categories = useClientCategories(idCliente);
  const batch = useAssignBatch();
  const assigns = mayAssign(useAdminScope());
  const chosen = categories.data?.find((c) => c.id === categoria) ?? null;
  const enable = () => {
    if (!chosen || !data) return;
    confirmAction({
      message: (
        <Text>
          Se habilitarán los {chosen.productos} producto(s) de <b>{chosen.nombre}</b> para{' '}
          <b>{data.usuario.usuario}</b>. Los que ya tenga conservan su cantidad límite; los nuevos tendrán{' '}
          {data.cliente.limite_por_defecto}, la cantidad límite por defecto del cliente.
        </Text>
      ),
      confirmLabel: 'Habilitar categoría',
      failure: ASSIGN_FAILED,
      onConfirm: async () => {
        const res = await batch.mutateAsync({ usuarios: [userId], categoria_id: chosen.id, asignado: true });
        showSuccess(MSG.actualizadoCorrectamente, res.msg);
      },
    });
  };
  return (
    <Group gap="sm" align="flex-end" wrap="wrap">
      <Select
        label="Categoría"
        placeholder="Todas las categorías"
        clearable
        searchable
        w={{ base: '100%', xs: 240 }}
        data={(categories.data ?? []).map((c) => ({ value: String(c.id), label: c.nombre }))}
        value={categoria ? String(categoria) : null}
        onChange={(v) => onChange(v ? Number(v) : null)}
        nothingFoundMessage="Sin coincidencias"
      />
      {chosen && assigns ? (
        <Button
          variant="light"
          color="teal"
          leftSection={<IconCircleCheck size={18} aria-hidden />}
          onClick={enable}
          loading={batch.isPending}
          disabled={!data}
        >
          Habilitar categoría
        </Button>
      ) : null}
    </Group>
  );
}

/** The list's parameters in the URL (`?page=&q=&categoria=`). */
const UserProductsListQuery = lazyValue(() =>
  UserProductsQuery.pick({ page: true, q: true, categoria: true }),
);

export function UserProductsPage({ userId, backCliente }: { userId: number; backCliente: number | null }) {
  const list = useListParams(UserProductsListQuery);
  const { page, q, debouncedQ, setPage, setQ } = usePagedSearch(list);
  const categoria = list.values.categoria ?? null;
  const query = useUserProducts(userId, page, debouncedQ, categoria);
  const data = query.data;
  const scope = useAdminScope();
  const idCliente = data?.cliente.id ?? backCliente;
  // The distributor goes back to that client's users; a client administrator to its own.
  const back = `${areaPath(scope)}/usuarios${idCliente && isDistributor(scope) ? `?cliente=${idCliente}` : ''}`;
  const notFound = isApiError(query.error) && query.error.status === 404;

  const backLink = (
    <Anchor component={Link} to={back} size="sm">
      <Group gap={4} component="span">
        <IconArrowLeft size={14} aria-hidden />
        Volver a usuarios
      </Group>
    </Anchor>
  );

  if (notFound) {
    return (
      <Stack gap={0}>
        <PageHeader title="Productos del usuario" actions={backLink} />
        <Paper withBorder radius="lg" p={{ base: 'lg', sm: 48 }} shadow="xs">
          <EmptyState
            color="gray"
            variant="light"
            icon={<IconUserQuestion size={28} stroke={1.6} />}
            title={MSG.usuarioNoEncontrado}
            description="El usuario no existe o no es un usuario comprador (solo los usuarios con rol Usuario tienen productos asignados)."
          />
        </Paper>
      </Stack>
    );
  }

  return (
    <Stack gap={0}>
      <PageHeader
        title="Productos del usuario"
        description={
          data ? (
            <>
              Habilita los productos que <b>{data.usuario.nombre}</b> puede pedir y cuántas piezas de cada
              uno.
            </>
          ) : (
            'Habilita los productos del usuario y su cantidad límite.'
          )
        }
        actions={backLink}
      />
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 4, lg: 3 }} order={{ base: 1, md: 2 }}>
          {data ? <SideCard data={data} userId={userId} /> : <Skeleton height={300} radius="lg" />}
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 8, lg: 9 }} order={{ base: 2, md: 1 }}>
          <ListPanel
            header={
              <Group gap="sm" align="flex-end" wrap="wrap">
                <ListSearch label="Buscar producto" placeholder="Nombre o clave" value={q} onChange={setQ} />
                <CategoryFilter
                  data={data}
                  userId={userId}
                  idCliente={data?.cliente.id ?? null}
                  categoria={categoria}
                  onChange={(id) => list.set({ categoria: id })}
                />
              </Group>
            }
            page={
              data
                ? {
                    page,
                    perPage: data.per_page || USER_PRODUCTS_PER_PAGE,
                    shown: data.productos.length,
                    total: data.total,
                  }
                : undefined
            }
            noun={['producto', 'productos']}
            query={query}
            loading={{ label: 'Cargando productos', rows: 8 }}
            errorTitle="No se pudieron cargar los productos"
            empty={
              <ListEmpty
                icon={<IconPackages size={28} stroke={1.6} />}
                title={
                  debouncedQ || categoria ? 'No encontramos productos' : 'El cliente aún no tiene productos'
                }
                description={
                  debouncedQ
                    ? `Ningún producto coincide con “${debouncedQ}”.`
                    : categoria
                      ? 'La categoría no tiene productos.'
                      : isDistributor(scope)
                        ? 'Da de alta productos en Inventario para poder asignarlos.'
                        : 'Tu distribuidor da de alta los productos de tu empresa.'
                }
              />
            }
            pager={{ label: 'Páginas de productos', onChange: setPage }}
          >
            {data ? (
              <>
                <Box visibleFrom="sm">
                  <Table.ScrollContainer minWidth={600} type="native">
                    <Table verticalSpacing="xs" horizontalSpacing="md" highlightOnHover striped="even">
                      <Table.Thead>
                        <Table.Tr>
                          <Table.Th>Producto</Table.Th>
                          <Table.Th ta="right">Precio</Table.Th>
                          <Table.Th>Asignado</Table.Th>
                          <Table.Th>Cantidad límite</Table.Th>
                        </Table.Tr>
                      </Table.Thead>
                      <Table.Tbody>
                        {data.productos.map((p) => (
                          <TableRow key={p.id} userId={userId} product={p} />
                        ))}
                      </Table.Tbody>
                    </Table>
                  </Table.ScrollContainer>
                </Box>
                <Box hiddenFrom="sm">
                  <Stack gap="sm" p="sm" component="ul" m={0} style={{ listStyle: 'none' }}>
                    {data.productos.map((p) => (
                      <CardRow key={p.id} userId={userId} product={p} />
                    ))}
                  </Stack>
                </Box>
              </>
            ) : null}
          </ListPanel>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
