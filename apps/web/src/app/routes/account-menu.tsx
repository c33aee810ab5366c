import { ROLES } from '@portal/shared/domain/roles';
import { MSG } from '@portal/shared/messages';
import { lazy } from 'react';
import { ProfileMenu } from '../../components/layouts/profile-menu';
import { showSuccess } from '../../components/ui/alerts';
import { ChangePasswordForm } from '../../features/auth/components/change-password-form';
import { useSignOut } from '../../features/auth/components/use-sign-out';
import { ownDelegation } from '../../features/delegation/api/delegation';
import { useSession } from '../../lib/session';

/** "Seguridad" (two-factor sign-in, roles 2-4): loaded when opened, with its QR drawing. */
const SecurityPanel = lazy(() => import('../../features/two-factor/components/security-panel'));
/** "Fuera de oficina" (roles 2-3, decision 0053): loaded when opened, with its calendar. */
const DelegationPanel = lazy(() => import('../../features/delegation/components/delegation-panel'));
/** "Notificaciones" (every role, decision 0114): loaded when opened. */
const NotificationPreferencesPanel = lazy(
  () => import('../../features/notifications/components/notification-preferences'),
);

/**
 * Whether a role has the notices (the bell, their preferences, the live updates and the phone's pushes):
 * roles 1–4. The server's notification routes do not admit a client administrator (rol 5, decision 0122),
 * so nothing of its screens calls them.
 */
export function getsNotices(rol: number): boolean {
  return rol !== ROLES.administradorCliente;
}

/**
 * The header's profile menu with the features' panels (issue 39: app composes): the own password change
 * (auth), two-factor sign-in (two-factor), the own delegation (delegation), how notices arrive
 * (notifications) and signing out (auth).
 */
export function AccountMenu() {
  const signOut = useSignOut();
  const { user } = useSession();
  return (
    <ProfileMenu
      changePassword={(close) => (
        <ChangePasswordForm
          onCancel={close}
          onSuccess={() => {
            close();
            showSuccess(MSG.passwordActualizadaTitulo, MSG.passwordActualizada);
          }}
        />
      )}
      security={<SecurityPanel />}
      away={(close) => <DelegationPanel target={ownDelegation} onDone={close} />}
      notifications={
        getsNotices(user.rol) ? (close) => <NotificationPreferencesPanel onDone={close} /> : undefined
      }
      onSignOut={() => signOut.mutate()}
      signingOut={signOut.isPending}
    />
  );
}
