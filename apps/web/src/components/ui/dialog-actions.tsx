/**
 * The end of a form or a short dialog: the refusal of the last try (inline, announced, scrolled into view
 * when it appears) above 'Cancelar' and the button that says what will happen. form-footer.tsx puts it in
 * a sticky footer for long forms.
 */
import { Alert, Button, type ButtonProps, Group, Stack } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { type ReactNode, useEffect, useRef } from 'react';

export interface DialogActionsProps {
  error: ReactNode | null;
  errorTitle?: string;
  busy: boolean;
  onCancel: () => void;
  /** Without it the button submits its form. */
  onConfirm?: () => void;
  confirmLabel: string;
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
  confirmIcon,
  disabled,
  color,
}: DialogActionsProps) {
  const errorRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (error) errorRef.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }, [error]);
  return (
    <Stack gap="sm">
      {error ? (
        <Alert
          ref={errorRef}
          color="red"
          variant="light"
          title={errorTitle}
          icon={<IconAlertTriangle size={18} />}
          role="alert"
        >
          {error}
        </Alert>
      ) : null}
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onCancel} disabled={busy}>
          Cancelar
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
