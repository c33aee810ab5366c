/**
 * The order list's filters: the status (segments from md up, a select below it), the search, and on phones
 * the sort; the period. On phones all but the search fold behind one "Filtros" button (issue 37).
 */
import '@mantine/core/styles/FloatingIndicator.css';
import '@mantine/core/styles/SegmentedControl.css';
import { Box, Button, Group, SegmentedControl, Select, Text } from '@mantine/core';
import type { AuthorizerOrdersQuery } from '@portal/shared/schemas/orders';
import { DateRangeField } from '../../../components/ui/date-range-field';
import { ListSearch } from '../../../components/ui/list-search';
import { PhoneFilters } from '../../../components/ui/phone-filters';
import type { ListParams, ListValues } from '../../../lib/list-params';
import type { OrderFilter, OrderSort } from '../api/orders';

const FILTERS: { value: OrderFilter; label: string }[] = [
  { value: 'accionables', label: 'Por atender' },
  { value: 'todos', label: 'Todos' },
  { value: 'pendiente', label: 'Pendiente' },
  { value: 'espera', label: 'Espera' },
  { value: 'aprobado', label: 'Aprobado' },
  { value: 'cancelado', label: 'Cancelado' },
];

const SORTS: { value: OrderSort; label: string }[] = [
  { value: 'fecha_desc', label: 'Más recientes' },
  { value: 'fecha_asc', label: 'Más antiguos' },
  { value: 'total_desc', label: 'Total mayor' },
  { value: 'total_asc', label: 'Total menor' },
];

export type OrdersListParams = ListParams<ListValues<typeof AuthorizerOrdersQuery>>;

/** The filters above the list, as the URL holds them; `q` is the search as typed. */
export function OrdersFilterBar({ list, q }: { list: OrdersListParams; q: string }) {
  const { status, orden } = list.values;
  const desde = list.values.desde ?? '';
  const hasta = list.values.hasta ?? '';
  const set = list.set;
  return (
    <>
      <Group justify="space-between" gap="sm" wrap="wrap" align="flex-end">
        <Box visibleFrom="md">
          <Text size="sm" fw={500} mb={4} id="filtro-estatus">
            Estatus
          </Text>
          <SegmentedControl
            aria-labelledby="filtro-estatus"
            data={FILTERS}
            value={status}
            onChange={(value) => set({ status: value as OrderFilter })}
            radius="md"
          />
        </Box>
        <ListSearch
          label="Buscar pedido"
          placeholder="Número, usuario o nombre"
          value={q}
          onChange={(value) => set({ q: value })}
          w={{ base: '100%', xs: 300 }}
        />
      </Group>
      {/* On phones the status, order and period fold behind one button (issue 37). */}
      <PhoneFilters
        active={
          Number(status !== 'accionables') + Number(orden !== 'fecha_desc') + Number(!!(desde || hasta))
        }
      >
        <Group gap="sm" wrap="wrap" align="flex-start">
          <Select
            hiddenFrom="md"
            label="Estatus"
            data={FILTERS}
            value={status}
            allowDeselect={false}
            onChange={(value) => set({ status: value as OrderFilter | null })}
            w={{ base: '100%', xs: 200 }}
            comboboxProps={{ withinPortal: true }}
          />
          <Select
            hiddenFrom="sm"
            label="Ordenar por"
            data={SORTS}
            value={orden}
            allowDeselect={false}
            onChange={(value) => set({ orden: value as OrderSort | null })}
            w={{ base: '100%', xs: 180 }}
            comboboxProps={{ withinPortal: true }}
          />
          <DateRangeField
            label="Periodo"
            desde={desde || null}
            hasta={hasta || null}
            onChange={(d, h) => set({ desde: d, hasta: h })}
            w={{ base: '100%', xs: 240 }}
          />
          {desde || hasta ? (
            <Button
              variant="subtle"
              size="sm"
              mt={{ base: 0, xs: 25 }}
              onClick={() => set({ desde: null, hasta: null })}
            >
              Quitar fechas
            </Button>
          ) : null}
        </Group>
      </PhoneFilters>
    </>
  );
}
