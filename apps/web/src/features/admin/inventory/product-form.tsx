/**
 * The product form, opened on demand in the inventory's drawer ('Nuevo producto', or 'Editar' on a row):
 * add mode when id is 0, edit mode otherwise; every field is
 * disabled until a client is chosen; saving needs a client and a category; 'Cancelar' resets (and leaves
 * edit mode). Sent as multipart with the image.
 */
import {
  Box,
  Button,
  Group,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { schemaResolver, type UseFormReturnType, useForm } from '@mantine/form';
import { MSG } from '@portal/shared/messages';
import {
  type AdminCategoryDto,
  type AdminProductDto,
  ProductForm as ProductBody,
} from '@portal/shared/schemas/inventory';
import { IconDeviceFloppy, IconPlus } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type Ref, useEffect, useState } from 'react';
import { showSuccess } from '../../../components/ui/alerts';
import { CategoryIcon } from '../../../components/ui/category-icon';
import { type FileValue, storedFile } from '../../../components/ui/file-field';
import { ImageField } from '../../../components/ui/image-field';
import { Refusal } from '../../../components/ui/refusal';
import { applyFieldErrors } from '../../../lib/form-errors';
import { formatCount } from '../../../lib/format';
import { adminKeys } from '../api/keys';
import { saveProduct } from './api';
import { processFailure } from './errors';

interface Values {
  clave_interna: string;
  clave_cliente: string;
  nombre: string;
  descripcion: string;
  unidad_de_medida: string;
  precio: number | string;
  id_categoria: string | null;
  activo: boolean;
  impuesto: boolean;
  imagen: FileValue;
  /** Units on hand and lead time in days (decision 0124): blank = unknown / none. */
  existencia: number | string;
  dias_entrega: number | string;
}

const BLANK: Values = {
  clave_interna: '',
  clave_cliente: '',
  nombre: '',
  descripcion: '',
  unidad_de_medida: '',
  precio: '',
  id_categoria: null,
  activo: true,
  impuesto: true,
  imagen: storedFile(),
  existencia: '',
  dias_entrega: '',
};

function valuesOf(p: AdminProductDto): Values {
  return {
    clave_interna: p.clave_interna,
    clave_cliente: p.clave_cliente,
    nombre: p.nombre,
    descripcion: p.descripcion,
    unidad_de_medida: p.unidad_de_medida,
    precio: p.precio,
    id_categoria: String(p.id_categoria),
    activo: p.activo,
    impuesto: p.impuesto,
    imagen: storedFile(p.imagen),
    existencia: p.existencia ?? '',
    dias_entrega: p.dias_entrega ?? '',
  };
}

/** The form's values as the product's multipart fields, before the schema reads them. */
function toBody({ imagen, ...values }: Values, id: number, idCliente: number | null) {
  return {
    ...values,
    id,
    id_cliente: idCliente ?? undefined,
    id_categoria: values.id_categoria ?? undefined,
  };
}

/** Stock and lead time (decision 0124): blank = unknown / none; the units approved orders hold are named. */
function StockFields({
  form,
  editing,
  disabled,
}: {
  form: UseFormReturnType<Values>;
  editing: AdminProductDto | null;
  disabled: boolean;
}) {
  return (
    <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm" verticalSpacing="sm">
      <NumberInput
        label="Existencia"
        description={
          editing && editing.reservado > 0
            ? `Apartadas por pedidos aprobados: ${formatCount(editing.reservado)}`
            : 'Vacía si no se conoce'
        }
        min={0}
        allowDecimal={false}
        allowNegative={false}
        thousandSeparator=","
        hideControls
        disabled={disabled}
        {...form.getInputProps('existencia')}
      />
      <NumberInput
        label="Días de entrega"
        description="Para lo que se surte sobre pedido"
        min={0}
        max={3650}
        allowDecimal={false}
        allowNegative={false}
        hideControls
        disabled={disabled}
        {...form.getInputProps('dias_entrega')}
      />
    </SimpleGrid>
  );
}

interface ProductFormProps {
  idCliente: number | null;
  categories: AdminCategoryDto[];
  /** The product being edited, or null (add mode). */
  editing: AdminProductDto | null;
  /** Leaves edit mode (after a save or on 'Cancelar'). */
  onReset: () => void;
  ref?: Ref<HTMLDivElement>;
}

