/**
 * Client dropdown; three tabs — Artículos (the products' table), Categorías, Iconos; 'Nuevo producto' and
 * 'Editar' open the product form in a drawer; 'Cargar productos' (the CSV import dialog) once a client is
 * selected. The client, tab, search, filters, sort and page live in the URL, so reloads and links keep them.
 */
import '@mantine/core/styles/Drawer.css';
import '@mantine/core/styles/Tabs.css';
import { Alert, Badge, Button, Drawer, Group, Paper, Stack, Tabs } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { type AdminProductDto, INVENTORY_SORT } from '@portal/shared/schemas/inventory';
import { IconCategory, IconIcons, IconInfoCircle, IconPackages, IconPlus } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { PageHeader } from '../../../components/ui/page';
import { rememberClient } from '../../../lib/chosen-client';
import { useSortParam } from '../../../lib/search-params';
import type { ProductListParams } from '../api/keys';
import { ClientSelect, useAllClients, useSelectedClient } from '../clients/client-select';
import { ImportButton } from '../imports/import-dialog';
import { useClientCategories } from './api';
import { CategoriesPanel } from './categories-panel';
import { IconsPanel } from './icons-panel';
import { ProductForm } from './product-form';
import { ProductList } from './product-list';

const TABS = ['articulos', 'categorias', 'iconos'] as const;
type Tab = (typeof TABS)[number];
const ESTADOS = ['todos', 'activos', 'inactivos'] as const;

function useInventoryParams() {
  const [params, setParams] = useSearchParams();
  const rawTab = params.get('tab');
  const tab: Tab = TABS.includes(rawTab as Tab) ? (rawTab as Tab) : 'articulos';
  const rawEstado = params.get('estado');
  const [orden, setOrden] = useSortParam(INVENTORY_SORT);
  const list: ProductListParams = {
    orden,
    page: Math.max(1, Math.floor(Number(params.get('page')) || 1)),
    q: params.get('q') ?? '',
    categoria: Number(params.get('categoria')) > 0 ? Number(params.get('categoria')) : null,
    activo: ESTADOS.includes(rawEstado as (typeof ESTADOS)[number])
      ? (rawEstado as ProductListParams['activo'])
      : 'todos',
  };
  const update = (changes: Record<string, string | null>) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        for (const [k, v] of Object.entries(changes)) {
          if (v === null || v === '') next.delete(k);
          else next.set(k, v);
        }
        return next;
      },
      { replace: true },
    );
  const setList = (changes: Partial<ProductListParams>) => {
    const out: Record<string, string | null> = {};
    if ('page' in changes) out.page = changes.page && changes.page > 1 ? String(changes.page) : null;
    if ('q' in changes) out.q = changes.q || null;
    if ('categoria' in changes) out.categoria = changes.categoria ? String(changes.categoria) : null;
    if ('activo' in changes)
      out.estado = changes.activo && changes.activo !== 'todos' ? changes.activo : null;
    update(out);
  };
  return { tab, list, update, setList, setOrden };
}

