/**
 * «Recepción» (decision 0130): the receiver's shipments to receive — its client's, sent to its addresses —
 * newest first, 20 a page, searched by order number or guía. Each is a card at every width (phones first:
 * receivers work at the dock) that opens the shipment and its receipt form.
 */
import { Badge, Group, Paper, Stack, Text, UnstyledButton } from '@mantine/core';
import { type ReceivableShipmentDto, ReceivingQuery } from '@portal/shared/schemas/receiving';
import { IconChevronRight, IconPackageImport } from '@tabler/icons-react';
import { Link } from 'react-router';
import { ListPanel } from '../../../components/ui/list-panel';
import { ListSearch } from '../../../components/ui/list-search';
import { ListEmpty } from '../../../components/ui/list-states';
import { PageHeader } from '../../../components/ui/page';
import { pageHeading } from '../../../lib/first-paint';
import { formatDate, formatOrderNumber, plural } from '../../../lib/format';
import { useListParams, usePagedSearch } from '../../../lib/list-params';
import { useReceivingList } from '../api/receiving';

function ShipmentCard({ row, to }: { row: ReceivableShipmentDto; to: string }) {
  return (
    <Paper component="li" withBorder radius="md" data-testid="recepcion-envio">
      <UnstyledButton component={Link} to={to} w="100%" display="block">
        <Group justify="space-between" wrap="nowrap" gap="xs" p="sm">
          <Stack gap={4} miw={0}>
            <Group gap="xs" wrap="wrap">
              <Text fw={700}>Pedido {formatOrderNumber(row.id_pedido)}</Text>
              <Text fw={600} size="sm">
                · Envío {row.numero}
              </Text>
              {row.reposicion ? (
                <Badge color="orange" variant="light" size="sm">
                  Reposición
                </Badge>
              ) : null}
            </Group>
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {row.direccion}
            </Text>
            <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {[
                row.guia ? `Guía ${row.paqueteria ? `${row.paqueteria} ` : ''}${row.guia}` : 'Sin guía',
                `enviado el ${formatDate(`${row.fecha}T12:00:00`)}`,
                plural(row.unidades, 'unidad', 'unidades'),
                `para ${row.comprador}`,
              ].join(' · ')}
            </Text>
          </Stack>
          <IconChevronRight size={20} aria-hidden style={{ flexShrink: 0 }} />
        </Group>
      </UnstyledButton>
    </Paper>
  );
}

/** `base`: the area's address of this screen (/usuario/recepcion or /autorizador/recepcion). */
export function ReceivingPage({ base }: { base: string }) {
  const list = useListParams(ReceivingQuery);
  const { page, q, debouncedQ, setPage, setQ } = usePagedSearch(list);
  const query = useReceivingList(page, debouncedQ);
  const data = query.data;
  const rows = data?.envios ?? [];
  return (
    <Stack gap={0}>
      <PageHeader {...pageHeading('recepcion')} />
      <ListPanel
        header={
          <ListSearch value={q} onChange={setQ} label="Buscar envío" placeholder="Número de pedido o guía" />
        }
        page={data ? { page, perPage: data.per_page, shown: rows.length, total: data.total } : undefined}
        noun={['envío', 'envíos']}
        query={query}
        loading={{ label: 'Cargando envíos', rows: 3 }}
        errorTitle="No se pudieron cargar los envíos"
        empty={
          <ListEmpty
            icon={<IconPackageImport size={28} stroke={1.6} />}
            title={debouncedQ ? 'Ningún envío coincide con la búsqueda' : 'No hay envíos por recibir'}
            description={
              debouncedQ
                ? undefined
                : 'Cuando se envíe un pedido a tus direcciones, aparecerá aquí para que lo recibas.'
            }
            py="lg"
          />
        }
        pager={{ label: 'Páginas de envíos', onChange: setPage }}
      >
        <Stack component="ul" gap="xs" p={{ base: 'sm', sm: 'md' }} m={0} style={{ listStyle: 'none' }}>
          {rows.map((row) => (
            <ShipmentCard
              key={`${row.id_pedido}-${row.numero}`}
              row={row}
              to={`${base}/${row.id_pedido}/${row.numero}`}
            />
          ))}
        </Stack>
      </ListPanel>
    </Stack>
  );
}
