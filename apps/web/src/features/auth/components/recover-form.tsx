import { Anchor, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { MSG } from '@portal/shared/messages';
import { IconArrowLeft, IconUser } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { showSuccess } from '../../../components/ui/alerts';
import { Refusal } from '../../../components/ui/refusal';
import { errorMessage, isApiError } from '../../../lib/api';
import { requestAccessRecovery } from '../api/recover-access';
import { AuthSubmit } from './auth-submit';

export function RecoverForm() {
  const navigate = useNavigate();
  const form = useForm({ mode: 'controlled', initialValues: { usuario: '' } });
  const [refusal, setRefusal] = useState<string | null>(null);

  const mutation = useMutation({
    mutationFn: requestAccessRecovery,
    onSuccess: (result) => {
      showSuccess(MSG.correoEnviadoTitulo, result.msg || MSG.correoEnviado);
      navigate('/login', { replace: true });
    },
    onError: (error) => {
      if (isApiError(error) && error.status === 404) {
        form.setFieldError('usuario', error.msg || MSG.usuarioNoEncontradoSistema);
        return;
      }
      if (isApiError(error) && error.status === 400 && error.errors?.usuario) {
        form.setFieldError('usuario', error.errors.usuario);
        return;
      }
      setRefusal(errorMessage(error));
    },
  });

  const submit = form.onSubmit((values) => {
    const usuario = values.usuario.trim();
    setRefusal(null);
    if (!usuario) {
      form.setFieldError('usuario', MSG.llenarTodosLosDatos);
      return;
    }
    mutation.mutate({ usuario });
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <div>
          <Title order={1} fz={26}>
            Recupera tu acceso
          </Title>
          <Text c="dimmed" size="sm" mt={4}>
            Escribe tu usuario y te enviaremos un enlace a tu correo registrado para crear una contraseña
            nueva.
          </Text>
        </div>
        <Refusal error={refusal} onClose={() => setRefusal(null)} />
        <TextInput
          label="Usuario"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          leftSection={<IconUser size={18} aria-hidden />}
          size="md"
          {...form.getInputProps('usuario')}
        />
        <AuthSubmit pending={mutation.isPending} label="Enviar" />
        <Group justify="center">
          <Anchor component={Link} to="/login" size="sm">
            <Group gap={4} component="span">
              <IconArrowLeft size={14} aria-hidden />
              Volver a iniciar sesión
            </Group>
          </Anchor>
        </Group>
      </Stack>
    </form>
  );
}
