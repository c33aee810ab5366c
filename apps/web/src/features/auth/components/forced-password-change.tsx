import { homeFor } from '@portal/shared/domain/roles';
import { MSG } from '@portal/shared/messages';
import { useQueryClient } from '@tanstack/react-query';
import { useLocation, useNavigate } from 'react-router';
import { showSuccess } from '../../../components/ui/alerts';
import {
  landingFor,
  returnParam,
  type SessionResponse,
  sessionCheckQuery,
  sessionKeys,
} from '../../../lib/auth';
import { useSession } from '../../../lib/session';
import { changeReasonText } from '../lib/change-reason';
import { ChangePasswordForm } from './change-password-form';
import { ForcedScreen } from './forced-screen';

/** Shown before anything else while the password is temporary or older than six months. */
export function ForcedPasswordChange() {
  const { user } = useSession();
  const navigate = useNavigate();
  const { search } = useLocation();
  const queryClient = useQueryClient();

  return (
    <ForcedScreen title="Cambia tu contraseña" notice={changeReasonText(user.motivo_cambio_password)}>
      <ChangePasswordForm
        submitLabel="Guardar y continuar"
        size="md"
        fullWidth
        onSuccess={async () => {
          showSuccess(MSG.passwordActualizadaTitulo, MSG.passwordActualizada);
          // Re-read the session (it no longer asks for a change), let every cached check know, and
          // continue to the page of `?volver=` (or the role's home), or to the two-factor enrolment when
          // it is due (whose guard checks the session once more).
          const home = homeFor(user.rol);
          const fresh = await queryClient
            .fetchQuery({ ...sessionCheckQuery(home), staleTime: 0 })
            .catch(() => null);
          if (fresh && !fresh.user.debe_cambiar_password) {
            queryClient.setQueriesData<SessionResponse>({ queryKey: sessionKeys.all }, (old) =>
              old ? { ...old, user: { ...old.user, debe_cambiar_password: false } } : old,
            );
          }
          navigate(fresh ? landingFor(fresh.user, returnParam(search)) : '/login', { replace: true });
        }}
      />
    </ForcedScreen>
  );
}
