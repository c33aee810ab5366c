/**
 * The end of a form or a short dialog: the refusal of the last try (inline, announced, scrolled into view
 * when it appears) above 'Cancelar' and the button that says what will happen. form-footer.tsx puts it in
 * a sticky footer for long forms.
 */
import { Button, type ButtonProps, Group, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { Refusal } from './refusal';

export interface DialogActionsProps {
  error: ReactNode | null;
  errorTitle?: string;
  busy: boolean;
  onCancel: () => void;
  /** Without it the button submits its form. */
  onConfirm?: () => void;
  confirmLabel: string;
  /** The button that leaves without acting: 'Cancelar', or 'Volver' where the action itself cancels something. */
  cancelLabel?: string;
  confirmIcon?: ReactNode;
  disabled?: boolean;
  color?: ButtonProps['color'];
}

export function DialogActions({
  error,
  errorTitle,
  busy,
  onCancel,
  onConfirm,
  confirmLabel,
  cancelLabel = 'Cancelar',
  confirmIcon,
  disabled,
  color,
}: DialogActionsProps) {
  return (
    <Stack gap="sm">
      <Refusal error={error} title={errorTitle} />
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onCancel} disabled={busy}>
          {cancelLabel}
        </Button>
        <Button
          type={onConfirm ? 'button' : 'submit'}
          color={color}
          onClick={onConfirm}
          loading={busy}
          disabled={disabled}
          leftSection={confirmIcon}
        >
          {confirmLabel}
        </Button>
      </Group>
    </Stack>
  );
}
