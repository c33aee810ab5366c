/** The drawer of the user form: for an edit it loads the user first ('Usuario no encontrado' for an unknown id). */
import '@mantine/core/styles/Drawer.css';
import { Box, Button, Center, Drawer, Stack, Text, ThemeIcon } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { ROLES } from '@portal/shared/domain/roles';
import { MSG } from '@portal/shared/messages';
import type { ClientDto } from '@portal/shared/schemas/clients';
import { IconUserQuestion } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Spinner } from '../../../components/ui/spinner';
import { errorMessage, isApiError } from '../../../lib/api';
import { UserAddresses } from '../addresses/user-addresses';
import { UserReceiver } from '../addresses/user-receiver';
import { mayChangeUsers } from '../scope';
import { useAdminScope } from '../scope-context';
import { useUser } from './api';
import { type DelegationPanelSlot, UserDelegation } from './user-delegation';
import { UserForm } from './user-form';

interface UserFormDrawerProps {
  opened: boolean;
  /** The client of a new user (create), or the clients to find an edited user's own client in. */
  client: ClientDto | null;
  clients: ClientDto[];
  /** null: a new user. */
  userId: number | null;
  onClose: () => void;
  /** An authorizer's "Fuera de oficina" (without it the drawer has no such section). */
  delegationPanel?: DelegationPanelSlot;
}

export function UserFormDrawer({
  opened,
  client,
  clients,
  userId,
  onClose,
  delegationPanel,
}: UserFormDrawerProps) {
  const phone = useMediaQuery('(max-width: 48em)');
  const scope = useAdminScope();
  const userQuery = useUser(opened ? userId : null);
  const user = userId ? (userQuery.data?.usuario ?? null) : null;
  const ownClient = user ? (clients.find((c) => c.id === user.id_cliente) ?? null) : client;

  let body: ReactNode;
  if (userId && userQuery.isPending) {
    body = (
      <Center py={64}>
        <Spinner label="Cargando usuario" />
      </Center>
    );
  } else if (userId && userQuery.isError) {
    const notFound = isApiError(userQuery.error) && userQuery.error.status === 404;
    body = (
      <Stack align="center" ta="center" py={48} gap="sm">
        <ThemeIcon size={56} radius="xl" variant="light" color={notFound ? 'gray' : 'red'} aria-hidden>
          <IconUserQuestion size={30} />
        </ThemeIcon>
        <Text fw={700} size="lg" role="alert">
          {notFound ? MSG.usuarioNoEncontrado : 'No se pudo cargar el usuario'}
        </Text>
        {notFound ? null : <Text c="dimmed">{errorMessage(userQuery.error)}</Text>}
        <Button variant="default" onClick={onClose}>
          Volver a la lista
        </Button>
      </Stack>
    );
  } else if (!ownClient) {
    body = (
      <Center py={64}>
        <Spinner label="Cargando cliente" />
      </Center>
    );
  } else {
    const authorizer = user && (user.rol === ROLES.autorizador || user.rol === ROLES.superAutorizador);
    body = (
      <>
        <UserForm
          key={userId ?? 'nuevo'}
          client={ownClient}
          user={user}
          onDone={onClose}
          onCancel={onClose}
        />
        {/* Its own form (forms do not nest), after the user form's sticky footer. */}
        {user && authorizer && delegationPanel ? (
          <Box mt="xl" pb="md">
            <UserDelegation userId={user.id} panel={delegationPanel} />
          </Box>
        ) : null}
        {user && user.rol === ROLES.usuario ? (
          <Box mt="xl" pb="md">
            <UserAddresses userId={user.id} idCliente={ownClient.id} readOnly={!mayChangeUsers(scope)} />
          </Box>
        ) : null}
        {/* Roles 1–3 may receive the client's shipments (decision 0130). */}
        {user && (user.rol === ROLES.usuario || authorizer) ? (
          <Box mt="xl" pb="md">
            <UserReceiver userId={user.id} idCliente={ownClient.id} readOnly={!mayChangeUsers(scope)} />
          </Box>
        ) : null}
      </>
    );
  }

  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="right"
      size={phone ? '100%' : 720}
      title={
        <Box>
          <Text fw={700} size="lg">
            {userId ? 'Editar usuario' : 'Agregar nuevo usuario'}
          </Text>
          {ownClient ? (
            <Text size="sm" c="dimmed">
              {ownClient.nombre}
              {user ? ` · ${user.usuario}` : ''}
            </Text>
          ) : null}
        </Box>
      }
      closeButtonProps={{ 'aria-label': 'Cerrar' }}
      padding="lg"
    >
      {body}
    </Drawer>
  );
}
