/**
 * A buyer's ship-to addresses in the user's drawer (decision 0126): its default among the client's active
 * addresses (none: its orders go to the profile's address) and the others it may choose in the cart, saved
 * on their own (PUT /api/usuarios/{id}/direcciones). Read-only without the client's `usuarios`.
 */
import '@mantine/core/styles/Pill.css';
import '@mantine/core/styles/PillsInput.css';
import { Button, Group, MultiSelect, Paper, Select, Stack, Text } from '@mantine/core';
import { IconDeviceFloppy, IconMapPin } from '@tabler/icons-react';
import { useState } from 'react';
import { showSuccess } from '../../../components/ui/alerts';
import { Refusal } from '../../../components/ui/refusal';
import { errorMessage } from '../../../lib/api';
import { useAddresses, useSaveUserAddresses, useUserAddresses } from './api';

interface UserAddressesProps {
  userId: number;
  idCliente: number;
  readOnly: boolean;
}

export function UserAddresses(props: UserAddressesProps) {
  const current = useUserAddresses(props.userId);
  const book = useAddresses(props.idCliente, 1, 200, false);
  if (!current.data || !book.data) return null;
  const initial = {
    id: current.data.id_direccion,
    others: current.data.direcciones.filter((d) => !d.predeterminada).map((d) => String(d.id)),
  };
  const options = book.data.direcciones.map((d) => ({ value: String(d.id), label: d.nombre }));
  return <UserAddressesForm key={JSON.stringify(initial)} {...props} initial={initial} options={options} />;
}

function UserAddressesForm({
  userId,
  readOnly,
  initial,
  options,
}: UserAddressesProps & {
  initial: { id: number | null; others: string[] };
  options: { value: string; label: string }[];
}) {
  const [predeterminada, setPredeterminada] = useState<string | null>(initial.id ? String(initial.id) : null);
  const [others, setOthers] = useState<string[]>(initial.others);
  const [refusal, setRefusal] = useState<string | null>(null);
  const save = useSaveUserAddresses(userId);
  const submit = () =>
    save.mutate(
      {
        id_direccion: predeterminada ? Number(predeterminada) : null,
        direcciones: others.filter((o) => o !== predeterminada).map(Number),
      },
      {
        onSuccess: (res) => {
          setRefusal(null);
          showSuccess(res.msg);
        },
        onError: (error) => setRefusal(errorMessage(error)),
      },
    );
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="usuario-direcciones">
      <Stack gap="sm">
        <Group gap={6} wrap="nowrap">
          <IconMapPin size={18} color="var(--mantine-color-indigo-6)" aria-hidden />
          <Text fw={700} id="usuario-direcciones">
            Direcciones de entrega
          </Text>
        </Group>
        {options.length === 0 ? (
          <Text size="sm" c="dimmed">
            El cliente aún no tiene direcciones de entrega: sus pedidos se entregan en la dirección del
            perfil.
          </Text>
        ) : (
          <>
            <Select
              label="Dirección predeterminada"
              description="A donde van sus pedidos si no elige otra; sin ella, a la dirección del perfil"
              placeholder="Dirección del perfil"
              clearable
              data={options}
              value={predeterminada}
              onChange={setPredeterminada}
              disabled={readOnly}
              comboboxProps={{ withinPortal: true }}
            />
            <MultiSelect
              label="Otras direcciones que puede elegir en el carrito"
              placeholder={others.length ? undefined : 'Ninguna'}
              data={options.filter((o) => o.value !== predeterminada)}
              value={others.filter((o) => o !== predeterminada)}
              onChange={setOthers}
              disabled={readOnly}
              searchable
              comboboxProps={{ withinPortal: true }}
            />
            <Refusal error={refusal} onClose={() => setRefusal(null)} />
            {readOnly ? null : (
              <Group justify="flex-end">
                <Button
                  leftSection={<IconDeviceFloppy size={16} aria-hidden />}
                  loading={save.isPending}
                  onClick={submit}
                >
                  Guardar direcciones
                </Button>
              </Group>
            )}
          </>
        )}
      </Stack>
    </Paper>
  );
}
