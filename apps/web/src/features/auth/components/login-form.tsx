import { Alert, Anchor, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { ssoRefusalText } from '@portal/shared/domain/sso';
import { MSG } from '@portal/shared/messages';
import type { SessionResponse } from '@portal/shared/schemas/auth';
import { IconCircleCheck, IconInfoCircle, IconLock, IconUser } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { Refusal } from '../../../components/ui/refusal';
import { errorMessage, isApiError } from '../../../lib/api';
import { landingFor, pathnameOf, returnParam, sessionKeys } from '../../../lib/auth';
import { login } from '../api/login';
import { noticeFrom } from './auth-notice';
import { AuthSubmit } from './auth-submit';

/**
 * The two parts of the screen few sign-ins need, loaded when they are: the second step (asked for at each
 * submit, with the answer that may call for it) and «Entrar con tu cuenta de la empresa» (once «Usuario»
 * holds an @; decision 0120). The screen's first load stays within its budget (scripts/check-bundle.mjs).
 */
const loadSecondStep = () => import('./second-step-form');
const SecondStepForm = lazy(() => loadSecondStep().then((m) => ({ default: m.SecondStepForm })));
const SsoOffer = lazy(() => import('./sso-offer'));

export function LoginForm() {
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const notice = noticeFrom(location.state);
  // The password was right and the account has two-factor sign-in: its second step is due.
  const [secondStep, setSecondStep] = useState(false);
  // The server's refusal of the last try, at the top of the form; first, why a sign-in with the company's
  // account came back here (`?sso=<code>`).
  const [refusal, setRefusal] = useState<string | null>(() => ssoRefusalText(location.search));
  // The password was refused because the user's company signs in with its own account only.
  const [ssoRequired, setSsoRequired] = useState(false);
  // A field was left empty: the spec's notice instead of a refusal.
  const [missing, setMissing] = useState(false);

  const form = useForm({
    mode: 'controlled',
    initialValues: { usuario: '', password: '' },
  });

  /**
   * Signed in: the forced screens first (password change, enrolment), else the page of `?volver=` when the
   * role may open it, else the role's home.
   */
  const enter = (session: SessionResponse) => {
    queryClient.removeQueries({ queryKey: sessionKeys.all });
    const target = landingFor(session.user, returnParam(location.search));
    queryClient.setQueryData(sessionKeys.at(pathnameOf(target)), session);
    navigate(target, { replace: true });
  };

  const mutation = useMutation({
    mutationFn: login,
    onSuccess: (result) => {
      if (result.status === '2fa_requerido') {
        setSecondStep(true);
        return;
      }
      enter(result);
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
      setSsoRequired(isApiError(error) && error.code === 'SSO_REQUIRED');
      // 401, 403 and 429 carry the server's message; without one, the spec's 'Credenciales incorrectas'.
      setRefusal(errorMessage(error, MSG.credencialesIncorrectas));
    },
  });

  const submit = form.onSubmit((values) => {
    const usuario = values.usuario.trim();
    const password = values.password;
    setRefusal(null);
    setMissing(false);
    if (!usuario || !password) {
      // The spec's 'Espera un momento' / 'Debes llenar todos los datos' at the top of the form; the empty
      // fields are outlined (decision 0098).
      form.setErrors({ usuario: !usuario, password: !password });
      setMissing(true);
      return;
    }
    loadSecondStep().catch(() => undefined);
    mutation.mutate({ usuario, password });
  });

  const usuario = form.values.usuario.trim();

  if (secondStep) {
    return (
      <Suspense fallback={null}>
        <SecondStepForm
          onSuccess={enter}
          onCancel={() => {
            form.setFieldValue('password', '');
            setSecondStep(false);
          }}
        />
      </Suspense>
    );
  }

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
        <Refusal
          error={missing ? MSG.llenarTodosLosDatos : refusal}
          title={missing ? MSG.esperaUnMomento : undefined}
          color={missing ? 'orange' : 'red'}
          onClose={() => {
            setMissing(false);
            setRefusal(null);
          }}
        />
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
        <AuthSubmit pending={mutation.isPending} label="Acceso" mt="xs" />
        {ssoRequired || usuario.includes('@') ? (
          <Suspense fallback={null}>
            <SsoOffer correo={usuario} required={ssoRequired} />
          </Suspense>
        ) : null}
        <Anchor component={Link} to="/recuperar-acceso" size="sm" ta="center">
          Recuperar mi contraseña
        </Anchor>
      </Stack>
    </form>
  );
}
