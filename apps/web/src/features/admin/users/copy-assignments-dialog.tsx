/**
 * 'Copiar de otro usuario…' on a user's products page (decision 0061): pick another rol-1 user of the same
 * client, choose reemplazar or agregar, read what will happen, confirm. POST
 * /api/usuarios/{id}/productos/copiar.
 */
import { Alert, Modal, Radio, Select, Stack } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { ROLES } from '@portal/shared/domain/roles';
import { MSG } from '@portal/shared/messages';
import type { CopyMode } from '@portal/shared/schemas/assignments';
import { IconInfoCircle } from '@tabler/icons-react';
import { useState } from 'react';
import { showSuccess } from '../../../components/ui/alerts';
import { DialogActions } from '../../../components/ui/dialog-actions';
import { errorMessage } from '../../../lib/api';
import { useUsersPage } from './api';
import { useCopyAssignments } from './assignments-api';

interface Target {
  id: number;
  usuario: string;
  idCliente: number;
}

/** A searchable choice of another rol-1 user of the client (server search, first page of matches). */
function BuyerSelect({
  target,
  value,
  onChange,
}: {
  target: Target;
  value: { id: number; usuario: string } | null;
  onChange: (v: { id: number; usuario: string } | null) => void;
}) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  // Only rol-1 users have products: the server filters them, so the first page holds 10 candidates.
  const query = useUsersPage(target.idCliente, 1, debounced, {
    rol: ROLES.usuario,
    estatus: null,
    orden: 'usuario_asc',
  });
  const buyers = (query.data?.usuarios ?? []).filter((u) => u.rol === ROLES.usuario && u.id !== target.id);
  const options = buyers.map((u) => ({ value: String(u.id), label: `${u.usuario} · ${u.nombre}` }));
  if (value && !options.some((o) => o.value === String(value.id))) {
    options.unshift({ value: String(value.id), label: value.usuario });
  }
  return (
    <Select
      label="Copiar los productos de"
      placeholder="Busca por usuario o nombre"
      searchable
      clearable
      searchValue={search}
      onSearchChange={setSearch}
      filter={({ options: all }) => all}
      nothingFoundMessage={query.isFetching ? 'Buscando…' : 'Ningún usuario comprador coincide'}
      data={options}
      value={value ? String(value.id) : null}
      onChange={(v) => {
        const chosen = buyers.find((u) => String(u.id) === v);
        onChange(chosen ? { id: chosen.id, usuario: chosen.usuario } : null);
      }}
      description="Solo usuarios con rol Usuario del mismo cliente."
    />
  );
}

/** What the chosen mode will do, in one sentence. */
function consequence(mode: CopyMode, source: string, target: string): string {
  return mode === 'reemplazar'
    ? `Los productos de ${target} quedarán exactamente como los de ${source}: se habilitan los que ${source} tiene habilitados, con su cantidad límite, y se deshabilitan todos los demás.`
    : `Se habilitarán para ${target} los productos que ${source} tiene habilitados y ${target} no, con la cantidad límite de ${source}. No se deshabilita nada y los productos que ${target} ya tiene conservan su cantidad límite.`;
}

export function CopyAssignmentsDialog({
  opened,
  onClose,
  target,
}: {
  opened: boolean;
  onClose: () => void;
  target: Target;
}) {
  const copy = useCopyAssignments(target.id);
  const [source, setSource] = useState<{ id: number; usuario: string } | null>(null);
  const [mode, setMode] = useState<CopyMode>('agregar');
  const [error, setError] = useState<string | null>(null);

  const close = () => {
    if (copy.isPending) return;
    setSource(null);
    setError(null);
    onClose();
  };

  const submit = () => {
    if (!source) {
      setError('Elige el usuario del que se copiarán los productos.');
      return;
    }
    setError(null);
    copy.mutate(
      { desde_usuario_id: source.id, modo: mode },
      {
        onSuccess: (res) => {
          showSuccess(MSG.actualizadoCorrectamente, res.msg);
          setSource(null);
          onClose();
        },
        onError: (err) => setError(errorMessage(err)),
      },
    );
  };

  return (
    <Modal opened={opened} onClose={close} title="Copiar productos de otro usuario" centered size="lg">
      <Stack gap="md">
        <BuyerSelect target={target} value={source} onChange={setSource} />
        <Radio.Group
          label="Cómo copiar"
          value={mode}
          onChange={(v) => setMode(v as CopyMode)}
          name="modo-copia"
        >
          <Stack gap="xs" mt={6}>
            <Radio value="agregar" label="Agregar" description="Habilita lo que le falte; no quita nada." />
            <Radio
              value="reemplazar"
              label="Reemplazar"
              description="Deja sus productos iguales a los del otro usuario."
            />
          </Stack>
        </Radio.Group>
        {source ? (
          <Alert
            color={mode === 'reemplazar' ? 'orange' : 'blue'}
            variant="light"
            icon={<IconInfoCircle size={18} />}
            data-testid="copia-consecuencia"
          >
            {consequence(mode, source.usuario, target.usuario)}
          </Alert>
        ) : null}
        <DialogActions
          error={error}
          busy={copy.isPending}
          onCancel={close}
          onConfirm={submit}
          confirmLabel={mode === 'reemplazar' ? 'Reemplazar productos' : 'Agregar productos'}
          color={mode === 'reemplazar' ? 'orange' : undefined}
          disabled={!source}
        />
      </Stack>
    </Modal>
  );
}
