import type { OkMessage } from '@portal/shared/schemas/common';
import { logout } from '../../../lib/auth';
import { clearCaches, forgetPushSubscription } from '../../../lib/service-worker';

/**
 * Signing out from the signed-in app or a forced screen: ends the session, then leaves nothing of this
 * person in the browser — the service worker's caches and this browser's push subscription (decision 0118).
 */
export async function endSession(): Promise<OkMessage> {
  try {
    return await logout();
  } finally {
    await Promise.all([clearCaches(), forgetPushSubscription()]);
  }
}
