/**
 * Success is a notification that closes after 3 s (showSuccess). Refusals are shown where they happened
 * (refusal.tsx, dialog-actions.tsx, field errors) and confirmations are confirm.tsx: decision 0070. A modal
 * only interrupts: `openConfirm` for the leave guard. Everything here waits for the modal manager and
 * notification stack to be mounted (they are loaded on first use, see overlay-host.tsx).
 */
import { IconCheck } from '@tabler/icons-react';
import { ensureOverlays, type OverlayApi } from './overlay-host';

export const SUCCESS_MS = 3000;

/** A success notification (3 s). */
export function showSuccess(title: string, message?: string): void {
  void ensureOverlays().then(({ notifications }) =>
    notifications.show({
      title,
      message: message ?? '',
      color: 'teal',
      icon: <IconCheck size={18} />,
      autoClose: SUCCESS_MS,
      withBorder: true,
    }),
  );
}

/**
 * Mantine's confirm modal once the modal manager is mounted: only for an interruption whose answer needs
 * no request (the leave guard). A confirmation that runs an action is confirm.tsx's confirmAction.
 */
export function openConfirm(props: Parameters<OverlayApi['modals']['openConfirmModal']>[0]): void {
  void ensureOverlays().then(({ modals }) => modals.openConfirmModal(props));
}
