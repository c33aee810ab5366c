/**
 * A refusal shown where it happened (decision 0070): at the top of a form or dialog, above its buttons, or
 * next to the button whose action was refused. Announced (role="alert") and scrolled into view when it
 * appears; with `onClose` the user can dismiss it. Field messages go under their fields instead
 * (lib/form-errors.ts); success is a toast (alerts.tsx showSuccess); a modal only interrupts.
 */
import { Alert, type AlertProps } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { type ReactNode, useEffect, useRef } from 'react';

interface RefusalProps extends Omit<AlertProps, 'children' | 'title'> {
  error: ReactNode | null;
  title?: string;
  onClose?: () => void;
}

export function Refusal({ error, title, onClose, ...alert }: RefusalProps) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (error) ref.current?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' });
  }, [error]);
  if (!error) return null;
  return (
    <Alert
      ref={ref}
      color="red"
      variant="light"
      title={title}
      icon={<IconAlertTriangle size={18} />}
      role="alert"
      withCloseButton={Boolean(onClose)}
      closeButtonLabel="Cerrar aviso"
      onClose={onClose}
      {...alert}
    >
      {error}
    </Alert>
  );
}
