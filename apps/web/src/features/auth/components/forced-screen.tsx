import { Alert, Button, Stack, Text, Title } from '@mantine/core';
import { IconShieldLock } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useSession } from '../../../lib/session';
import { endSession } from '../api/sign-out';

interface ForcedScreenProps {
  title: string;
  /** Why this comes before anything else. */
  notice: string;
  children: ReactNode;
}

/**
 * The frame of a screen that comes before anything else (password change, two-factor enrolment): the
 * greeting, the reason, the task and 'Cerrar sesión'.
 */
export function ForcedScreen({ title, notice, children }: ForcedScreenProps) {
  const { user } = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const signOut = useMutation({
    mutationFn: endSession,
    onSettled: async () => {
      await navigate('/login', { replace: true });
      queryClient.clear();
    },
  });

  return (
    <Stack gap="md">
      <div>
        <Title order={1} fz={26}>
          {title}
        </Title>
        <Text c="dimmed" size="sm" mt={4}>
          Hola, {user.nombre}.
        </Text>
      </div>
      <Alert color="orange" icon={<IconShieldLock />} radius="md">
        {notice}
      </Alert>
      {children}
      <Button variant="subtle" color="gray" onClick={() => signOut.mutate()} loading={signOut.isPending}>
        Cerrar sesión
      </Button>
    </Stack>
  );
}
