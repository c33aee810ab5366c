/** A message handed to the login screen through navigation state (reset done, session refused...). */
export interface AuthNotice {
  kind: 'success' | 'warning';
  text: string;
}

export interface AuthLocationState {
  notice?: AuthNotice;
}

export function noticeFrom(state: unknown): AuthNotice | null {
  if (!state || typeof state !== 'object') return null;
  const notice = (state as AuthLocationState).notice;
  if (!notice || typeof notice.text !== 'string' || !notice.text) return null;
  return notice;
}
