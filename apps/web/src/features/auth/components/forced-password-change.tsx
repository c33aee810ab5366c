import { Alert, Button, Stack, Text, Title } from '@mantine/core';
import { homeFor } from '@portal/shared/domain/roles';
import { MSG } from '@portal/shared/messages';
import { IconShieldLock } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { ChangePasswordForm } from '../../../components/password/change-password-form';
import { showSuccess } from '../../../components/ui/alerts';
import { fetchSession, logout, type SessionResponse, sessionKeys } from '../../../lib/auth';
import { useSession } from '../../../lib/session';

/** Shown before anything else while the password is temporary or older than six months. */
export function ForcedPasswordChange() {
  const { user } = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  const signOut = useMutation({
    mutationFn: logout,
    onSettled: async () => {
      await navigate('/login', { replace: true });
      queryClient.clear();
    },
  });

  return (
    <Stack gap="md">
      <div>
        <Title order={1} fz={26}>
          Cambia tu contraseña
        </Title>
        <Text c="dimmed" size="sm" mt={4}>
          Hola, {user.nombre}.
        </Text>
      </div>
      <Alert color="orange" icon={<IconShieldLock />} radius="md">
        {MSG.cambioPasswordRequerido}
      </Alert>
      <ChangePasswordForm
        submitLabel="Guardar y continuar"
        size="md"
        fullWidth
        onSuccess={async () => {
          showSuccess(MSG.passwordActualizadaTitulo, MSG.passwordActualizada);
          // Re-read the session (it no longer asks for a change), let every cached check know, and
          // continue to the role's home (whose guard checks the session once more).
          const home = homeFor(user.rol);
          const fresh = await queryClient
            .fetchQuery({
              queryKey: sessionKeys.at(home),
              queryFn: ({ signal }) => fetchSession(signal),
              staleTime: 0,
            })
            .catch(() => null);
          if (fresh && !fresh.user.debe_cambiar_password) {
            queryClient.setQueriesData<SessionResponse>({ queryKey: sessionKeys.all }, (old) =>
              old ? { ...old, user: { ...old.user, debe_cambiar_password: false } } : old,
            );
          }
          navigate(fresh ? home : '/login', { replace: true });
        }}
      />
      <Button variant="subtle" color="gray" onClick={() => signOut.mutate()} loading={signOut.isPending}>
        Cerrar sesión
      </Button>
    </Stack>
  );
}
