/**
 * "Seguridad" (profile menu, roles 2-4): the state of "Verificación en dos pasos" and what can be done
 * with it: activate, regenerate the backup codes, deactivate (unless it is mandatory for the account).
 * A chunk of its own, loaded when the dialog opens (it brings the QR drawing with it).
 */
import {
  Alert,
  Badge,
  Button,
  Center,
  Group,
  Paper,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { MSG } from '@portal/shared/messages';
import type { TwoFactorStatus } from '@portal/shared/schemas/two-factor';
import { IconAlertCircle, IconShieldCheck, IconShieldOff } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { showSuccess } from '../../../components/ui/alerts';
import { TotpCodeInput } from '../../../components/ui/code-input';
import { Refusal } from '../../../components/ui/refusal';
import { Spinner } from '../../../components/ui/spinner';
import { errorMessage, isApiError } from '../../../lib/api';
import { useSession } from '../../../lib/session';
import {
  disableTwoFactor,
  isBadCode,
  regenerateBackupCodes,
  twoFactorKeys,
  twoFactorStatusQuery,
} from '../api/two-factor';
import { BackupCodes } from './backup-codes';
import { Enrolment } from './enrolment';

type View =
  | { name: 'estado' }
  | { name: 'activar' }
  | { name: 'regenerar' }
  | { name: 'desactivar' }
  | { name: 'codigos'; codes: string[] };

/** The message of a refused code check, for its field; null when the error is not about the code. */
function codeProblem(error: unknown): string | null {
  if (isBadCode(error)) return (isApiError(error) && error.msg) || MSG.codigoIncorrecto;
  if (isApiError(error) && error.status === 400 && error.errors?.codigo) return error.errors.codigo;
  return null;
}

function StatusCard({
  status,
  onActivate,
  onRegenerate,
  onDisable,
}: {
  status: TwoFactorStatus;
  onActivate: () => void;
  onRegenerate: () => void;
  onDisable: () => void;
}) {
  const few = status.codigos_restantes <= 3;
  return (
    <Stack gap="md">
      <Paper withBorder radius="md" p="md">
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <ThemeIcon
            size={40}
            radius="md"
            variant="light"
            color={status.activo ? 'teal' : 'gray'}
            aria-hidden
          >
            {status.activo ? <IconShieldCheck size={22} /> : <IconShieldOff size={22} />}
          </ThemeIcon>
          <Stack gap={4} miw={0} style={{ flex: 1 }}>
            <Group gap="xs" justify="space-between" wrap="wrap">
              <Title order={3} fz="md">
                Verificación en dos pasos
              </Title>
              <Badge color={status.activo ? 'teal' : 'gray'} variant="light">
                {status.activo ? 'Activada' : 'Desactivada'}
              </Badge>
            </Group>
            <Text size="sm" c="dimmed">
              {status.activo
                ? 'Al entrar, además de tu contraseña se te pide un código de tu aplicación de autenticación.'
                : 'Protege tu cuenta: al entrar, además de tu contraseña se te pedirá un código de 6 dígitos de una aplicación de autenticación en tu teléfono.'}
            </Text>
          </Stack>
        </Group>
      </Paper>

      {status.activo ? (
        <>
          <Group justify="space-between" gap="xs" data-testid="codigos-restantes">
            <Text size="sm">Códigos de respaldo restantes</Text>
            <Badge color={few ? 'orange' : 'gray'} variant="light" size="lg">
              {status.codigos_restantes} de 10
            </Badge>
          </Group>
          {few ? (
            <Text size="sm" c="orange.9">
              Te quedan pocos códigos de respaldo: genera códigos nuevos y guárdalos.
            </Text>
          ) : null}
          <Stack gap="xs">
            <Button variant="light" onClick={onRegenerate}>
              Regenerar códigos de respaldo
            </Button>
            {status.obligatorio ? (
              <>
                <Button variant="subtle" color="red" disabled>
                  Desactivar
                </Button>
                <Text size="xs" c="dimmed" ta="center">
                  {MSG.dosPasosObligatoria}
                </Text>
              </>
            ) : (
              <Button variant="subtle" color="red" onClick={onDisable}>
                Desactivar
              </Button>
            )}
          </Stack>
        </>
      ) : (
        <Button onClick={onActivate}>Activar verificación en dos pasos</Button>
      )}
    </Stack>
  );
}

function RegenerateForm({ onCodes, onCancel }: { onCodes: (codes: string[]) => void; onCancel: () => void }) {
  const queryClient = useQueryClient();
  const form = useForm({ mode: 'controlled', initialValues: { codigo: '' } });
  const [refusal, setRefusal] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: regenerateBackupCodes,
    onSuccess: (result) => {
      void queryClient.invalidateQueries({ queryKey: twoFactorKeys.status });
      onCodes(result.codigos_respaldo);
    },
    onError: (error) => {
      const problem = codeProblem(error);
      if (problem) form.setFieldError('codigo', problem);
      else setRefusal(errorMessage(error));
    },
  });
  const submit = form.onSubmit(({ codigo }) => {
    setRefusal(null);
    if (codigo.length !== 6)
      return form.setFieldError('codigo', codigo ? MSG.codigoFormato : MSG.codigoRequerido);
    mutation.mutate(codigo);
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Title order={3} fz="md">
          Regenerar códigos de respaldo
        </Title>
        <Text size="sm">
          Se crearán 10 códigos nuevos y los anteriores dejarán de funcionar. Para continuar, escribe el
          código de 6 dígitos de tu aplicación de autenticación.
        </Text>
        <TotpCodeInput data-autofocus maw={220} {...form.getInputProps('codigo')} />
        <Refusal error={refusal} onClose={() => setRefusal(null)} />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={mutation.isPending}>
            Cancelar
          </Button>
          <Button type="submit" loading={mutation.isPending}>
            Generar códigos nuevos
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function DisableForm({ onDone, onCancel }: { onDone: () => void; onCancel: () => void }) {
  const queryClient = useQueryClient();
  const form = useForm({ mode: 'controlled', initialValues: { password: '', codigo: '' } });
  const [refusal, setRefusal] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: disableTwoFactor,
    onSuccess: (result) => {
      void queryClient.invalidateQueries({ queryKey: twoFactorKeys.status });
      showSuccess('Verificación en dos pasos desactivada', result.msg);
      onDone();
    },
    onError: (error) => {
      const problem = codeProblem(error);
      if (problem) {
        form.setFieldError('codigo', problem);
        return;
      }
      if (isApiError(error) && error.status === 400 && error.errors?.password) {
        form.setFieldError('password', error.errors.password);
        return;
      }
      setRefusal(errorMessage(error));
    },
  });
  const submit = form.onSubmit((values) => {
    setRefusal(null);
    const codigo = values.codigo.trim();
    if (!values.password || !codigo) {
      form.setErrors({
        password: values.password ? null : MSG.todosLosCampos,
        codigo: codigo ? null : MSG.codigoRequerido,
      });
      return;
    }
    mutation.mutate({ password: values.password, codigo });
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Title order={3} fz="md">
          Desactivar la verificación en dos pasos
        </Title>
        <Text size="sm">
          Tu cuenta quedará protegida solo con tu contraseña y tus códigos de respaldo dejarán de funcionar.
        </Text>
        <PasswordInput
          label="Contraseña actual"
          autoComplete="current-password"
          data-autofocus
          {...form.getInputProps('password')}
        />
        <TextInput
          label="Código de la aplicación o de respaldo"
          autoComplete="one-time-code"
          autoCapitalize="none"
          spellCheck={false}
          maxLength={20}
          maw={260}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          {...form.getInputProps('codigo')}
        />
        <Refusal error={refusal} onClose={() => setRefusal(null)} />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={mutation.isPending}>
            Cancelar
          </Button>
          <Button type="submit" color="red" loading={mutation.isPending}>
            Desactivar
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * Each view replaces the one whose button was pressed: the focus goes to the new view's field (or its
 * first button) instead of falling out of the dialog. The dialog itself places it when it opens.
 */
function ViewFocus({ view, children }: { view: string; children: ReactNode }) {
  const box = useRef<HTMLDivElement>(null);
  const first = useRef(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the view changes
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const target = box.current?.querySelector<HTMLElement>('[data-autofocus], input, button');
    target?.focus();
  }, [view]);
  return <div ref={box}>{children}</div>;
}

export default function SecurityPanel() {
  const [view, setView] = useState<View>({ name: 'estado' });
  return (
    <ViewFocus view={view.name}>
      <SecurityView view={view} setView={setView} />
    </ViewFocus>
  );
}

function SecurityView({ view, setView }: { view: View; setView: (view: View) => void }) {
  const { user } = useSession();
  const status = useQuery(twoFactorStatusQuery);
  const back = () => setView({ name: 'estado' });

  if (view.name === 'activar')
    return <Enrolment usuario={user.usuario} onDone={back} onCancel={back} focusCode />;
  if (view.name === 'codigos')
    return (
      <BackupCodes
        title="Códigos de respaldo nuevos"
        codes={view.codes}
        usuario={user.usuario}
        onDone={back}
      />
    );
  if (view.name === 'regenerar')
    return <RegenerateForm onCodes={(codes) => setView({ name: 'codigos', codes })} onCancel={back} />;
  if (view.name === 'desactivar') return <DisableForm onDone={back} onCancel={back} />;

  if (status.isPending) {
    return (
      <Center py="xl">
        <Spinner label="Cargando" />
      </Center>
    );
  }
  if (status.isError) {
    return (
      <Stack gap="md">
        <Alert color="red" icon={<IconAlertCircle />} radius="md" role="alert">
          {errorMessage(status.error)}
        </Alert>
        <Button variant="light" onClick={() => void status.refetch()}>
          Reintentar
        </Button>
      </Stack>
    );
  }
  return (
    <StatusCard
      status={status.data}
      onActivate={() => setView({ name: 'activar' })}
      onRegenerate={() => setView({ name: 'regenerar' })}
      onDisable={() => setView({ name: 'desactivar' })}
    />
  );
}
