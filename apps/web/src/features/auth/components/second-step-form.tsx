import { Anchor, Button, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { MSG } from '@portal/shared/messages';
import type { SessionResponse } from '@portal/shared/schemas/auth';
import { IconDeviceMobile, IconKey } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { BackupCodeInput, TotpCodeInput } from '../../../components/ui/code-input';
import { Refusal } from '../../../components/ui/refusal';
import { errorMessage, isApiError } from '../../../lib/api';
import { verifySecondStep } from '../api/login';
import { AuthSubmit } from './auth-submit';

interface SecondStepFormProps {
  onSuccess: (session: SessionResponse) => void;
  /** Back to the usuario and password. */
  onCancel: () => void;
}

/**
 * "Verificación en dos pasos" of the sign-in: the password was right; now a code of the authenticator app
 * or, when the phone is not at hand, one of the backup codes.
 */
export function SecondStepForm({ onSuccess, onCancel }: SecondStepFormProps) {
  const [backup, setBackup] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const form = useForm({ mode: 'controlled', initialValues: { codigo: '', codigo_respaldo: '' } });
  const field = backup ? 'codigo_respaldo' : 'codigo';
  const [refusal, setRefusal] = useState<string | null>(null);

  // The code field takes the focus when the step opens and when the kind of code changes.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the kind of code changes
  useEffect(() => {
    input.current?.focus();
  }, [backup]);

  const mutation = useMutation({
    mutationFn: verifySecondStep,
    onSuccess,
    onError: (error) => {
      if (isApiError(error) && error.status === 401) {
        form.setFieldError(field, error.msg || MSG.codigoIncorrecto);
        input.current?.select();
        return;
      }
      const fieldError = isApiError(error) && error.status === 400 ? error.errors?.[field] : undefined;
      if (fieldError) {
        form.setFieldError(field, fieldError);
        return;
      }
      // 429 (too many attempts) and the rest carry the server's message.
      setRefusal(errorMessage(error));
    },
  });

  const submit = form.onSubmit((values) => {
    setRefusal(null);
    if (backup) {
      const codigo_respaldo = values.codigo_respaldo.trim();
      if (!codigo_respaldo) return form.setFieldError(field, MSG.codigoRequerido);
      mutation.mutate({ codigo_respaldo });
      return;
    }
    if (!values.codigo) return form.setFieldError(field, MSG.codigoRequerido);
    if (values.codigo.length !== 6) return form.setFieldError(field, MSG.codigoFormato);
    mutation.mutate({ codigo: values.codigo });
  });

  const switchKind = () => {
    form.reset();
    setBackup((b) => !b);
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <div>
          <Title order={1} fz={26}>
            Verificación en dos pasos
          </Title>
          <Text c="dimmed" size="sm" mt={4}>
            {backup
              ? 'Escribe uno de tus códigos de respaldo. Cada código sirve una sola vez.'
              : 'Escribe el código de 6 dígitos que muestra tu aplicación de autenticación.'}
          </Text>
        </div>
        <Refusal error={refusal} onClose={() => setRefusal(null)} />
        {backup ? (
          <BackupCodeInput
            ref={input}
            size="md"
            key="respaldo"
            leftSection={<IconKey size={18} aria-hidden />}
            {...form.getInputProps('codigo_respaldo')}
          />
        ) : (
          <TotpCodeInput
            ref={input}
            size="md"
            key="codigo"
            leftSection={<IconDeviceMobile size={18} aria-hidden />}
            {...form.getInputProps('codigo')}
          />
        )}
        <AuthSubmit pending={mutation.isPending} label="Verificar" />
        <Anchor component="button" type="button" size="sm" ta="center" onClick={switchKind}>
          {backup ? 'Usar el código de la aplicación' : 'Usar un código de respaldo'}
        </Anchor>
        <Button variant="subtle" color="gray" onClick={onCancel} disabled={mutation.isPending}>
          Cancelar
        </Button>
      </Stack>
    </form>
  );
}
