import { Button } from '@mantine/core';
import { IconUsersGroup } from '@tabler/icons-react';
import { lazy, useMemo } from 'react';
import { Link } from 'react-router';
import { adminKeys } from '../../../features/admin/api/keys';
import { UsersPage } from '../../../features/admin/users/users-page';
import { userDelegation } from '../../../features/delegation/api/delegation';
import { UsersImportButton } from './usuarios-import';

// The panel brings the calendar with it: loaded when an authorizer's drawer opens.
const DelegationPanel = lazy(() => import('../../../features/delegation/components/delegation-panel'));

/** An authorizer's delegation in the user drawer, kept under the user's admin key (saving the user refreshes it). */
function UserDelegationPanel({ userId }: { userId: number }) {
  const target = useMemo(() => userDelegation(userId, adminKeys.userDelegation(userId)), [userId]);
  return <DelegationPanel target={target} />;
}

/** «Lista de personal» of the chosen client: its HR list, previewed and then applied (decision 0122). */
function RosterSyncLink({ idCliente }: { idCliente: number }) {
  return (
    <Button
      component={Link}
      to={`/administrador/usuarios/sincronizar?cliente=${idCliente}`}
      variant="light"
      leftSection={<IconUsersGroup size={16} aria-hidden />}
    >
      Lista de personal
    </Button>
  );
}

export function Usuarios() {
  return (
    <UsersPage
      importButton={(idCliente) => (
        <>
          <UsersImportButton idCliente={idCliente} />
          <RosterSyncLink idCliente={idCliente} />
        </>
      )}
      delegationPanel={(userId) => <UserDelegationPanel userId={userId} />}
    />
  );
}
