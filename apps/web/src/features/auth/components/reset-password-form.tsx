import { Alert, Button, Center, Loader, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { MSG } from '@portal/shared/messages';
import { IconAlertCircle } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Refusal } from '../../../components/ui/refusal';
import { errorMessage, isApiError } from '../../../lib/api';
import { resetPassword, resetTokenQuery } from '../api/reset-password';
import { passwordFieldErrors } from '../lib/password-errors';
import type { AuthLocationState } from './auth-notice';
import { AuthSubmit } from './auth-submit';
import { PasswordChecklist } from './password-checklist';

interface ResetPasswordFormProps {
  token: string;
}

/** The page an e-mailed link opens: checks the token, then asks for the new password twice. */
export function ResetPasswordForm({ token }: ResetPasswordFormProps) {
  const navigate = useNavigate();
  const check = useQuery(resetTokenQuery(token));
  const form = useForm({ mode: 'controlled', initialValues: { newPass: '', confirmPass: '' } });
  const [refusal, setRefusal] = useState<string | null>(null);

  const mutation = useMutation({
    mutationFn: resetPassword,
    onSuccess: (result) => {
      const state: AuthLocationState = {
        notice: { kind: 'success', text: result.msg || MSG.passwordEstablecida },
      };
      navigate('/login', { replace: true, state });
    },
    onError: (error) => {
      if (isApiError(error) && error.errors) {
        const known = Object.entries(error.errors).filter(([f]) => f === 'newPass' || f === 'confirmPass');
        if (known.length > 0) {
          form.setErrors(Object.fromEntries(known));
          return;
        }
      }
      setRefusal(errorMessage(error));
    },
  });

  if (check.isPending) {
    return (
      <Center py="xl">
        <Stack align="center" gap="sm">
          <Loader aria-label="Verificando enlace" />
          <Text c="dimmed" size="sm">
            Verificando tu enlace…
          </Text>
        </Stack>
      </Center>
    );
  }

  if (check.isError) {
    return (
      <Stack gap="md">
        <Title order={1} fz={26}>
          Enlace no válido
        </Title>
        <Alert color="red" icon={<IconAlertCircle />} radius="md">
          {errorMessage(check.error, MSG.enlaceInvalido)}
        </Alert>
        <Button component={Link} to="/recuperar-acceso" variant="light" fullWidth>
          Solicitar un enlace nuevo
        </Button>
      </Stack>
    );
  }

  const welcome = check.data.proposito === 'bienvenida';
  const submit = form.onSubmit((values) => {
    setRefusal(null);
    const errors = passwordFieldErrors(values);
    if (errors) {
      form.setErrors(errors);
      return;
    }
    mutation.mutate({ token, ...values });
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <div>
          <Title order={1} fz={26}>
            {welcome ? 'Crea tu contraseña' : 'Restablece tu contraseña'}
          </Title>
          <Text c="dimmed" size="sm" mt={4}>
            {welcome ? 'Bienvenido. ' : ''}Elige una contraseña nueva para el usuario{' '}
            <Text span fw={700} c="var(--mantine-color-text)">
              {check.data.usuario}
            </Text>
            .
          </Text>
        </div>
        <Refusal error={refusal} onClose={() => setRefusal(null)} />
        <PasswordInput
          label="Nueva contraseña"
          autoComplete="new-password"
          size="md"
          {...form.getInputProps('newPass')}
        />
        <PasswordInput
          label="Confirmar nueva contraseña"
          autoComplete="new-password"
          size="md"
          {...form.getInputProps('confirmPass')}
        />
        <PasswordChecklist
          id="reglas-password"
          password={form.values.newPass}
          confirmation={form.values.confirmPass}
        />
        <AuthSubmit pending={mutation.isPending} label="Guardar contraseña" />
      </Stack>
    </form>
  );
}
