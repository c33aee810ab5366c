/**
 * «Aprovisionamiento (SCIM)» of a client (issue 40 item 5, decision 0121): the SCIM base URL to give the
 * identity provider, the live token's prefix and dates, «Generar token» (the token is shown once, with a
 * copy button; generating replaces the previous one) and «Revocar». Opened from the row's menu of the
 * clients list, and by a client administrator allowed `identidad` from «Mi empresa» for its own client.
 */
import '@mantine/core/styles/Code.css';
import { Button, Code, Group, Menu, Modal, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { ClientDto } from '@portal/shared/schemas/clients';
import type { ScimTokenCreated, ScimTokenView } from '@portal/shared/schemas/scim';
import { IconKey, IconTrash, IconUsersGroup } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, useSyncExternalStore } from 'react';
import { showSuccess } from '../../../components/ui/alerts';
import { confirmAction } from '../../../components/ui/confirm';
import { CopyField } from '../../../components/ui/copy-field';
import { LoadError, LoadingRows } from '../../../components/ui/list-states';
import { Refusal } from '../../../components/ui/refusal';
import { ShownOnce } from '../../../components/ui/shown-once';
import { api, errorMessage } from '../../../lib/api';
import { formatDateTime } from '../../../lib/format';

const scimKey = (id: number) => ['admin', 'clientes', 'scim', id] as const;

function useScimToken(id: number, enabled: boolean) {
  return useQuery({
    queryKey: scimKey(id),
    queryFn: ({ signal }) => api.get<ScimTokenView>(`/api/clients/${id}/scim/token`, { signal }),
    enabled,
    staleTime: 0,
  });
}

/**
 * Which client's dialog is open: the row's menu item opens it and the one host on the page shows it (the
 * menu's dropdown closes, and unmounts, as the item is clicked).
 */
let openFor: { opened: boolean; client: ClientDto | null } = { opened: false, client: null };
const listeners = new Set<() => void>();
function setOpen(next: typeof openFor) {
  openFor = next;
  for (const listener of listeners) listener();
}
function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** «Aprovisionamiento (SCIM)» in a client row's menu. */
export function ScimItem({ client }: { client: ClientDto }) {
  return (
    <Menu.Item leftSection={<IconUsersGroup size={16} />} onClick={() => setOpen({ opened: true, client })}>
      Aprovisionamiento (SCIM)
    </Menu.Item>
  );
}

/** The dialog, once per page. */
export function ClientScimHost() {
  const state = useSyncExternalStore(subscribe, () => openFor);
  return (
    <ClientScimDialog
      opened={state.opened}
      client={state.client}
      onClose={() => setOpen({ ...openFor, opened: false })}
    />
  );
}

interface ClientScimDialogProps {
  opened: boolean;
  client: ClientDto | null;
  onClose: () => void;
}

export function ClientScimDialog({ opened, client, onClose }: ClientScimDialogProps) {
  const phone = useMediaQuery('(max-width: 48em)');
  const state = useScimToken(client?.id ?? 0, opened && client !== null);
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title="Aprovisionamiento (SCIM)"
      size="lg"
      fullScreen={phone}
      closeButtonProps={{ 'aria-label': 'Cerrar' }}
    >
      {!client ? null : state.isPending ? (
        <LoadingRows label="Cargando aprovisionamiento" rows={4} />
      ) : state.isError ? (
        <LoadError
          title="No se pudo cargar el aprovisionamiento"
          error={state.error}
          onRetry={() => void state.refetch()}
        />
      ) : (
        <ScimPanel key={client.id} client={client} view={state.data} />
      )}
    </Modal>
  );
}

function ScimPanel({ client, view }: { client: ClientDto; view: ScimTokenView }) {
  const queryClient = useQueryClient();
  const [shown, setShown] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const generate = useMutation({
    mutationFn: () => api.post<ScimTokenCreated>(`/api/clients/${client.id}/scim/token`),
    onSuccess: (created) => {
      setShown(created.token);
      void queryClient.invalidateQueries({ queryKey: scimKey(client.id) });
    },
    onError: (error) => setRefusal(errorMessage(error)),
  });
  const revoke = () =>
    confirmAction({
      title: 'Revocar el token',
      message: `El proveedor de identidad de ${client.nombre} dejará de crear, cambiar y dar de baja usuarios hasta que generes otro token.`,
      confirmLabel: 'Revocar',
      danger: true,
      onConfirm: async () => {
        await api.delete(`/api/clients/${client.id}/scim/token`);
        setShown(null);
        await queryClient.invalidateQueries({ queryKey: scimKey(client.id) });
        showSuccess('Token revocado');
      },
    });
  const onGenerate = () => {
    setRefusal(null);
    if (!view.token) {
      generate.mutate();
      return;
    }
    confirmAction({
      title: 'Generar un token nuevo',
      message:
        'El token actual deja de servir en cuanto se genera el nuevo: cámbialo también en tu proveedor.',
      confirmLabel: 'Generar',
      onConfirm: () => generate.mutateAsync(),
    });
  };

  return (
    <Stack gap="md">
      <Text size="sm">
        El proveedor de identidad de la empresa (Microsoft Entra ID, Okta, Google Workspace…) da de alta,
        modifica y da de baja a sus usuarios con SCIM 2.0. Los grupos Usuario, Autorizador y Super Autorizador
        asignan el rol; un usuario dado de baja pierde sus sesiones y sus pedidos por autorizar se retiran.
      </Text>
      <CopyField label="URL de SCIM" description="En Microsoft Entra ID: «Tenant URL»." value={view.url} />
      {shown && (
        <ShownOnce
          title="Token generado"
          value={shown}
          hint="Cópialo ahora y pégalo en tu proveedor de identidad (Secret Token): no se volverá a mostrar."
          onClose={() => setShown(null)}
        />
      )}
      {view.token ? (
        <Stack gap={4}>
          <Text size="sm">
            Token activo: <Code>{view.token.prefijo}…</Code>
          </Text>
          <Text size="sm" c="dimmed">
            Generado el {formatDateTime(view.token.creado)} ·{' '}
            {view.token.ultimo_uso
              ? `último uso el ${formatDateTime(view.token.ultimo_uso)}`
              : 'sin usar todavía'}
          </Text>
        </Stack>
      ) : (
        <Text size="sm" c="dimmed">
          Sin token: el aprovisionamiento está apagado.
        </Text>
      )}
      <Refusal error={refusal} onClose={() => setRefusal(null)} />
      <Group justify="flex-end" gap="sm">
        {view.token && (
          <Button variant="subtle" color="red" leftSection={<IconTrash size={16} />} onClick={revoke}>
            Revocar
          </Button>
        )}
        <Button leftSection={<IconKey size={16} />} loading={generate.isPending} onClick={onGenerate}>
          Generar token
        </Button>
      </Group>
    </Stack>
  );
}
