/**
 * The rol-1 area: catalogue with budget cards (and the buyer's budget top-up requests, decision 0123),
 * category pages, cart, history and order detail, saved lists and the quick order. This module and what it
 * imports form the area's own lazy chunk.
 */
import { Alert, Group, Stack, ThemeIcon } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { lazy, Suspense } from 'react';
import { Navigate, useParams } from 'react-router';
import { CategoryIcon } from '../../../components/ui/category-icon';
import { PageHeader } from '../../../components/ui/page';
import { SpendHistoryPlaceholder } from '../../../features/dashboard/components/spend-history-placeholder';
import { useShopper } from '../../../features/shopping/api/shopper';
import { ownTopupsQuery } from '../../../features/shopping/api/topups';
import { BudgetCards } from '../../../features/shopping/components/budget-cards';
import { CartView } from '../../../features/shopping/components/cart-view';
import { Catalogue, catalogueEntryQuery } from '../../../features/shopping/components/catalogue';
import { HistoryList } from '../../../features/shopping/components/history-list';
import { OrderDetail } from '../../../features/shopping/components/order-detail';
import { OwnTopups } from '../../../features/shopping/components/own-topups';
import { QuickOrderForm } from '../../../features/shopping/components/quick-order-form';
import { SavedListDetail } from '../../../features/shopping/components/saved-list-detail';
import { SavedLists } from '../../../features/shopping/components/saved-lists';
import type { FirstData } from '../../../lib/boot-data';
import { pageHeading } from '../../../lib/first-paint';
import { positiveId } from '../params';
import { ReceivingList, ReceivingShipment } from '../receiving-pages';

// The chart and its library load only on the history page.
const SpendHistory = lazy(() =>
  import('../../../features/dashboard/components/spend-history').then((m) => ({ default: m.SpendHistory })),
);

export function Principal() {
  const shopper = useShopper();
  return (
    <Stack gap={0}>
      <PageHeader {...pageHeading('catalogo')} />
      <BudgetCards shopper={shopper} />
      <OwnTopups />
      <Catalogue />
    </Stack>
  );
}

export function Categoria() {
  const id = positiveId(useParams().id_categoria);
  const shopper = useShopper();
  const categoria = id ? shopper.categorias.find((c) => c.id === id) : undefined;
  // Not one of the user's categories: back to all products.
  if (!categoria) return <Navigate to="/usuario/principal" replace />;
  const sinPresupuesto = shopper.presupuesto.tipo_presupuesto === 'categoria' && !categoria.presupuesto;
  return (
    <Stack gap={0}>
      <PageHeader
        title={
          <Group gap="sm" component="span" wrap="nowrap">
            <ThemeIcon variant="light" size={40} radius="md" aria-hidden>
              <CategoryIcon name={categoria.icono} size={24} />
            </ThemeIcon>
            {categoria.nombre}
          </Group>
        }
        description={
          categoria.productos === 1
            ? '1 producto asignado en esta categoría.'
            : `${categoria.productos} productos asignados en esta categoría.`
        }
      />
      <BudgetCards shopper={shopper} categoria={categoria} />
      {sinPresupuesto ? (
        <Alert color="orange" variant="light" icon={<IconInfoCircle size={18} />} mb="lg">
          Esta categoría no tiene presupuesto asignado este mes, así que sus productos no se pueden agregar al
          carrito.
        </Alert>
      ) : null}
      <Catalogue categoria={categoria} />
    </Stack>
  );
}

export function Historial() {
  return (
    <Stack gap={0}>
      <PageHeader {...pageHeading('historial')} />
      <Suspense fallback={<SpendHistoryPlaceholder />}>
        <SpendHistory />
      </Suspense>
      <HistoryList />
    </Stack>
  );
}

export function HistorialDetalle() {
  const id = positiveId(useParams().id);
  if (!id) return <Navigate to="/usuario/historial" replace />;
  return <OrderDetail key={id} id={id} />;
}

export function Carrito() {
  return (
    <Stack gap={0}>
      <PageHeader {...pageHeading('carrito')} />
      <CartView />
    </Stack>
  );
}

export function Listas() {
  return (
    <Stack gap={0}>
      <PageHeader {...pageHeading('listas')} />
      <SavedLists />
    </Stack>
  );
}

export function ListaDetalle() {
  const id = positiveId(useParams().id);
  if (!id) return <Navigate to="/usuario/listas" replace />;
  return <SavedListDetail key={id} id={id} />;
}

export function PedidoRapido() {
  return (
    <Stack gap={0}>
      <PageHeader {...pageHeading('pedidoRapido')} />
      <QuickOrderForm />
    </Stack>
  );
}

/** «Recepción» of a buyer the client named receiver (decision 0130). */
export function Recepcion() {
  return <ReceivingList base="/usuario/recepcion" />;
}

export function RecepcionEnvio() {
  return <ReceivingShipment base="/usuario/recepcion" />;
}

/** What some screens show first, asked for at boot (decision 0141). */
export const firstData: Record<string, FirstData> = {
  Principal: ({ session, search }) => [catalogueEntryQuery(session.user.id, search, null), ownTopupsQuery],
};
