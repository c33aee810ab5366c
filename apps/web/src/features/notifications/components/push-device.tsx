/**
 * "Este dispositivo" in the notification preferences (decision 0117): whether this browser receives the
 * notices chosen «En el teléfono», and the button that subscribes it or drops it. What a browser cannot do
 * (no service worker, no push, permission blocked) is said in words, never a dead button.
 */
import { Button, Group, Stack, Text } from '@mantine/core';
import { IconBell, IconBellOff } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Refusal } from '../../../components/ui/refusal';
import { errorMessage } from '../../../lib/api';
import {
  DeviceRefusal,
  type DeviceState,
  deviceState,
  subscribeThisDevice,
  unsubscribeThisDevice,
} from '../api/push';

const deviceKey = ['notificaciones', 'dispositivo'] as const;

const STATE_TEXT: Record<DeviceState, string> = {
  activo: 'Este dispositivo recibe los avisos elegidos «En el teléfono».',
  inactivo:
    'Este dispositivo todavía no recibe avisos. Actívalo para recibir aquí los elegidos «En el teléfono».',
  bloqueado:
    'Los avisos de este sitio están bloqueados en el navegador: permítelos en su configuración para recibirlos aquí.',
  'no-disponible':
    'Este navegador no puede recibir avisos del portal. En el teléfono, instala el portal desde el menú del navegador («Agregar a la pantalla de inicio»).',
};

export function PushDevice() {
  const queryClient = useQueryClient();
  const state = useQuery({ queryKey: deviceKey, queryFn: deviceState, staleTime: 0 });
  const change = useMutation({
    mutationFn: (on: boolean) => (on ? subscribeThisDevice() : unsubscribeThisDevice()),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: deviceKey }),
  });
  const current = state.data;
  return (
    <Stack gap={6}>
      <Text size="sm" fw={600}>
        Este dispositivo
      </Text>
      <Text size="sm" c="dimmed" aria-live="polite">
        {current ? STATE_TEXT[current] : 'Revisando este dispositivo…'}
      </Text>
      {current === 'activo' || current === 'inactivo' ? (
        <Group>
          <Button
            variant="default"
            size="xs"
            leftSection={current === 'activo' ? <IconBellOff size={16} /> : <IconBell size={16} />}
            loading={change.isPending}
            onClick={() => change.mutate(current === 'inactivo')}
          >
            {current === 'activo' ? 'Dejar de recibir avisos aquí' : 'Recibir avisos en este dispositivo'}
          </Button>
        </Group>
      ) : null}
      <Refusal
        error={
          change.error instanceof DeviceRefusal
            ? change.error.message
            : change.error
              ? errorMessage(change.error)
              : null
        }
        onClose={() => change.reset()}
      />
    </Stack>
  );
}
