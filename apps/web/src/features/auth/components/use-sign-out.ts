import { MSG } from '@portal/shared/messages';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { showSuccess } from '../../../components/ui/alerts';
import { closeLiveEvents } from '../../../lib/live-events';
import { endSession } from '../api/sign-out';

/**
 * "Cerrar sesión": closes the live updates' stream (it must not reconnect as the session ends), ends the
 * session (and what the browser keeps of it, decision 0118), goes to /login and forgets every cached answer.
 */
export function useSignOut() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => {
      closeLiveEvents();
      return endSession();
    },
    onSettled: async (result) => {
      // Leave first, then forget: clearing while the guard is still mounted would re-check the session.
      await navigate('/login', { replace: true });
      queryClient.clear();
      showSuccess(MSG.sesionCerrada, result?.msg);
    },
  });
}
