/**
 * 'Nueva área' / 'Editar área' (decision 0123): nombre, clave, cuenta contable, the monthly budget and the
 * responsible approver — an active Autorizador or Super Autorizador of the client, found by name through
 * the users list — who decides the área's top-ups. Checked with the shared AreaBody; the server's refusals
 * go under their fields (a repeated name or clave above the buttons).
 */
import { Modal, NumberInput, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { isRol, ROLE_NAMES } from '@portal/shared/domain/roles';
import { AreaBody, type AreaDto } from '@portal/shared/schemas/areas';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { showSuccess } from '../../../components/ui/alerts';
import { DialogActions } from '../../../components/ui/dialog-actions';
import { dialogRefusal } from '../../../lib/form-errors';
import { useApprovers, useSaveArea } from './api';

interface AreaValues {
  nombre: string;
  codigo: string;
  cuenta_contable: string;
  presupuesto: number | string;
  id_responsable: string | null;
}

function initialValues(area: AreaDto | null): AreaValues {
  return {
    nombre: area?.nombre ?? '',
    codigo: area?.codigo ?? '',
    cuenta_contable: area?.cuenta_contable ?? '',
    presupuesto: area?.presupuesto ?? '',
    id_responsable: area?.responsable ? String(area.responsable.id) : null,
  };
}

/** The responsible approver: a searchable select whose options come from the server as the name is typed. */
function ResponsibleSelect({
  idCliente,
  current,
  ...input
}: {
  idCliente: number;
  current: AreaDto['responsable'];
  value?: string | null;
  onChange: (value: string | null) => void;
  error?: ReactNode;
}) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const people = useApprovers(idCliente, debounced);
  const options = (people.data ?? []).map((u) => ({
    value: String(u.id),
    label: `${u.nombre} · ${isRol(u.rol) ? ROLE_NAMES[u.rol] : `Rol ${u.rol}`}`,
  }));
  if (current && !options.some((o) => o.value === String(current.id)))
    options.unshift({ value: String(current.id), label: current.nombre });
  const chosen = options.find((o) => o.value === input.value)?.label;
  return (
    <Select
      label="Responsable"
      description="Un autorizador activo del cliente; decide las ampliaciones del área"
      placeholder="Sin responsable"
      searchable
      clearable
      nothingFoundMessage={people.isFetching ? 'Buscando…' : 'Ningún autorizador activo con ese nombre'}
      data={options}
      searchValue={search}
      // The chosen option's label is not a search: the server is asked only for what is typed.
      onSearchChange={(value) => setSearch(value === chosen ? '' : value)}
      filter={({ options: all }) => all}
      comboboxProps={{ withinPortal: true }}
      {...input}
    />
  );
}

interface AreaDialogProps {
  opened: boolean;
  onClose: () => void;
  idCliente: number;
  /** The área being edited, or null for a new one. */
  area: AreaDto | null;
}

function AreaForm({ idCliente, area, onClose }: Omit<AreaDialogProps, 'opened'>) {
  const save = useSaveArea(idCliente);
  const [refusal, setRefusal] = useState<string | null>(null);
  const form = useForm<AreaValues>({
    mode: 'controlled',
    initialValues: initialValues(area),
    validate: (values) => schemaResolver(AreaBody, { sync: true })(values),
    onValuesChange: () => setRefusal(null),
  });
  const submit = form.onSubmit((values) => {
    setRefusal(null);
    save.mutate(
      { id: area?.id ?? null, body: AreaBody.parse(values) },
      {
        onSuccess: (res) => {
          showSuccess(res.msg);
          onClose();
        },
        onError: (error) => setRefusal(dialogRefusal(form, error)),
      },
    );
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput
          label="Nombre"
          withAsterisk
          maxLength={100}
          autoComplete="off"
          data-autofocus
          {...form.getInputProps('nombre')}
        />
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <TextInput
            label="Clave"
            description="Letras, números, guiones y puntos (MANT)"
            withAsterisk
            maxLength={20}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            {...form.getInputProps('codigo')}
          />
          <TextInput
            label="Cuenta contable"
            description="Para las exportaciones a su ERP"
            maxLength={40}
            autoComplete="off"
            spellCheck={false}
            {...form.getInputProps('cuenta_contable')}
          />
        </SimpleGrid>
        <NumberInput
          label="Presupuesto mensual"
          description="Lo comparten las personas del área; se renueva cada mes (MXN)"
          withAsterisk
          min={0}
          decimalScale={2}
          fixedDecimalScale
          prefix="$"
          thousandSeparator=","
          allowNegative={false}
          inputMode="decimal"
          {...form.getInputProps('presupuesto')}
        />
        <ResponsibleSelect
          idCliente={idCliente}
          current={area?.responsable ?? null}
          {...form.getInputProps('id_responsable')}
        />
        <DialogActions
          error={refusal}
          busy={save.isPending}
          onCancel={onClose}
          confirmLabel={area ? 'Guardar cambios' : 'Crear área'}
          confirmIcon={<IconDeviceFloppy size={16} aria-hidden />}
        />
      </Stack>
    </form>
  );
}

export function AreaDialog({ opened, onClose, idCliente, area }: AreaDialogProps) {
  const phone = useMediaQuery('(max-width: 36em)');
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={area ? `Editar área ${area.nombre}` : 'Nueva área'}
      centered
      fullScreen={phone}
      size="lg"
      closeButtonProps={{ 'aria-label': 'Cerrar' }}
    >
      {/* A new form at each opening: the área's values, or empty ones. */}
      {opened ? (
        <AreaForm key={area?.id ?? 'nueva'} idCliente={idCliente} area={area} onClose={onClose} />
      ) : null}
    </Modal>
  );
}
