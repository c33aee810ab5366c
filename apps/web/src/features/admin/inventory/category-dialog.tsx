/** 'Nueva categoria' / edit: nombre (required, 'El nombre es obligatorio') and an icon of the catalogue. */
import { Group, Modal, Select, Stack, TextInput, ThemeIcon } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { DEFAULT_ICONO, ICONO_ETIQUETAS, ICONOS, type Icono } from '@portal/shared/domain/icons';
import { MSG } from '@portal/shared/messages';
import type { AdminCategoryDto } from '@portal/shared/schemas/inventory';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { showSuccess } from '../../../components/ui/alerts';
import { CategoryIcon } from '../../../components/ui/category-icon';
import { DialogActions } from '../../../components/ui/dialog-actions';
import { serverFieldErrors } from '../../../lib/form-errors';
import { adminKeys } from '../api/keys';
import { saveCategory } from './api';
import { processFailure } from './errors';

/** A stored or chosen icon name; one the portal no longer offers reads as the default. */
const iconoOf = (name: string | null | undefined): Icono =>
  (ICONOS as readonly string[]).includes(name ?? '') ? (name as Icono) : DEFAULT_ICONO;

const ICON_OPTIONS = ICONOS.map((nombre) => ({ value: nombre, label: ICONO_ETIQUETAS[nombre] }));

interface CategoryDialogProps {
  opened: boolean;
  onClose: () => void;
  idCliente: number;
  /** The category being edited, or null for a new one. */
  category: AdminCategoryDto | null;
}

export function CategoryDialog({ opened, onClose, idCliente, category }: CategoryDialogProps) {
  const phone = useMediaQuery('(max-width: 36em)');
  const queryClient = useQueryClient();
  const [nombre, setNombre] = useState('');
  const [icono, setIcono] = useState<Icono>(DEFAULT_ICONO);
  const [error, setError] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);

  useEffect(() => {
    if (!opened) return;
    setNombre(category?.nombre ?? '');
    setIcono(iconoOf(category?.icono));
    setError(null);
    setRefusal(null);
  }, [opened, category]);

  const mutation = useMutation({
    mutationFn: () =>
      saveCategory({ id: category?.id ?? 0, nombre: nombre.trim(), icono, id_cliente: idCliente }),
    onSuccess: (res) => {
      showSuccess(res.msg || (category ? MSG.modificadoCorrectamente : MSG.creadoCorrectamente));
      // The prefix of the client's categories too, which the user form's category budgets list.
      void queryClient.invalidateQueries({ queryKey: adminKeys.inventory(idCliente) });
      onClose();
    },
    onError: (err) => {
      const fields = serverFieldErrors(err);
      if (fields.nombre) setError(fields.nombre);
      else setRefusal(processFailure(err));
    },
  });

  function submit(event: React.FormEvent) {
    event.preventDefault();
    if (!nombre.trim()) {
      setError(MSG.nombreObligatorio);
      return;
    }
    mutation.mutate();
  }

  return (
    <Modal
      opened={opened}
      onClose={() => !mutation.isPending && onClose()}
      title={category ? 'Editar categoría' : 'Nueva categoria'}
      centered
      fullScreen={phone}
      size="md"
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <TextInput
            label="Nombre"
            withAsterisk
            maxLength={100}
            value={nombre}
            onChange={(e) => {
              setNombre(e.currentTarget.value);
              if (e.currentTarget.value.trim()) setError(null);
            }}
            error={error}
            data-autofocus
          />
          <Select
            label="Icono"
            description="Se muestra junto al nombre en el menú de los usuarios."
            data={ICON_OPTIONS}
            value={icono}
            onChange={(v) => setIcono(iconoOf(v))}
            allowDeselect={false}
            searchable
            nothingFoundMessage="Sin coincidencias"
            maxDropdownHeight={260}
            leftSection={<CategoryIcon name={icono} size={18} />}
            renderOption={({ option }) => (
              <Group gap="sm" wrap="nowrap">
                <ThemeIcon variant="light" size="md" radius="md" aria-hidden>
                  <CategoryIcon name={option.value as Icono} size={16} />
                </ThemeIcon>
                {option.label}
              </Group>
            )}
          />
          <DialogActions
            error={refusal}
            busy={mutation.isPending}
            onCancel={onClose}
            confirmLabel={category ? 'Guardar cambios' : 'Crear categoría'}
          />
        </Stack>
      </form>
    </Modal>
  );
}
