/**
 * The users list's tools: the filters above it (search, role, status, and the sort where the table's headers
 * are not shown), its empty state, and the bar of the checked users — how many, 'Quitar selección',
 * 'Asignar productos…', 'Reenviar acceso' and 'Desactivar' with their confirmations (decision 0070).
 */
import { Box, Button, Group, Select, Stack, Text } from '@mantine/core';
import { ROLES } from '@portal/shared/domain/roles';
import { type UserDto, type UserStatusFilter, UsersQuery, UsersSort } from '@portal/shared/schemas/users';
import { IconListCheck, IconMailForward, IconUserOff, IconUsers } from '@tabler/icons-react';
import { useState } from 'react';
import { showSuccess } from '../../../components/ui/alerts';
import { confirmAction } from '../../../components/ui/confirm';
import { ListSearch } from '../../../components/ui/list-search';
import { ListEmpty } from '../../../components/ui/list-states';
import { Refusal } from '../../../components/ui/refusal';
import { errorMessage } from '../../../lib/api';
import { lazyValue } from '../../../lib/lazy-value';
import type { ListParams, ListValues } from '../../../lib/list-params';
import type { RowSelection } from '../../../lib/row-selection';
import { ROLE_FILTERS } from '../scope';
import { useDeactivateUsers, useResendAccess } from './api';
import { resendAccessDetail } from './resend-access';

const STATUS_FILTERS: { value: UserStatusFilter | 'todos'; label: string }[] = [
  { value: 'todos', label: 'Activos e inactivos' },
  { value: 'activo', label: 'Solo activos' },
  { value: 'inactivo', label: 'Solo inactivos' },
];

/** The sorts in words, for the select that replaces the column headers on narrow screens. */
const SORT_LABELS: Record<UsersSort, string> = {
  usuario_asc: 'Usuario (A–Z)',
  usuario_desc: 'Usuario (Z–A)',
  nombre_asc: 'Nombre (A–Z)',
  nombre_desc: 'Nombre (Z–A)',
  ultimo_acceso_desc: 'Último acceso: más reciente',
  ultimo_acceso_asc: 'Último acceso: más antiguo',
};

/** The list's parameters in the URL (`?page=&q=&rol=&estatus=&orden=`; the client is `?cliente=`). */
export const UsersListQuery = lazyValue(() => UsersQuery.omit({ id_cliente: true }));
export type UsersListParams = ListParams<ListValues<typeof UsersListQuery>>;

/** Search, role, status and (below lg) the sort, as the URL holds them; `q` is the search as typed. */
export function UsersFilterBar({
  list,
  q,
  setQ,
}: {
  list: UsersListParams;
  q: string;
  setQ: (value: string) => void;
}) {
  const { rol, estatus, orden } = list.values;
  return (
    <Group align="flex-end" gap="sm">
      <ListSearch label="Buscar usuario" placeholder="Usuario, nombre o correo" value={q} onChange={setQ} />
      <Select
        label="Filtrar por rol"
        data={ROLE_FILTERS}
        value={rol ? String(rol) : 'todos'}
        onChange={(v) => list.set({ rol: v && v !== 'todos' ? Number(v) : null })}
        allowDeselect={false}
        w={{ base: '100%', xs: 200 }}
      />
      <Select
        label="Filtrar por estado"
        data={STATUS_FILTERS}
        value={estatus ?? 'todos'}
        onChange={(v) => list.set({ estatus: v && v !== 'todos' ? (v as UserStatusFilter) : null })}
        allowDeselect={false}
        w={{ base: '100%', xs: 200 }}
      />
      <Box hiddenFrom="lg" w={{ base: '100%', xs: 240 }}>
        <Select
          label="Ordenar por"
          data={UsersSort.values.map((value) => ({ value, label: SORT_LABELS[value] }))}
          value={orden}
          onChange={(v) => list.set({ orden: UsersSort.read(v) })}
          allowDeselect={false}
        />
      </Box>
    </Group>
  );
}

/**
 * No users: none match the search or the filters, or the client has none yet (then how to add them: the
 * form when the scope `creates` accounts, a file too when it `imports` them).
 */
export function UsersEmpty({
  debouncedQ,
  filtered,
  creates,
  imports,
}: {
  debouncedQ: string;
  filtered: boolean;
  creates: boolean;
  imports: boolean;
}) {
  return (
    <ListEmpty
      icon={<IconUsers size={28} stroke={1.6} />}
      title={debouncedQ || filtered ? 'No encontramos usuarios' : 'Este cliente aún no tiene usuarios'}
      description={
        debouncedQ ? (
          `Ningún usuario coincide con “${debouncedQ}”.`
        ) : filtered ? (
          'Ningún usuario de este cliente coincide con los filtros.'
        ) : creates ? (
          <>
            Agrega el primero con <b>Agregar nuevo usuario</b>
            {imports ? ' o cárgalos desde un archivo' : ''}.
          </>
        ) : undefined
      }
    />
  );
}

