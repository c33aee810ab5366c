/**
 * The sticky footer of a long form in a drawer or modal: the message of a refused save (scrolled into
 * view when it appears) above 'Cancelar' and the save button (dialog-actions.tsx).
 */
import { Paper, type PaperProps } from '@mantine/core';
import { IconDeviceFloppy } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { DialogActions } from './dialog-actions';

export interface FormError {
  title: string;
  text: ReactNode;
}

interface FormFooterProps extends PaperProps {
  error: FormError | null;
  busy: boolean;
  onCancel: () => void;
  submitLabel: string;
}

export function FormFooter({ error, busy, onCancel, submitLabel, ...paper }: FormFooterProps) {
  return (
    <Paper
      pos="sticky"
      bottom={0}
      mt="xl"
      radius={0}
      bg="var(--mantine-color-body)"
      style={{ borderTop: '1px solid var(--mantine-color-gray-3)', zIndex: 2 }}
      {...paper}
    >
      <DialogActions
        error={error?.text ?? null}
        errorTitle={error?.title}
        busy={busy}
        onCancel={onCancel}
        confirmLabel={submitLabel}
        confirmIcon={<IconDeviceFloppy size={18} aria-hidden />}
      />
    </Paper>
  );
}
