/**
 * Success is a notification that closes after 3 s (showSuccess). Refusals are shown where they happened
 * (refusal.tsx, dialog-actions.tsx, field errors) and confirmations are confirm.tsx: decision 0070. A modal
 * only interrupts: `openConfirm` for the leave guard. Everything here waits for the modal manager and
 * notification stack to be mounted (they are loaded on first use, see overlay-host.tsx).
 */
import { Button, Group, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconInfoCircle } from '@tabler/icons-react';
import { ensureOverlays, type OverlayApi } from './overlay-host';

export const SUCCESS_MS = 3000;

type AlertKind = 'error' | 'warning' | 'info';

const KIND = {
  error: { color: 'red', Icon: IconAlertTriangle },
  warning: { color: 'orange', Icon: IconAlertTriangle },
  info: { color: 'blue', Icon: IconInfoCircle },
} as const;

/**
 * A blocking alert with a title, a message and an 'Aceptar' button.
 * @deprecated Decision 0070: show the refusal inline (refusal.tsx) instead. Kept only for the users list
 * and the inventory list, which are being rebuilt elsewhere; do not add callers.
 */
export async function showAlert(title: string, message: string, kind: AlertKind = 'error'): Promise<void> {
  const { color, Icon } = KIND[kind];
  const { modals } = await ensureOverlays();
  return new Promise((resolve) => {
    const id = modals.open({
      title: (
        <Group gap="sm" wrap="nowrap">
          <ThemeIcon color={color} variant="light" radius="xl" size="lg" aria-hidden>
            <Icon size={20} />
          </ThemeIcon>
          <Text fw={700} size="lg">
            {title}
          </Text>
        </Group>
      ),
      centered: true,
      radius: 'md',
      onClose: () => resolve(),
      children: (
        <Stack gap="lg">
          <Text>{message}</Text>
          <Group justify="flex-end">
            <Button color={color} onClick={() => modals.close(id)} data-autofocus>
              Aceptar
            </Button>
          </Group>
        </Stack>
      ),
    });
  });
}

/** @deprecated Decision 0070: see showAlert. */
export function showError(message: string, title = 'Error'): Promise<void> {
  return showAlert(title, message, 'error');
}

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