export function ProductForm({ idCliente, categories, editing, onReset, ref }: ProductFormProps) {
  const queryClient = useQueryClient();
  const disabled = idCliente === null;
  const id = editing?.id ?? 0;
  const [resets, setResets] = useState(0);
  // A refusal that belongs to no field, above the buttons.
  const [refusal, setRefusal] = useState<string | null>(null);

  const form = useForm<Values>({
    initialValues: BLANK,
    validate: (values) => schemaResolver(ProductBody, { sync: true })(toBody(values, id, idCliente)),
  });

  // Entering edit mode (or another product, or the same one saved elsewhere) loads its values.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reload only when the product or its version changes
  useEffect(() => {
    form.setValues(editing ? valuesOf(editing) : BLANK);
    form.resetDirty();
    form.clearErrors();
    setResets((n) => n + 1);
  }, [editing?.id, editing?.updated_at, idCliente]);

  const mutation = useMutation({
    mutationFn: ({ body, imagen }: { body: ProductBody; imagen: FileValue }) => saveProduct(body, imagen),
    onSuccess: (res) => {
      showSuccess(res.msg || (id ? MSG.modificadoCorrectamente : MSG.creadoCorrectamente));
      void queryClient.invalidateQueries({ queryKey: adminKeys.inventory(idCliente!) });
      void queryClient.invalidateQueries({ queryKey: adminKeys.overview });
      cancel();
    },
    onError: (error) => {
      applyFieldErrors(form, error);
      setRefusal(processFailure(error));
    },
  });

  function cancel() {
    setRefusal(null);
    form.setValues(BLANK);
    form.resetDirty();
    form.clearErrors();
    setResets((n) => n + 1);
    onReset();
  }

  const submit = form.onSubmit(
    (values) => {
      setRefusal(null);
      const body = ProductBody.parse(toBody(values, id, idCliente));
      // Stock the operator did not touch is left out (kept): an integration may have changed it meanwhile.
      if (id && !form.isDirty('existencia')) body.existencia = undefined;
      if (id && !form.isDirty('dias_entrega')) body.dias_entrega = undefined;
      mutation.mutate({ body, imagen: values.imagen });
    },
    (errors) => {
      // Only the client or the category is missing: say so (the fields alone do not explain the client).
      const fields = Object.keys(errors);
      setRefusal(
        fields.every((f) => f === 'id_categoria' || f === 'id_cliente') ? MSG.invClienteYCategoria : null,
      );
    },
  );

  const categoryData = categories.map((c) => ({ value: String(c.id), label: c.nombre }));
  const iconOf = new Map(categories.map((c) => [String(c.id), c.icono]));
  const selectedIcon = form.values.id_categoria ? iconOf.get(form.values.id_categoria) : null;

  return (
    <Box ref={ref} component="section" aria-label={id ? 'Editar producto' : 'Nuevo producto'}>
      <form onSubmit={submit} noValidate aria-describedby={disabled ? 'producto-form-ayuda' : undefined}>
        <Stack gap="sm">
          {disabled ? (
            <Text size="sm" c="dimmed" id="producto-form-ayuda">
              Selecciona un cliente para agregar o editar sus productos.
            </Text>
          ) : null}
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm" verticalSpacing="sm">
            <TextInput
              label="Clave interna"
              withAsterisk
              maxLength={50}
              disabled={disabled}
              {...form.getInputProps('clave_interna')}
            />
            <TextInput
              label="Clave cliente"
              maxLength={50}
              disabled={disabled}
              {...form.getInputProps('clave_cliente')}
            />
          </SimpleGrid>
          <TextInput
            label="Nombre"
            withAsterisk
            maxLength={200}
            disabled={disabled}
            {...form.getInputProps('nombre')}
          />
          <Textarea
            label="Descripción"
            autosize
            minRows={2}
            maxRows={5}
            maxLength={2000}
            disabled={disabled}
            {...form.getInputProps('descripcion')}
          />
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm" verticalSpacing="sm">
            <TextInput
              label="Unidad de medida"
              placeholder="Pieza"
              maxLength={50}
              disabled={disabled}
              {...form.getInputProps('unidad_de_medida')}
            />
            <NumberInput
              label="Precio (MXN)"
              withAsterisk
              min={0}
              decimalScale={2}
              thousandSeparator=","
              prefix="$"
              fixedDecimalScale
              hideControls
              allowNegative={false}
              placeholder="$0.00"
              disabled={disabled}
              {...form.getInputProps('precio')}
            />
          </SimpleGrid>
          <StockFields form={form} editing={editing} disabled={disabled} />
          <Select
            label="Categoría"
            withAsterisk
            placeholder={categories.length ? 'Selecciona una categoría' : 'Sin categorías'}
            description={
              !disabled && categories.length === 0
                ? 'Primero crea una categoría en la pestaña Categorías.'
                : undefined
            }
            data={categoryData}
            searchable
            nothingFoundMessage="Sin coincidencias"
            disabled={disabled}
            leftSection={selectedIcon ? <CategoryIcon name={selectedIcon} size={16} /> : undefined}
            {...form.getInputProps('id_categoria')}
          />
          <Group gap="xl">
            <Switch
              label="Activo"
              disabled={disabled}
              {...form.getInputProps('activo', { type: 'checkbox' })}
            />
            <Switch
              label="Aplica IVA"
              disabled={disabled}
              {...form.getInputProps('impuesto', { type: 'checkbox' })}
            />
          </Group>
          <ImageField
            key={resets}
            label="Imagen"
            inputLabel="Imagen del producto"
            previewAlt="Vista previa de la imagen del producto"
            value={form.values.imagen}
            onChange={(value) => form.setFieldValue('imagen', value)}
            error={form.errors.imagen}
            disabled={disabled}
          />
          <Refusal error={refusal} onClose={() => setRefusal(null)} />
          <Group justify="flex-end" gap="sm" mt="xs">
            <Button variant="default" onClick={cancel} disabled={disabled || mutation.isPending}>
              Cancelar
            </Button>
            <Button
              type="submit"
              disabled={disabled}
              loading={mutation.isPending}
              leftSection={id ? <IconDeviceFloppy size={16} /> : <IconPlus size={16} />}
            >
              {id ? 'Guardar cambios' : 'Agregar producto'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Box>
  );
}