export function InventoryPage() {
  const [idCliente] = useSelectedClient();
  const { data: clientsData } = useAllClients();
  const cliente = clientsData?.clientes.find((c) => c.id === idCliente) ?? null;
  const { tab, list, update, setList, setOrden } = useInventoryParams();
  const categories = useClientCategories(idCliente);
  /** The drawer's product: null closed, 'nuevo' to add one, or the product being edited. */
  const [drawer, setDrawer] = useState<AdminProductDto | 'nuevo' | null>(null);
  const phone = useMediaQuery('(max-width: 36em)');

  // Another client: close the form.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the client changes
  useEffect(() => setDrawer(null), [idCliente]);

  const editing = drawer && drawer !== 'nuevo' ? drawer : null;

  const categoryList = categories.data ?? [];

  return (
    <Stack gap={0}>
      <PageHeader
        title="Inventario"
        description="Artículos, categorías e íconos de cada cliente."
        actions={
          idCliente ? (
            <Group gap="sm">
              <ImportButton
                kind="productos"
                idCliente={idCliente}
                clienteNombre={cliente?.nombre}
                label="Cargar productos"
                variant="default"
              />
              <Button leftSection={<IconPlus size={16} />} onClick={() => setDrawer('nuevo')}>
                Nuevo producto
              </Button>
            </Group>
          ) : null
        }
      />
      <Paper withBorder radius="lg" p="md" shadow="xs" mb="lg">
        <Group align="flex-end" gap="md" wrap="wrap">
          <ClientSelect
            value={idCliente}
            onChange={(id) => {
              rememberClient(id);
              update({ cliente: id ? String(id) : null, page: null, categoria: null, q: null, estado: null });
            }}
            w={{ base: '100%', sm: 360 }}
          />
          {cliente ? (
            <Group gap={6} pb={6}>
              <Badge
                variant="light"
                color={cliente.modo_presupuesto === 'categoria' ? 'grape' : 'blue'}
                radius="sm"
              >
                Presupuesto {cliente.modo_presupuesto === 'categoria' ? 'por categoría' : 'regular'}
              </Badge>
              {cliente.activo ? null : (
                <Badge variant="light" color="red" radius="sm">
                  Cliente inactivo
                </Badge>
              )}
            </Group>
          ) : null}
        </Group>
      </Paper>

      <Drawer
        opened={drawer !== null && idCliente !== null}
        onClose={() => setDrawer(null)}
        position="right"
        size="lg"
        title={editing ? `Editar producto · ${editing.clave_interna}` : 'Nuevo producto'}
        styles={{ title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)' } }}
      >
        <ProductForm
          idCliente={idCliente}
          categories={categoryList}
          editing={editing}
          onReset={() => setDrawer(null)}
        />
      </Drawer>
      <Paper withBorder radius="lg" p={{ base: 'sm', sm: 'md' }} shadow="xs">
        <Tabs value={tab} onChange={(v) => update({ tab: v === 'articulos' ? null : v })} keepMounted={false}>
          <Tabs.List mb="md">
            <Tabs.Tab value="articulos" leftSection={phone ? undefined : <IconPackages size={16} />}>
              Artículos
            </Tabs.Tab>
            <Tabs.Tab value="categorias" leftSection={phone ? undefined : <IconCategory size={16} />}>
              Categorías
            </Tabs.Tab>
            <Tabs.Tab value="iconos" leftSection={phone ? undefined : <IconIcons size={16} />}>
              Iconos
            </Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="articulos">
            {idCliente ? (
              <ProductList
                idCliente={idCliente}
                categories={categoryList}
                params={list}
                onParams={setList}
                onSort={setOrden}
                editingId={editing?.id ?? null}
                onEdit={setDrawer}
              />
            ) : (
              <ChooseClient />
            )}
          </Tabs.Panel>
          <Tabs.Panel value="categorias">
            {idCliente ? (
              <CategoriesPanel
                idCliente={idCliente}
                categories={categoryList}
                loading={categories.isLoading}
                categoryMode={cliente?.modo_presupuesto === 'categoria'}
                onShowProducts={(categoria) =>
                  update({ tab: null, categoria: String(categoria), page: null })
                }
              />
            ) : (
              <ChooseClient />
            )}
          </Tabs.Panel>
          <Tabs.Panel value="iconos">
            <IconsPanel categories={idCliente ? categoryList : []} />
          </Tabs.Panel>
        </Tabs>
      </Paper>
    </Stack>
  );
}

function ChooseClient() {
  return (
    <Alert variant="light" color="indigo" icon={<IconInfoCircle size={18} />} title="Selecciona un cliente">
      Elige un cliente en la lista de arriba para ver y editar sus productos y categorías.
    </Alert>
  );
}
