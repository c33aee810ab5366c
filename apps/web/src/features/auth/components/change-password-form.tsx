import { Button, Group, PasswordInput, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { MSG } from '@portal/shared/messages';
import type { OkMessage } from '@portal/shared/schemas/common';
import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Refusal } from '../../../components/ui/refusal';
import { isApiError } from '../../../lib/api';
import { changeOwnPassword } from '../../../lib/auth';
import { type PasswordField, passwordFieldErrors } from '../lib/password-errors';
import { PasswordChecklist } from './password-checklist';

interface ChangePasswordFormProps {
  onSuccess: (result: OkMessage) => void;
  onCancel?: () => void;
  submitLabel?: string;
  /** Input size ('md' in the auth shell, to match the other public forms). */
  size?: 'sm' | 'md';
  /** A full-width submit button (auth shell). */
  fullWidth?: boolean;
}

const FIELDS: readonly PasswordField[] = ['password', 'newPass', 'confirmPass'];

/**
 * Current, new and confirmation, with the policy as a live checklist; docs/domain.md "Passwords" messages on
 * the fields, any other refusal at the top of the form (decision 0070).
 */
export function ChangePasswordForm({
  onSuccess,
  onCancel,
  submitLabel = 'Cambiar contraseña',
  size = 'sm',
  fullWidth = false,
}: ChangePasswordFormProps) {
  const form = useForm({
    mode: 'controlled',
    initialValues: { password: '', newPass: '', confirmPass: '' },
  });
  const [refusal, setRefusal] = useState<string | null>(null);
  const checklistId = useId();

  const mutation = useMutation({
    mutationFn: changeOwnPassword,
    onSuccess: (result) => {
      form.reset();
      onSuccess(result);
    },
    onError: (error) => {
      if (isApiError(error) && error.errors && Object.keys(error.errors).length > 0) {
        const known = Object.entries(error.errors).filter(([field]) =>
          FIELDS.includes(field as PasswordField),
        );
        if (known.length > 0) {
          form.setErrors(Object.fromEntries(known));
          return;
        }
      }
      if (isApiError(error) && error.status === 401) return; // the session ended: the app goes to /login
      setRefusal(isApiError(error) && error.msg ? error.msg : MSG.ocurrioUnError);
    },
  });

  const submit = form.onSubmit((values) => {
    setRefusal(null);
    const errors = passwordFieldErrors(values);
    if (errors) {
      form.setErrors(errors);
      return;
    }
    mutation.mutate(values);
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Refusal error={refusal} onClose={() => setRefusal(null)} />
        <PasswordInput
          label="Contraseña actual"
          autoComplete="current-password"
          size={size}
          data-autofocus
          {...form.getInputProps('password')}
        />
        <PasswordInput
          label="Nueva contraseña"
          autoComplete="new-password"
          size={size}
          {...form.getInputProps('newPass')}
        />
        <PasswordInput
          label="Confirmar nueva contraseña"
          autoComplete="new-password"
          size={size}
          {...form.getInputProps('confirmPass')}
        />
        <PasswordChecklist
          id={checklistId}
          password={form.values.newPass}
          confirmation={form.values.confirmPass}
        />
        <Group justify="flex-end" mt="sm" grow={fullWidth}>
          {onCancel ? (
            <Button variant="default" onClick={onCancel} disabled={mutation.isPending}>
              Cancelar
            </Button>
          ) : null}
          <Button type="submit" loading={mutation.isPending} size={size}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
