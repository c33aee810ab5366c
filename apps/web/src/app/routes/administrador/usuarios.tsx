import { lazy, useMemo } from 'react';
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

export function Usuarios() {
  return (
    <UsersPage
      importButton={(idCliente) => <UsersImportButton idCliente={idCliente} />}
      delegationPanel={(userId) => <UserDelegationPanel userId={userId} />}
    />
  );
}
