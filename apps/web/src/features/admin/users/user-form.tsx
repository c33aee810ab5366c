/**
 * The user form: create or edit one user of a client. Budget follows the client's
 * mode: one 'Presupuesto' (regular, min 1) or one field per category (min 0; only those above 0 are sent;
 * the total is their sum). A client administrator (scope.ts) gives roles 1–3 only, changes budgets and
 * limits only where its client allows `presupuestos` (the fields are disabled otherwise, and kept), and a
 * budget above its client's cap is saved as a request for the distributor: its message shows as a yellow
 * notice. Where the client has áreas (decision 0123) the user's área is chosen with the budget (a client
 * administrator changes it only with `presupuestos`, like the budget).
 */
import { NumberInput, Select, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { MSG } from '@portal/shared/messages';
import type { ClientDto } from '@portal/shared/schemas/clients';
import type { UserCreateResponse, UserDto } from '@portal/shared/schemas/users';
import { useState } from 'react';
import { showNotice, showSuccess } from '../../../components/ui/alerts';
import { type FormError, FormFooter } from '../../../components/ui/form-footer';
import { FormSection } from '../../../components/ui/form-section';
import { PurchaseLimitField } from '../../../components/ui/purchase-limit-field';
import { errorMessage, isApiError } from '../../../lib/api';
import { applyFieldErrors, formErrorSummary, missingFirst } from '../../../lib/form-errors';
import { formatMXN } from '../../../lib/format';
import { useAreas } from '../areas/api';
import { useClientCategories } from '../inventory/api';
import { type AdminScope, isDistributor, mayChangeBudgets, roleOptions } from '../scope';
import { useAdminScope } from '../scope-context';
import { useSaveUser } from './api';
import { CategoryBudgets } from './category-budgets';
import {
  byCategoryId,
  CategoryModeUser,
  initialValues,
  RegularModeUser,
  type TEXT_FIELDS,
  toBody,
  type UserFormValues,
} from './user-form-values';

const WEEKS = ['1', '2', '3', '4'].map((w) => ({ value: w, label: `Semana ${w}` }));

interface UserFormProps {
  client: ClientDto;
  user: UserDto | null;
  onDone: () => void;
  onCancel: () => void;
}

/** What the budget section says under its title: why its fields are disabled, or the mode and the cap. */
function budgetNote(scope: AdminScope, client: ClientDto): string | undefined {
  if (!mayChangeBudgets(scope))
    return 'Tu empresa no tiene permiso para cambiar presupuestos ni límites de compra: los asigna tu distribuidor.';
  const distributor = isDistributor(scope);
  const notes: string[] = [];
  if (client.modo_presupuesto === 'categoria')
    notes.push(
      `${distributor ? 'Este cliente usa' : 'Tu empresa usa'} presupuesto por categoría: asigna un monto mensual (MXN) a cada una.`,
    );
  if (!distributor && client.tope_presupuesto !== null)
    notes.push(
      `Un presupuesto mensual mayor que ${formatMXN(client.tope_presupuesto)} (el tope de tu empresa) queda pendiente hasta que tu distribuidor lo apruebe.`,
    );
  return notes.length ? notes.join(' ') : undefined;
}

/** Saved: a success, or a notice when the budget waits for the distributor (its message says so). */
function announce(res: Pick<UserCreateResponse, 'msg' | 'presupuesto_pendiente'>, fallback: string) {
  if (res.presupuesto_pendiente != null) showNotice('Presupuesto pendiente de aprobación', res.msg);
  else showSuccess(fallback);
}

export function UserForm({ client, user, onDone, onCancel }: UserFormProps) {
  const save = useSaveUser();
  const scope = useAdminScope();
  const categoryMode = client.modo_presupuesto === 'categoria';
  const categories = useClientCategories(client.id, categoryMode);
  const areas = useAreas(client.id).data?.areas ?? [];
  const budgets = mayChangeBudgets(scope);
  const [formError, setFormError] = useState<FormError | null>(null);
  const schema = categoryMode ? CategoryModeUser : RegularModeUser;
  const form = useForm<UserFormValues>({
    mode: 'controlled',
    initialValues: initialValues(client, user),
    validate: (values) => {
      const body = toBody(values, client, categories.data);
      const errors = schemaResolver(schema, { sync: true })(body);
      return missingFirst(byCategoryId(errors, body.categorias), MSG.camposObligatoriosUsuario);
    },
    // The message under the form goes as soon as the administrator corrects something.
    onValuesChange: () => setFormError(null),
  });

  const submit = form.onSubmit(
    (values) => {
      setFormError(null);
      const input = schema.parse(toBody(values, client, categories.data));
      save.mutate(
        { id: user?.id ?? null, input },
        {
          onSuccess: (res) => {
            announce(res, user ? MSG.modificadoCorrectamente : MSG.creadoCorrectamente);
            onDone();
          },
          onError: (error) => {
            applyFieldErrors(form, error);
            if (isApiError(error) && error.code === 'DUPLICATE_USUARIO')
              form.setFieldError('usuario', error.msg);
            setFormError({ title: MSG.error, text: errorMessage(error) });
          },
        },
      );
    },
    (errors) => setFormError(formErrorSummary(errors, MSG.camposObligatoriosUsuario)),
  );

  const busy = save.isPending;
  const text = (
    field: (typeof TEXT_FIELDS)[number] | 'usuario' | 'user_id' | 'nombre' | 'direccion_entrega',
  ) => form.getInputProps(field);

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="xl">
        <FormSection title="Cuenta">
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <TextInput
              label="Usuario"
              description="Con él inicia sesión; sin espacios"
              withAsterisk
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              data-autofocus
              {...text('usuario')}
            />
            <TextInput
              label="Email"
              description="Aquí recibe su acceso y avisos"
              type="email"
              withAsterisk
              autoComplete="off"
              {...text('user_id')}
            />
          </SimpleGrid>
          <TextInput label="Nombre" withAsterisk autoComplete="off" {...text('nombre')} />
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <Select
              label="Rol"
              withAsterisk
              data={roleOptions(scope, client, user?.rol ?? null)}
              allowDeselect={false}
              comboboxProps={{ withinPortal: true }}
              description={
                client.cantidad_autorizadores === 2
                  ? undefined
                  : 'Super Autorizador: solo con 2 autorizadores'
              }
              {...form.getInputProps('rol')}
            />
            <Switch
              label="Activo"
              description="Puede iniciar sesión"
              mt={{ base: 0, xs: 28 }}
              {...form.getInputProps('activo', { type: 'checkbox' })}
            />
          </SimpleGrid>
        </FormSection>

        <FormSection title="Semanas">
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <Select
              label="Semana de referencia"
              placeholder="Elige la semana"
              withAsterisk
              data={WEEKS}
              comboboxProps={{ withinPortal: true }}
              {...form.getInputProps('active_week')}
            />
            <Select
              label="Semana de entrega"
              placeholder="Elige la semana"
              withAsterisk
              data={WEEKS}
              comboboxProps={{ withinPortal: true }}
              {...form.getInputProps('entrega_week')}
            />
          </SimpleGrid>
          <Text size="xs" c="dimmed" mt={6}>
            La semana de referencia es un dato del usuario (aparece en la lista y en las importaciones); no
            limita cuándo entra ni cuándo compra: eso lo deciden las semanas de acceso del cliente.
          </Text>
        </FormSection>

        <FormSection title="Presupuesto y límites" description={budgetNote(scope, client)}>
          {categoryMode ? (
            <CategoryBudgets
              categories={categories.data ?? []}
              loading={categories.isPending}
              disabled={!budgets}
              values={form.values.categorias}
              errors={form.errors}
              onChange={(id, v) =>
                form.setFieldValue('categorias', { ...form.values.categorias, [String(id)]: v })
              }
            />
          ) : null}
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            {categoryMode ? null : (
              <NumberInput
                label="Presupuesto"
                description="Monto mensual en MXN"
                min={1}
                decimalScale={2}
                fixedDecimalScale
                prefix="$"
                thousandSeparator=","
                allowNegative={false}
                withAsterisk
                disabled={!budgets}
                {...form.getInputProps('presupuesto_default')}
              />
            )}
            <PurchaseLimitField disabled={!budgets} {...form.getInputProps('limite_de_compras')} />
          </SimpleGrid>
          {/* Only where the client has áreas (decision 0123); a user already in one keeps the field. */}
          {areas.length > 0 || form.values.id_area ? (
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
              <Select
                label="Área de presupuesto"
                description="Sus pedidos también gastan el presupuesto mensual del área"
                placeholder="Sin área"
                data={areas.map((a) => ({ value: String(a.id), label: `${a.nombre} (${a.codigo})` }))}
                clearable
                comboboxProps={{ withinPortal: true }}
                disabled={!budgets}
                {...form.getInputProps('id_area')}
              />
            </SimpleGrid>
          ) : null}
        </FormSection>

        <FormSection title="Entrega">
          <TextInput label="Dirección de entrega" withAsterisk {...text('direccion_entrega')} />
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <TextInput label="Calle" {...text('calle')} />
            <TextInput label="Colonia" {...text('colonia')} />
            <TextInput label="Ciudad" {...text('ciudad')} />
            <TextInput label="Código postal" inputMode="numeric" maxLength={20} {...text('cp')} />
            <TextInput label="Estado" {...text('estado')} />
            <TextInput label="Localidad" {...text('localidad')} />
          </SimpleGrid>
        </FormSection>

        <FormSection title="Organización">
          <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="sm">
            <TextInput label="Área" {...text('area')} />
            <TextInput label="Región" {...text('region')} />
            <TextInput label="Coordinación" {...text('coordinacion')} />
          </SimpleGrid>
        </FormSection>
      </Stack>

      <FormFooter
        py="md"
        error={formError}
        busy={busy}
        onCancel={onCancel}
        submitLabel={user ? 'Guardar cambios' : 'Crear usuario'}
      />
    </form>
  );
}
