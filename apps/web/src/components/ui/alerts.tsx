/**
 * Success is a notification that closes after 3 s (showSuccess). Refusals are shown where they happened
 * (refusal.tsx, dialog-actions.tsx, field errors) and confirmations are confirm.tsx: decision 0070. A modal
 * only interrupts: `openConfirm` for the leave guard. Everything here waits for the modal manager and
 * notification stack to be mounted (they are loaded on first use, see overlay-host.tsx).
 */
import { IconCheck, IconHourglass } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { ensureOverlays, type OverlayApi } from './overlay-host';

export const SUCCESS_MS = 3000;
/** How long a notice stays: long enough to read a sentence about what is still to happen. */
export const NOTICE_MS = 12_000;

function notify(
  title: string,
  message: string | undefined,
  look: { color: string; icon: ReactNode; ms: number },
) {
  void ensureOverlays().then(({ notifications }) =>
    notifications.show({
      title,
      message: message ?? '',
      color: look.color,
      icon: look.icon,
      autoClose: look.ms,
      withBorder: true,
    }),
  );
}

/** A success notification (3 s). */
export function showSuccess(title: string, message?: string): void {
  notify(title, message, { color: 'teal', icon: <IconCheck size={18} />, ms: SUCCESS_MS });
}

/**
 * Done, with something still to happen (a budget that waits for the distributor's approval): a yellow
 * notification that stays 12 s and can be closed, so it is not read as a plain success.
 */
export function showNotice(title: string, message?: string): void {
  notify(title, message, { color: 'yellow', icon: <IconHourglass size={18} />, ms: NOTICE_MS });
}

/**
 * Mantine's confirm modal once the modal manager is mounted: only for an interruption whose answer needs
 * no request (the leave guard). A confirmation that runs an action is confirm.tsx's confirmAction.
 */
export function openConfirm(props: Parameters<OverlayApi['modals']['openConfirmModal']>[0]): void {
  void ensureOverlays().then(({ modals }) => modals.openConfirmModal(props));
}
