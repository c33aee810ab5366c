import { Alert, Button, type ButtonProps, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { LIST_NAME_MAX, ListCreateBody } from '@portal/shared/schemas/lists';
import { IconCircleCheck, IconListCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { errorMessage, isApiError } from '../../../lib/api';
import { applyFieldErrors, serverFieldErrors } from '../../../lib/form-errors';
import { lazyValue } from '../../../lib/lazy-value';
import { useCreateList } from '../api/lists';
import { listItemsOf } from '../lib/order-extras';

const NameOnly = lazyValue(() => ListCreateBody.pick({ nombre: true }));

interface SaveListProps {
  /** What the list keeps: product ids with their quantities (the cart's lines or an order's). */
  lines: readonly { id: number; cantidad: number }[];
  /** The name offered at first (e.g. the order's number). */
  suggestedName?: string;
}

function SaveListForm({ lines, suggestedName = '', onClose }: SaveListProps & { onClose: () => void }) {
  const create = useCreateList();
  const [saved, setSaved] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm({
    mode: 'controlled',
    initialValues: { nombre: suggestedName },
    validate: (values) => schemaResolver(NameOnly, { sync: true })(values),
    onValuesChange: () => setFailure(null),
  });

  if (saved) {
    return (
      <Stack gap="md" data-testid="lista-guardada">
        <Group gap="sm" wrap="nowrap">
          <IconCircleCheck size={28} color="var(--mantine-color-teal-6)" aria-hidden />
          <Text>
            Guardaste la lista{' '}
            <Text span fw={700}>
              {saved}
            </Text>
            .
          </Text>
        </Group>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            Cerrar
          </Button>
          <Button component={Link} to="/usuario/listas" leftSection={<IconListCheck size={16} />}>
            Ver mis listas
          </Button>
        </Group>
      </Stack>
    );
  }

  const submit = form.onSubmit((values) =>
    create.mutate(
      { nombre: values.nombre.trim(), items: listItemsOf(lines) },
      {
        onSuccess: (res) => setSaved(res.lista.nombre),
        onError: (error) => {
          // A 400 on the name goes under the field; a name already taken too; anything else below.
          const rest = applyFieldErrors(form, error);
          if ('nombre' in serverFieldErrors(error)) return;
          if (isApiError(error) && error.code === 'LIST_NAME_TAKEN') form.setFieldError('nombre', error.msg);
          else setFailure(Object.values(rest)[0] ?? errorMessage(error));
        },
      },
    ),
  );

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {lines.length === 1 ? '1 producto' : `${lines.length} productos`} con sus cantidades. Los precios se
          toman al agregarla al carrito.
        </Text>
        <TextInput
          label="Nombre de la lista"
          placeholder="Ej. Limpieza mensual"
          data-autofocus
          maxLength={LIST_NAME_MAX}
          {...form.getInputProps('nombre')}
        />
        {failure ? (
          <Alert color="red" variant="light">
            {failure}
          </Alert>
        ) : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={create.isPending}>
            Cancelar
          </Button>
          <Button type="submit" loading={create.isPending}>
            Guardar lista
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** 'Guardar como lista': asks the name and saves the lines as a new list of 'Mis listas'. */
export function SaveListButton({ lines, suggestedName, w }: SaveListProps & Pick<ButtonProps, 'w'>) {
  const [opened, setOpened] = useState(false);
  const close = () => setOpened(false);
  return (
    <>
      <Button
        variant="default"
        w={w}
        leftSection={<IconListCheck size={16} />}
        onClick={() => setOpened(true)}
        disabled={lines.length === 0}
      >
        Guardar como lista
      </Button>
      <Modal
        opened={opened}
        onClose={close}
        title="Guardar como lista"
        centered
        closeButtonProps={{ 'aria-label': 'Cerrar' }}
      >
        {opened ? <SaveListForm lines={lines} suggestedName={suggestedName} onClose={close} /> : null}
      </Modal>
    </>
  );
}
