/**
 * The one confirmation dialog (decision 0070): a title that names the action and its object, a message
 * that says what will happen (with the server's counts where they matter), 'Cancelar' and a button that
 * says what it does. The action runs from the dialog: while it runs the button waits; a refusal stays in
 * the dialog above the buttons (dialog-actions.tsx) so the user reads it where they acted; the dialog
 * closes only when the action succeeded.
 */
import { Stack, Text } from '@mantine/core';
import { MSG } from '@portal/shared/messages';
import { type ReactNode, useState } from 'react';
import { errorMessage, isApiError } from '../../lib/api';
import { DialogActions } from './dialog-actions';
import { ensureOverlays } from './overlay-host';

export interface ConfirmOptions {
  /** Names the action and its object ('¿Desactivar el cliente Acme?'); '¿Estás seguro?' without it. */
  title?: string;
  /** What will happen. A string is one paragraph. */
  message: ReactNode;
  confirmLabel: string;
  /** The leaving button's label ('Cancelar' by default; 'Volver' where the action itself cancels something). */
  cancelLabel?: string;
  /** A destructive action: a red button, and the focus starts on 'Cancelar'. */
  danger?: boolean;
  /** The action. A returned promise keeps the dialog open until it settles; a rejection is shown in it. */
  onConfirm: () => unknown;
  /** The fallback text of a refusal without a server message. */
  failure?: string;
}

function ConfirmBody({
  message,
  confirmLabel,
  cancelLabel,
  danger,
  onConfirm,
  failure,
  close,
}: ConfirmOptions & { close: () => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async () => {
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
      close();
      return;
    } catch (err) {
      // A session that ended sends the app to the sign-in screen: nothing to show here.
      if (isApiError(err) && err.status === 401) {
        close();
        return;
      }
      setError(errorMessage(err, failure));
    }
    setBusy(false);
  };
  return (
    <Stack gap="lg">
      {typeof message === 'string' ? <Text>{message}</Text> : message}
      <DialogActions
        error={error}
        busy={busy}
        onCancel={close}
        onConfirm={() => void run()}
        confirmLabel={confirmLabel}
        cancelLabel={cancelLabel}
        color={danger ? 'red' : undefined}
      />
    </Stack>
  );
}

/** Opens the confirmation once the modal manager is mounted. */
export function confirmAction(options: ConfirmOptions): void {
  void ensureOverlays().then(({ modals }) => {
    const id: string = modals.open({
      title: options.title ?? MSG.confirmarTitulo,
      centered: true,
      radius: 'md',
      children: <ConfirmBody {...options} close={() => modals.close(id)} />,
    });
  });
}
