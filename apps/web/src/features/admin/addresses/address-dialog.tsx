/**
 * 'Nueva dirección' / 'Editar dirección' (decision 0126): the label, the street with its numbers, colonia,
 * municipio, city, state and C.P. (5 digits), who receives with a 10-digit phone, and the delivery window.
 * Checked with the shared AddressBody; the server's refusals go under their fields (a repeated label above
 * the buttons). Saving an inactive one reactivates it.
 */
import { Modal, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMediaQuery } from '@mantine/hooks';
import { AddressBody, type AddressDto } from '@portal/shared/schemas/addresses';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { useState } from 'react';
import { showSuccess } from '../../../components/ui/alerts';
import { DialogActions } from '../../../components/ui/dialog-actions';
import { dialogRefusal } from '../../../lib/form-errors';
import { useSaveAddress } from './api';

const FIELDS = [
  'nombre',
  'calle',
  'numero_exterior',
  'numero_interior',
  'colonia',
  'municipio',
  'ciudad',
  'estado',
  'cp',
  'contacto',
  'telefono',
  'horario',
] as const;
type AddressValues = Record<(typeof FIELDS)[number], string>;

const initialValues = (address: AddressDto | null): AddressValues =>
  Object.fromEntries(FIELDS.map((f) => [f, address?.[f] ?? ''])) as AddressValues;

interface AddressDialogProps {
  opened: boolean;
  onClose: () => void;
  idCliente: number;
  /** The address being edited, or null for a new one. */
  address: AddressDto | null;
}

function AddressForm({ idCliente, address, onClose }: Omit<AddressDialogProps, 'opened'>) {
  const save = useSaveAddress(idCliente);
  const [refusal, setRefusal] = useState<string | null>(null);
  const form = useForm<AddressValues>({
    mode: 'controlled',
    initialValues: initialValues(address),
    validate: (values) => schemaResolver(AddressBody, { sync: true })(values),
    onValuesChange: () => setRefusal(null),
  });
  const submit = form.onSubmit((values) => {
    setRefusal(null);
    save.mutate(
      { id: address?.id ?? null, body: AddressBody.parse(values) },
      {
        onSuccess: (res) => {
          showSuccess(res.msg);
          onClose();
        },
        onError: (error) => setRefusal(dialogRefusal(form, error)),
      },
    );
  });
  const input = (field: (typeof FIELDS)[number]) => ({ autoComplete: 'off', ...form.getInputProps(field) });
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput
          label="Nombre"
          description="Cómo la verán los compradores (Almacén Norte)"
          withAsterisk
          maxLength={80}
          data-autofocus
          {...input('nombre')}
        />
        <TextInput label="Calle" withAsterisk maxLength={150} {...input('calle')} />
        <SimpleGrid cols={2} spacing="sm">
          <TextInput label="Núm. exterior" withAsterisk maxLength={20} {...input('numero_exterior')} />
          <TextInput label="Núm. interior" maxLength={20} {...input('numero_interior')} />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <TextInput label="Colonia" withAsterisk maxLength={100} {...input('colonia')} />
          <TextInput label="Municipio o alcaldía" withAsterisk maxLength={100} {...input('municipio')} />
          <TextInput label="Ciudad" withAsterisk maxLength={100} {...input('ciudad')} />
          <TextInput label="Estado" withAsterisk maxLength={60} {...input('estado')} />
        </SimpleGrid>
        <TextInput
          label="Código postal"
          withAsterisk
          maxLength={5}
          inputMode="numeric"
          w={{ base: '100%', xs: 160 }}
          {...input('cp')}
        />
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <TextInput label="Quién recibe" withAsterisk maxLength={100} {...input('contacto')} />
          <TextInput
            label="Teléfono"
            description="10 dígitos"
            withAsterisk
            maxLength={20}
            inputMode="tel"
            {...input('telefono')}
          />
        </SimpleGrid>
        <TextInput
          label="Horario de entrega"
          description="Por ejemplo: L-V 9:00 a 14:00"
          maxLength={120}
          {...input('horario')}
        />
        <DialogActions
          error={refusal}
          busy={save.isPending}
          onCancel={onClose}
          confirmLabel={address ? 'Guardar cambios' : 'Crear dirección'}
          confirmIcon={<IconDeviceFloppy size={16} aria-hidden />}
        />
      </Stack>
    </form>
  );
}

export function AddressDialog({ opened, onClose, idCliente, address }: AddressDialogProps) {
  const phone = useMediaQuery('(max-width: 36em)');
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={address ? `Editar dirección ${address.nombre}` : 'Nueva dirección de entrega'}
      centered
      fullScreen={phone}
      size="lg"
      closeButtonProps={{ 'aria-label': 'Cerrar' }}
    >
      {opened ? (
        <AddressForm key={address?.id ?? 'nueva'} idCliente={idCliente} address={address} onClose={onClose} />
      ) : null}
    </Modal>
  );
}
