/**
 * «Receptor de mercancía» in the user's drawer (decision 0130), for roles 1–3: the flag and the client's
 * addresses it receives for (none chosen: every address), saved on their own (PUT /api/usuarios/{id}/receptor).
 * Read-only without the client's `usuarios`.
 */
import '@mantine/core/styles/Pill.css';
import '@mantine/core/styles/PillsInput.css';
import { Button, Group, MultiSelect, Paper, Stack, Switch, Text } from '@mantine/core';
import { IconDeviceFloppy, IconPackageImport } from '@tabler/icons-react';
import { useState } from 'react';
import { showSuccess } from '../../../components/ui/alerts';
import { Refusal } from '../../../components/ui/refusal';
import { errorMessage } from '../../../lib/api';
import { useAddresses, useSaveUserReceiver, useUserReceiver } from './api';

interface UserReceiverProps {
  userId: number;
  idCliente: number;
  readOnly: boolean;
}

export function UserReceiver(props: UserReceiverProps) {
  const current = useUserReceiver(props.userId);
  const book = useAddresses(props.idCliente, 1, 200, false);
  if (!current.data || !book.data) return null;
  const initial = { receptor: current.data.receptor, ids: current.data.direcciones.map((d) => String(d.id)) };
  // An inactive address it still receives for stays listed, so saving keeps it.
  const options = [
    ...book.data.direcciones.map((d) => ({ value: String(d.id), label: d.nombre })),
    ...current.data.direcciones
      .filter((d) => !d.activa)
      .map((d) => ({ value: String(d.id), label: `${d.nombre} (desactivada)` })),
  ];
  return <UserReceiverForm key={JSON.stringify(initial)} {...props} initial={initial} options={options} />;
}

function UserReceiverForm({
  userId,
  readOnly,
  initial,
  options,
}: UserReceiverProps & {
  initial: { receptor: boolean; ids: string[] };
  options: { value: string; label: string }[];
}) {
  const [receptor, setReceptor] = useState(initial.receptor);
  const [ids, setIds] = useState<string[]>(initial.ids);
  const [refusal, setRefusal] = useState<string | null>(null);
  const save = useSaveUserReceiver(userId);
  const submit = () =>
    save.mutate(
      { receptor, direcciones: receptor ? ids.map(Number) : [] },
      {
        onSuccess: (res) => {
          setRefusal(null);
          showSuccess(res.msg);
        },
        onError: (error) => setRefusal(errorMessage(error)),
      },
    );
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="usuario-receptor">
      <Stack gap="sm">
        <Group gap={6} wrap="nowrap">
          <IconPackageImport size={18} color="var(--mantine-color-teal-7)" aria-hidden />
          <Text fw={700} id="usuario-receptor">
            Receptor de mercancía
          </Text>
        </Group>
        <Switch
          label="Recibe los envíos del cliente"
          description="Verá «Recepción» en su menú para confirmar lo que llega, aunque no sea quien compró."
          checked={receptor}
          onChange={(e) => setReceptor(e.currentTarget.checked)}
          disabled={readOnly}
        />
        {receptor ? (
          <MultiSelect
            label="Direcciones que recibe"
            description="Sin elegir ninguna, recibe en todas las direcciones del cliente."
            placeholder={ids.length ? undefined : 'Todas las direcciones'}
            data={options}
            value={ids}
            onChange={setIds}
            disabled={readOnly}
            searchable
            comboboxProps={{ withinPortal: true }}
          />
        ) : null}
        <Refusal error={refusal} onClose={() => setRefusal(null)} />
        {readOnly ? null : (
          <Group justify="flex-end">
            <Button
              leftSection={<IconDeviceFloppy size={16} aria-hidden />}
              loading={save.isPending}
              onClick={submit}
              color="teal"
            >
              Guardar receptor
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
