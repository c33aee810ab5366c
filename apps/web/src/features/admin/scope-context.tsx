/**
 * The scope of the administrator's screens (scope.ts): the distributor's by default, so the `/administrador`
 * area needs nothing; the `/cliente` area puts each screen inside `ClientAdminScope`, which reads the client
 * administrator's own client (GET /api/cliente) first.
 */
import { Alert, Center } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { createContext, type ReactNode, use } from 'react';
import { Spinner } from '../../components/ui/spinner';
import { errorMessage } from '../../lib/api';
import { useClientAdminHome } from './client-home/api';
import { type AdminScope, clientScope, DISTRIBUTOR_SCOPE } from './scope';

const AdminScopeContext = createContext<AdminScope>(DISTRIBUTOR_SCOPE);

export function useAdminScope(): AdminScope {
  return use(AdminScopeContext);
}

/** A client administrator's screen: its client and permissions, read before the screen shows. */
export function ClientAdminScope({ children }: { children: ReactNode }) {
  const home = useClientAdminHome();
  if (home.isPending)
    return (
      <Center py={64}>
        <Spinner label="Cargando tu empresa" />
      </Center>
    );
  if (home.isError)
    return (
      <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} role="alert">
        {errorMessage(home.error, 'No se pudieron cargar los datos de tu empresa.')}
      </Alert>
    );
  return <AdminScopeContext value={clientScope(home.data.cliente)}>{children}</AdminScopeContext>;
}
