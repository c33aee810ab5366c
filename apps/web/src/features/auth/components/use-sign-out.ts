import { MSG } from '@portal/shared/messages';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { showSuccess } from '../../../components/ui/alerts';
import { logout } from '../../../lib/auth';

/** "Cerrar sesión": ends the session, goes to /login and forgets every cached answer. */
export function useSignOut() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: logout,
    onSettled: async (result) => {
      // Leave first, then forget: clearing while the guard is still mounted would re-check the session.
      await navigate('/login', { replace: true });
      queryClient.clear();
      showSuccess(MSG.sesionCerrada, result?.msg);
    },
  });
}
