import type { SessionResponse } from '@portal/shared/schemas/auth';
import { createContext, use } from 'react';

/** The checked session of the signed-in user; provided by the route guard. */
export const SessionContext = createContext<SessionResponse | null>(null);

export function useSession(): SessionResponse {
  const session = use(SessionContext);
  if (!session) throw new Error('useSession() fuera de una ruta protegida');
  return session;
}
