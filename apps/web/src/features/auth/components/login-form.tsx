import { Alert, Anchor, Button, Loader, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { homeFor } from '@portal/shared/domain/roles';
import { MSG } from '@portal/shared/messages';
import { IconCircleCheck, IconInfoCircle, IconLock, IconUser } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useLocation, useNavigate } from 'react-router';
import { showAlert, showError } from '../../../components/ui/alerts';
import { errorMessage, isApiError } from '../../../lib/api';
import { sessionKeys } from '../../../lib/auth';
import { login } from '../api/login';
import { noticeFrom } from './auth-notice';

export function LoginForm() {
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const notice = noticeFrom(location.state);

  const form = useForm({
    mode: 'controlled',
    initialValues: { usuario: '', password: '' },
  });

  const mutation = useMutation({
    mutationFn: login,
    onSuccess: (session) => {
      queryClient.removeQueries({ queryKey: sessionKeys.all });
      const target = session.user.debe_cambiar_password ? '/cambiar-password' : homeFor(session.user.rol);
      queryClient.setQueryData(sessionKeys.at(target), session);
      navigate(target, { replace: true });
    },
    onError: (error) => {
      if (isApiError(error) && error.status === 400 && error.errors) {
        const fieldErrors = Object.fromEntries(
          Object.entries(error.errors).filter(([field]) => field === 'usuario' || field === 'password'),
        );
        if (Object.keys(fieldErrors).length > 0) {
          form.setErrors(fieldErrors);
          return;
        }
      }
      // 401 and 429 carry the server's message; without one, the spec's 'Credenciales incorrectas'.
      void showError(errorMessage(error, MSG.credencialesIncorrectas));
    },
  });

  const submit = form.onSubmit((values) => {
    const usuario = values.usuario.trim();
    const password = values.password;
    if (!usuario || !password) {
      form.setErrors({ usuario: !usuario, password: !password });
      void showAlert(MSG.esperaUnMomento, MSG.llenarTodosLosDatos, 'warning');
      return;
    }
    mutation.mutate({ usuario, password });
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <div>
          <Title order={1} fz={26}>
            Bienvenido
          </Title>
          <Text c="dimmed" size="sm" mt={4}>
            Ingresa con tu usuario y contraseña.
          </Text>
        </div>
        {notice ? (
          <Alert
            color={notice.kind === 'success' ? 'teal' : 'orange'}
            icon={notice.kind === 'success' ? <IconCircleCheck /> : <IconInfoCircle />}
            radius="md"
            role="status"
          >
            {notice.text}
          </Alert>
        ) : null}
        <TextInput
          label="Usuario"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          leftSection={<IconUser size={18} aria-hidden />}
          size="md"
          {...form.getInputProps('usuario')}
        />
        <PasswordInput
          label="Contraseña"
          autoComplete="current-password"
          leftSection={<IconLock size={18} aria-hidden />}
          size="md"
          {...form.getInputProps('password')}
        />
        <Button
          type="submit"
          size="md"
          fullWidth
          mt="xs"
          disabled={mutation.isPending}
          leftSection={mutation.isPending ? <Loader size={16} color="currentColor" aria-hidden /> : null}
        >
          {mutation.isPending ? 'Espere un momento' : 'Acceso'}
        </Button>
        <Anchor component={Link} to="/recuperar-acceso" size="sm" ta="center">
          Recuperar mi contraseña
        </Anchor>
      </Stack>
    </form>
  );
}
