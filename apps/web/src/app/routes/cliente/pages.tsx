/**
 * The client administrator's area (rol 5, decision 0122): «Mi empresa», and the administrator's screens
 * with the client fixed to its own (features/admin/scope.ts): users (with each buyer's products), the HR
 * list, access weeks, approval rules, the log, and its áreas and budget top-ups (decision 0123). One lazy
 * chunk for the area.
 */
import type { ImportKind } from '@portal/shared/schemas/imports';
import { Navigate, useParams } from 'react-router';
import { AddressesPage } from '../../../features/admin/addresses/addresses-page';
import { AreasPage } from '../../../features/admin/areas/areas-page';
import { ClientHomePage } from '../../../features/admin/client-home/client-home-page';
import { ClientRulesPage } from '../../../features/admin/clients/client-rules-page';
import { ImportButton } from '../../../features/admin/imports/import-dialog';
import { LogsPage } from '../../../features/admin/logs/logs-page';
import { mayAssign, mayChangeBudgets, mayChangeFiscal, mayChangeUsers } from '../../../features/admin/scope';
import { ClientAdminScope, useAdminScope } from '../../../features/admin/scope-context';
import { RosterSyncPage } from '../../../features/admin/users/roster-sync-page';
import { UserProductsPage } from '../../../features/admin/users/user-products-page';
import { UsersPage } from '../../../features/admin/users/users-page';
import { WeeksPage } from '../../../features/admin/weeks/weeks-page';
import { StatementPage } from '../../../features/credit/components/statement-page';
import { ReportButton } from '../../../features/order-review/components/report-button';
import { TopupsPage } from '../../../features/topups/components/topups-page';
import { positiveId } from '../params';

/** «Mi empresa», with the client's CSV reports (the authorizers' 'Generar reporte'). */
export function Principal() {
  return <ClientHomePage actions={<ReportButton />} />;
}

/**
 * 'Importación por archivo' of the client's own people (with `usuarios`) and their products (with
 * `asignaciones`): the distributor's dialog, for its own client.
 */
function ClientImportButton() {
  const scope = useAdminScope();
  const kinds: ImportKind[] = [];
  if (mayChangeUsers(scope)) kinds.push('usuarios');
  if (mayAssign(scope)) kinds.push('asignaciones');
  const [first] = kinds;
  if (!scope.client || !first) return null;
  return (
    <ImportButton
      kind={first}
      kinds={kinds}
      idCliente={scope.client.id}
      clienteNombre={scope.client.nombre}
      label="Importación por archivo"
    />
  );
}

/** The client's users, with its CSV import; no delegations (the distributor's). */
export function Usuarios() {
  return (
    <ClientAdminScope>
      <UsersPage importButton={() => <ClientImportButton />} />
    </ClientAdminScope>
  );
}

/** /cliente/usuarios/usuario/:user_id/productos: a buyer's products (changed with `asignaciones`). */
export function UsuarioProductos() {
  const userId = positiveId(useParams().user_id);
  if (!userId) return <Navigate to="/cliente/usuarios" replace />;
  return (
    <ClientAdminScope>
      <UserProductsPage key={userId} userId={userId} backCliente={null} />
    </ClientAdminScope>
  );
}

/** «Lista de personal»: the HR list, previewed then applied (with `usuarios`). */
export function Sincronizar() {
  return (
    <ClientAdminScope>
      <RosterSyncPage />
    </ClientAdminScope>
  );
}

/** The client's access weeks (changed with `semanas`). */
export function Semanas() {
  return (
    <ClientAdminScope>
      <WeeksPage />
    </ClientAdminScope>
  );
}

/** The client's approval levels and rules (changed with `reglas`). */
export function Reglas() {
  return (
    <ClientAdminScope>
      <ClientRulesPage />
    </ClientAdminScope>
  );
}

/** The client's own entries of «Registros del sistema». */
export function Registros() {
  return (
    <ClientAdminScope>
      <LogsPage />
    </ClientAdminScope>
  );
}

/** The client's áreas (cost centres, decision 0123), changed with `presupuestos`. */
export function Areas() {
  return (
    <ClientAdminScope>
      <AreasPage />
    </ClientAdminScope>
  );
}

/** The client's ship-to addresses (decision 0126), changed with `usuarios`. */
export function Direcciones() {
  return (
    <ClientAdminScope>
      <AddressesPage />
    </ClientAdminScope>
  );
}

/** The client's budget top-ups, decided with `presupuestos`. */
function ClientTopups() {
  const decides = mayChangeBudgets(useAdminScope());
  return (
    <TopupsPage
      description={
        decides
          ? 'Las solicitudes de más presupuesto de las personas y las áreas de tu empresa.'
          : 'Las solicitudes de más presupuesto de las personas y las áreas de tu empresa. Tu distribuidor no te permite cambiar presupuestos: solo puedes consultarlas.'
      }
    />
  );
}

export function Ampliaciones() {
  return (
    <ClientAdminScope>
      <ClientTopups />
    </ClientAdminScope>
  );
}

/** «Estado de cuenta» of the administrator's own client (decision 0134). */
export function EstadoDeCuenta() {
  return (
    <ClientAdminScope>
      <ClientStatement />
    </ClientAdminScope>
  );
}

/** The invoices' XML through the client's routes, which ask for the client's `fiscales` permission. */
function ClientStatement() {
  const scope = useAdminScope();
  return (
    <StatementPage
      fileHref={
        mayChangeFiscal(scope)
          ? (pedido, uuid) => `/api/cliente/pedidos/${pedido}/facturas/${uuid}/xml`
          : undefined
      }
    />
  );
}
