/**
 * The foot of the order's lines: Approve, Cancel and Send back (decision 0111) exactly when the server would accept them
 * (`acciones`, decision 0013), the "unsaved changes" note with its discard link, or why there is nothing
 * to do, with the purchase-order download once the order is aprobado.
 */
import { Anchor, Button, Flex, Group, Text, ThemeIcon } from '@mantine/core';
import { ROLES } from '@portal/shared/domain/roles';
import { MSG } from '@portal/shared/messages';
import { IconArrowBackUp, IconBan, IconCheck, IconInfoCircle, IconPencil } from '@tabler/icons-react';
import { PurchaseOrderButton } from '../../../components/orders/purchase-order-button';
import type { AuthorizerOrderView } from '../api/orders';

/** Why there is nothing to do, when Approve and Cancel are not offered. */
export function noActionNote(view: AuthorizerOrderView, user: { id: number; rol: number }): string {
  const { status } = view.pedido;
  const { rol } = user;
  // Separation of duties (decision 0039): the server offers no action on an order the user placed.
  if (view.usuario.id === user.id && (status === 'pendiente' || status === 'espera')) return MSG.pedidoPropio;
  if (status === 'aprobado') return 'Este pedido ya está aprobado. No requiere más acciones.';
  if (status === 'cancelado') return 'Este pedido fue cancelado. No requiere más acciones.';
  if (status === 'espera' && rol === ROLES.autorizador)
    return 'Este pedido ya fue autorizado y espera la aprobación final del Super Autorizador.';
  if (status === 'pendiente' && rol === ROLES.superAutorizador)
    return 'Este pedido aún debe autorizarlo el Autorizador; después podrás darle la aprobación final.';
  return 'No tienes acciones disponibles para este pedido.';
}

function Note({ children, testId }: { children: string; testId?: string }) {
  return (
    <Group gap="xs" wrap="nowrap" data-testid={testId}>
      <IconInfoCircle size={18} color="var(--mantine-color-dimmed)" aria-hidden />
      <Text size="sm" c="dimmed">
        {children}
      </Text>
    </Group>
  );
}

export interface OrderActionsProps {
  view: AuthorizerOrderView;
  user: { id: number; rol: number };
  edited: boolean;
  pending: boolean;
  approving: boolean;
  cancelling: boolean;
  returning: boolean;
  onDiscard: () => void;
  onApprove: () => void;
  onCancel: () => void;
  onReturn: () => void;
}

export function OrderActions(props: OrderActionsProps) {
  const { view, edited, pending } = props;
  const { acciones, pedido } = view;
  if (!acciones.aprobar && !acciones.cancelar) {
    const note = <Note testId="sin-acciones">{noActionNote(view, props.user)}</Note>;
    if (pedido.status !== 'aprobado') return note;
    return (
      <Flex
        direction={{ base: 'column', sm: 'row' }}
        justify="space-between"
        align={{ base: 'stretch', sm: 'center' }}
        gap="sm"
      >
        {note}
        <PurchaseOrderButton id={pedido.id} href={`/api/pedidos/${pedido.id}/pdf`} />
      </Flex>
    );
  }
  return (
    <Flex
      direction={{ base: 'column', sm: 'row' }}
      justify="space-between"
      align={{ base: 'stretch', sm: 'center' }}
      gap="sm"
    >
      {edited ? (
        <Group gap="xs" wrap="nowrap">
          <ThemeIcon variant="light" color="indigo" radius="xl" size="sm" aria-hidden>
            <IconPencil size={12} />
          </ThemeIcon>
          <Text size="sm">
            Cambios sin guardar.{' '}
            <Anchor component="button" type="button" size="sm" onClick={props.onDiscard} disabled={pending}>
              Descartar cambios
            </Anchor>
          </Text>
        </Group>
      ) : !acciones.aprobar && pedido.status === 'espera' ? (
        // Rol 3 on an order it gave the level-1 approval of: it may cancel, not approve.
        <Note>{MSG.segundaAutorizacionOtraPersona}</Note>
      ) : null}
      <Flex
        direction={{ base: 'column-reverse', xs: 'row' }}
        justify="flex-end"
        gap="sm"
        style={{ flexGrow: 1 }}
      >
        {acciones.cancelar ? (
          <Button
            variant="outline"
            color="red"
            leftSection={<IconBan size={18} aria-hidden />}
            onClick={props.onCancel}
            disabled={pending}
            loading={props.cancelling}
            w={{ base: '100%', xs: 'auto' }}
          >
            Cancelar pedido
          </Button>
        ) : null}
        {acciones.devolver ? (
          <Button
            variant="default"
            leftSection={<IconArrowBackUp size={18} aria-hidden />}
            onClick={props.onReturn}
            disabled={pending}
            loading={props.returning}
            w={{ base: '100%', xs: 'auto' }}
          >
            Devolver al primer nivel
          </Button>
        ) : null}
        {acciones.aprobar ? (
          <Button
            color="teal"
            leftSection={<IconCheck size={18} aria-hidden />}
            onClick={props.onApprove}
            disabled={pending}
            loading={props.approving}
            w={{ base: '100%', xs: 'auto' }}
          >
            {edited ? 'Guardar cambios y aprobar' : 'Aprobar pedido'}
          </Button>
        ) : null}
      </Flex>
    </Flex>
  );
}
