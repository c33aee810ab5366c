import {
  ActionIcon,
  Alert,
  Box,
  Button,
  CopyButton,
  Group,
  PasswordInput,
  Stack,
  Text,
  ThemeIcon,
  Tooltip,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { MSG } from '@portal/shared/messages';
import { IconAlertCircle, IconCheck, IconCopy } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { TotpCodeInput } from '../../../components/ui/code-input';
import { Refusal } from '../../../components/ui/refusal';
import { errorMessage, isApiError } from '../../../lib/api';
import { activateTwoFactor, isBadCode, startEnrolment, twoFactorKeys } from '../api/two-factor';
import { groupedKey, secretOf } from '../lib/manual-key';
import { BackupCodes } from './backup-codes';
import { QrCode } from './qr-code';

interface EnrolmentProps {
  usuario: string;
  /** After 'Listo' on the backup codes: two-factor sign-in is active. */
  onDone: () => void;
  /** Back without activating (the Seguridad dialog); the forced enrolment has none. */
  onCancel?: () => void;
  /** Put the focus on the code field once the QR is shown (in a dialog whose view just changed). */
  focusCode?: boolean;
  /** The auth shell's look: larger field, full-width button. */
  size?: 'sm' | 'md';
  fullWidth?: boolean;
}

function Step({ n, children }: { n: number; children: ReactNode }) {
  return (
    <Group gap="sm" wrap="nowrap" align="flex-start">
      <ThemeIcon size={24} radius="xl" variant="light" aria-hidden>
        <Text fz="xs" fw={700}>
          {n}
        </Text>
      </ThemeIcon>
      <Box miw={0} style={{ flex: 1 }}>
        {children}
      </Box>
    </Group>
  );
}

/**
 * Turning on "Verificación en dos pasos": the current password, then a new secret as a QR code and as a
 * key to type, a code of the app to confirm it, then the backup codes, shown once.
 */
export function Enrolment({
  usuario,
  onDone,
  onCancel,
  focusCode = false,
  size = 'sm',
  fullWidth = false,
}: EnrolmentProps) {
  const queryClient = useQueryClient();
  const [codes, setCodes] = useState<string[] | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  // The current password, asked once: it starts the enrolment and is sent again with the code (a session
  // alone cannot change the second factor). Kept only while this form is open.
  const password = useRef('');
  const passwordForm = useForm({ mode: 'controlled', initialValues: { password: '' } });
  const form = useForm({ mode: 'controlled', initialValues: { codigo: '' } });
  const start = useMutation({
    mutationFn: startEnrolment,
    onError: (error) => {
      const fieldError = isApiError(error) && error.status === 400 ? error.errors?.password : undefined;
      if (fieldError) passwordForm.setFieldError('password', fieldError);
    },
  });
  const activate = useMutation({
    mutationFn: activateTwoFactor,
    onSuccess: (result) => {
      password.current = '';
      setCodes(result.codigos_respaldo);
      void queryClient.invalidateQueries({ queryKey: twoFactorKeys.status });
    },
    onError: (error) => {
      if (isBadCode(error)) {
        form.setFieldError('codigo', (isApiError(error) && error.msg) || MSG.codigoIncorrecto);
        return;
      }
      const fieldError = isApiError(error) && error.status === 400 ? error.errors?.codigo : undefined;
      if (fieldError) {
        form.setFieldError('codigo', fieldError);
        return;
      }
      setRefusal(errorMessage(error));
    },
  });

  const codeInput = useRef<HTMLInputElement>(null);
  const ready = Boolean(start.data);
  useEffect(() => {
    if (ready && focusCode) codeInput.current?.focus();
  }, [ready, focusCode]);

  if (codes)
    return (
      <BackupCodes
        title="Verificación en dos pasos activada"
        codes={codes}
        usuario={usuario}
        onDone={onDone}
      />
    );

  if (!start.data) {
    const passwordRefused = isApiError(start.error) && start.error.errors?.password;
    const confirm = passwordForm.onSubmit((values) => {
      if (!values.password) return passwordForm.setFieldError('password', MSG.passwordActualRequerida);
      password.current = values.password;
      start.mutate(values.password);
    });
    return (
      <form onSubmit={confirm} noValidate>
        <Stack gap="md">
          <Text size="sm">Para activar la verificación en dos pasos, confirma tu contraseña.</Text>
          <PasswordInput
            label="Contraseña actual"
            autoComplete="current-password"
            size={size}
            data-autofocus
            {...passwordForm.getInputProps('password')}
          />
          {start.isError && !passwordRefused ? (
            <Alert color="red" icon={<IconAlertCircle />} radius="md" role="alert">
              {errorMessage(start.error)}
            </Alert>
          ) : null}
          <Group justify="flex-end" gap="sm" grow={fullWidth}>
            {onCancel ? (
              <Button variant="default" onClick={onCancel} disabled={start.isPending}>
                Volver
              </Button>
            ) : null}
            <Button type="submit" loading={start.isPending} size={size}>
              Continuar
            </Button>
          </Group>
        </Stack>
      </form>
    );
  }

  const secret = secretOf(start.data.otpauth_url);
  const submit = form.onSubmit(({ codigo }) => {
    setRefusal(null);
    if (!codigo) return form.setFieldError('codigo', MSG.codigoRequerido);
    if (codigo.length !== 6) return form.setFieldError('codigo', MSG.codigoFormato);
    activate.mutate({ codigo, password: password.current });
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="lg">
        <Step n={1}>
          <Text size="sm">
            Abre tu aplicación de autenticación (Google Authenticator, Microsoft Authenticator u otra) y
            escanea este código QR.
          </Text>
          <Box mt="sm">
            <QrCode value={start.data.otpauth_url} />
          </Box>
          <Text size="sm" c="dimmed" mt="sm">
            ¿No puedes escanearlo? Escribe esta clave en la aplicación:
          </Text>
          <Group gap="xs" wrap="nowrap" mt={6} align="center">
            <Text
              ff="monospace"
              fw={600}
              fz="sm"
              px="sm"
              py={6}
              bg="var(--mantine-color-gray-1)"
              // Two even lines rather than one group left alone on the second.
              style={{ borderRadius: 6, wordSpacing: '0.2em', textWrap: 'balance', flex: 1 }}
              data-testid="clave-manual"
            >
              {groupedKey(secret)}
            </Text>
            <CopyButton value={secret} timeout={2000}>
              {({ copied, copy }) => (
                <Tooltip label={copied ? 'Clave copiada' : 'Copiar clave'} withArrow>
                  <ActionIcon
                    variant="default"
                    size="lg"
                    onClick={copy}
                    aria-label={copied ? 'Clave copiada' : 'Copiar clave'}
                  >
                    {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                  </ActionIcon>
                </Tooltip>
              )}
            </CopyButton>
          </Group>
        </Step>
        <Step n={2}>
          <Text size="sm" mb="xs">
            Escribe el código de 6 dígitos que muestra la aplicación.
          </Text>
          <TotpCodeInput ref={codeInput} maw={240} size={size} {...form.getInputProps('codigo')} />
        </Step>
        <Refusal error={refusal} onClose={() => setRefusal(null)} />
        <Group justify="flex-end" gap="sm" grow={fullWidth}>
          {onCancel ? (
            <Button variant="default" onClick={onCancel} disabled={activate.isPending}>
              Cancelar
            </Button>
          ) : null}
          <Button type="submit" loading={activate.isPending} size={size}>
            Activar
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