/**
 * The checked users (kept across pages, by id) and what can be done with them: 'Asignar productos…' takes
 * the rol-1 ones (`onAssign` opens the dialog; without it, no such button), 'Reenviar acceso' all,
 * 'Desactivar' the active ones (those two only where the scope `manages` accounts).
 */
export function UsersBulkBar({
  selection,
  onAssign,
  manages = true,
}: {
  selection: RowSelection<UserDto>;
  onAssign?: () => void;
  /** The accounts may be changed (a client administrator without `usuarios` only assigns products). */
  manages?: boolean;
}) {
  const deactivate = useDeactivateUsers();
  const resend = useResendAccess();
  const checked = selection.selected;
  const buyers = [...checked.values()].filter((u) => u.rol === ROLES.usuario);
  const activeChecked = [...checked.values()].filter((u) => u.activo).length;
  // The server counts the open sessions first (a preview, nothing changes), so the confirmation says
  // exactly what will happen; a refusal (another client's user…) shows next to the button, before anything
  // is asked (decision 0070).
  const [bulkRefusal, setBulkRefusal] = useState<string | null>(null);
  const onDeactivate = () => {
    const ids = selection.ids;
    setBulkRefusal(null);
    deactivate.mutate(
      { ids, preview: true },
      {
        onError: (error) => setBulkRefusal(errorMessage(error)),
        onSuccess: (preview) =>
          confirmAction({
            message: (
              <Stack gap="xs">
                <Text>{preview.msg}</Text>
                <Text size="sm" c="dimmed">
                  No podrán iniciar sesión hasta que alguien los active de nuevo.
                  {preview.ya_inactivos > 0
                    ? ` ${preview.ya_inactivos} de los seleccionados ya ${preview.ya_inactivos === 1 ? 'estaba inactivo' : 'estaban inactivos'}.`
                    : ''}
                </Text>
              </Stack>
            ),
            confirmLabel:
              preview.desactivados === 1
                ? 'Desactivar 1 usuario'
                : `Desactivar ${preview.desactivados} usuarios`,
            danger: true,
            onConfirm: async () => {
              const res = await deactivate.mutateAsync({ ids, preview: false });
              showSuccess(res.msg);
              // The selection stays (now inactive) for the next action; 'Quitar selección' clears it.
              selection.update((u) => (ids.includes(u.id) ? { ...u, activo: false } : u));
            },
          }),
      },
    );
  };

  // "Reenviar acceso" (decision 0097): a fresh welcome link to each checked user without a password.
  const onResend = () => {
    const ids = selection.ids;
    setBulkRefusal(null);
    confirmAction({
      message: `Se enviará un enlace nuevo para establecer la contraseña a ${
        ids.length === 1 ? 'el usuario seleccionado' : `los ${ids.length} usuarios seleccionados`
      } que aún no la tienen; los enlaces anteriores dejarán de servir.`,
      confirmLabel: 'Reenviar acceso',
      onConfirm: async () => {
        const res = await resend.mutateAsync(ids);
        showSuccess(res.msg, resendAccessDetail(res));
      },
    });
  };

  return (
    <>
      <Group justify="space-between" gap="xs">
        <Text size="sm" c="dimmed" aria-live="polite">
          {checked.size === 0
            ? !manages
              ? 'Marca usuarios para asignarles productos.'
              : onAssign
                ? 'Marca usuarios para asignarles productos, reenviarles el acceso o desactivarlos.'
                : 'Marca usuarios para reenviarles el acceso o desactivarlos.'
            : checked.size === 1
              ? '1 usuario seleccionado'
              : `${checked.size} usuarios seleccionados`}
        </Text>
        <Group gap="xs">
          {checked.size > 0 ? (
            <Button variant="subtle" color="gray" onClick={selection.clear}>
              Quitar selección
            </Button>
          ) : null}
          {onAssign ? (
            <Button
              variant="light"
              leftSection={<IconListCheck size={18} aria-hidden />}
              disabled={buyers.length === 0}
              onClick={onAssign}
            >
              {buyers.length > 0 ? `Asignar productos… (${buyers.length})` : 'Asignar productos…'}
            </Button>
          ) : null}
          {manages ? (
            <>
              <Button
                variant="light"
                leftSection={<IconMailForward size={18} aria-hidden />}
                disabled={checked.size === 0}
                loading={resend.isPending}
                onClick={onResend}
              >
                {checked.size > 0 ? `Reenviar acceso (${checked.size})` : 'Reenviar acceso'}
              </Button>
              <Button
                variant="light"
                color="red"
                leftSection={<IconUserOff size={18} aria-hidden />}
                disabled={activeChecked === 0}
                loading={deactivate.isPending}
                onClick={onDeactivate}
              >
                {activeChecked > 0 ? `Desactivar (${activeChecked})` : 'Desactivar'}
              </Button>
            </>
          ) : null}
        </Group>
      </Group>
      <Refusal error={bulkRefusal} onClose={() => setBulkRefusal(null)} />
    </>
  );
}
