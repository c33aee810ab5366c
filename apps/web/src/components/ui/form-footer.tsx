/**
 * The sticky footer of a long form in a drawer or modal: the message of a refused save (scrolled into
 * view when it appears) above 'Cancelar' and the save button.
 */
import { Alert, Button, Group, Paper, type PaperProps, Stack } from '@mantine/core';
import { IconAlertTriangle, IconDeviceFloppy } from '@tabler/icons-react';
import { type ReactNode, useEffect, useRef } from 'react';

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
  const errorRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (error) errorRef.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }, [error]);

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
      <Stack gap="sm">
        {error ? (
          <Alert
            ref={errorRef}
            color="red"
            variant="light"
            title={error.title}
            icon={<IconAlertTriangle size={18} />}
            role="alert"
          >
            {error.text}
          </Alert>
        ) : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={busy}>
            Cancelar
          </Button>
          <Button type="submit" loading={busy} leftSection={<IconDeviceFloppy size={18} aria-hidden />}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
