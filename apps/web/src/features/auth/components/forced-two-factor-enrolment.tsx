import { MSG } from '@portal/shared/messages';
import { useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { landingFor, returnParam, type SessionResponse, sessionKeys } from '../../../lib/auth';
import { useSession } from '../../../lib/session';
import { ForcedScreen } from './forced-screen';

/**
 * Shown before anything else (after a forced password change) while two-factor sign-in is mandatory for
 * the account and not active: the enrolment, then the backup codes, then the page of `?volver=` or the
 * role's home. The enrolment itself is the two-factor feature's, given by app/.
 */
export function ForcedTwoFactorEnrolment({
  enrolment,
}: {
  /** The enrolment form of `usuario`, which calls `onDone` after 'Listo' on the backup codes. */
  enrolment: (props: { usuario: string; onDone: () => void }) => ReactNode;
}) {
  const { user } = useSession();
  const navigate = useNavigate();
  const { search } = useLocation();
  const queryClient = useQueryClient();

  const done = () => {
    // Every cached check learns that the enrolment is done (the next screen shows the previous answer
    // while it asks the server again); the role's home then checks the session once more.
    const enrolled = { ...user, debe_activar_2fa: false, dos_pasos: true };
    queryClient.setQueriesData<SessionResponse>({ queryKey: sessionKeys.all }, (old) =>
      old ? { ...old, user: { ...old.user, debe_activar_2fa: false, dos_pasos: true } } : old,
    );
    navigate(landingFor(enrolled, returnParam(search)), { replace: true });
  };

  return (
    <ForcedScreen title="Activa la verificación en dos pasos" notice={MSG.dosPasosRequerida}>
      {enrolment({ usuario: user.usuario, onDone: done })}
    </ForcedScreen>
  );
}
