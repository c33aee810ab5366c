/**
 * The spec's alerts: 'Error' (and other blocking) alerts are Mantine modals with one button;
 * success messages are notifications that close after 3 s. Everything here waits for the modal
 * manager and notification stack to be mounted (they are loaded on first use, see overlay-host.tsx).
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

/** A blocking alert with a title, a message and an 'Aceptar' button. */
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

/** A confirmation dialog (Mantine's confirm modal) once the modal manager is mounted. */
export function openConfirm(props: Parameters<OverlayApi['modals']['openConfirmModal']>[0]): void {
  void ensureOverlays().then(({ modals }) => modals.openConfirmModal(props));
}
