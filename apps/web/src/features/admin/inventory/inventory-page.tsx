/**
 * Client dropdown; three tabs — Artículos (the products' table), Categorías, Iconos; 'Nuevo producto' and
 * 'Editar' open the product form in a drawer; 'Cargar productos' (the CSV import dialog) once a client is
 * selected. The client, tab, search, filters, sort and page live in the URL, so reloads and links keep them.
 */
import '@mantine/core/styles/Drawer.css';
import '@mantine/core/styles/Tabs.css';
import { Alert, Badge, Button, Drawer, Group, Paper, Stack, Tabs } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { type AdminProductDto, InventoryQuery, type InventorySort } from '@portal/shared/schemas/inventory';
import { IconCategory, IconIcons, IconInfoCircle, IconPackages, IconPlus } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { z } from 'zod';
import { PageHeader } from '../../../components/ui/page';
import { rememberClient } from '../../../lib/chosen-client';
import { pageHeading } from '../../../lib/first-paint';
import { lazyValue } from '../../../lib/lazy-value';
import { useListParams } from '../../../lib/list-params';
import { useSearchParamsUpdate } from '../../../lib/search-params';
import type { ProductListParams } from '../api/keys';
import { ClientSelect, useAllClients, useSelectedClient } from '../clients/client-select';
import { ImportButton } from '../imports/import-dialog';
import { useClientCategories } from './api';
import { CategoriesPanel } from './categories-panel';
import { IconsPanel } from './icons-panel';
import { ProductForm } from './product-form';
import { ProductList } from './product-list';

const TABS = ['articulos', 'categorias', 'iconos'] as const;

/**
 * The inventory's URL, read and written through the products' shared query (InventoryQuery): the page, the
 * search, the category and the sort as the API takes them, plus the tab, and `estado` (todos, activos,
 * inactivos) where the API takes `activo` (1 or 0). The client is the client picker's (`cliente`).
 */
const InventoryUrl = lazyValue(() =>
  InventoryQuery.pick({ page: true, q: true, categoria: true, orden: true }).extend({
    tab: z.enum(TABS).default('articulos'),
    estado: z.enum(['todos', 'activos', 'inactivos']).default('todos'),
  }),
);

function useInventoryParams() {
  const url = useListParams(InventoryUrl);
  const { tab, page, categoria, orden, estado } = url.values;
  // The search as typed (the list's box writes it after a pause; the server trims it).
  const list: ProductListParams = {
    orden,
    page,
    q: url.text('q'),
    categoria: categoria ?? null,
    activo: estado,
  };
  const setList = ({ activo, ...changes }: Partial<ProductListParams>) =>
    url.set(activo === undefined ? changes : { ...changes, estado: activo });
  return {
    tab,
    list,
    /** Another tab keeps the list's page. */
    setTab: (next: (typeof TABS)[number]) => url.set({ tab: next, page }),
    /** The category's products (from the categories tab), from their first page. */
    showCategory: (id: number) => url.set({ tab: 'articulos', categoria: id }),
    setList,
    setOrden: (next: InventorySort) => url.set({ orden: next }),
  };
}

export function InventoryPage() {
  const [idCliente] = useSelectedClient();
  const { data: clientsData } = useAllClients();
  const cliente = clientsData?.clientes.find((c) => c.id === idCliente) ?? null;
  const { tab, list, setTab, showCategory, setList, setOrden } = useInventoryParams();
  const [, updateUrl] = useSearchParamsUpdate();
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
        {...pageHeading('inventario')}
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
              updateUrl({
                cliente: id ? String(id) : null,
                page: null,
                categoria: null,
                q: null,
                estado: null,
              });
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
        <Tabs
          value={tab}
          onChange={(v) => setTab(TABS.find((t) => t === v) ?? 'articulos')}
          keepMounted={false}
        >
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
                onShowProducts={showCategory}
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
