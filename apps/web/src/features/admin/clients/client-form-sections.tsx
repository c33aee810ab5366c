/**
 * The client form's sections, each with its fields bound to the form: 'Datos generales', 'Reglas de
 * aprobación', 'Seguridad', 'Documentos', 'Marca' (with the live preview of the sidebar), 'Avisos de
 * presupuesto' and 'Administradores de cliente'.
 */
import '@mantine/core/styles/ColorPicker.css';
import '@mantine/core/styles/ColorInput.css';
import {
  Checkbox,
  ColorInput,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { rulesSentence } from '@portal/shared/domain/approval-rules';
import {
  CLIENT_PERMISSION_NAMES,
  CLIENT_PERMISSIONS,
  type ClientPermission,
  isClientPermission,
} from '@portal/shared/domain/client-admin';
import { CREDIT_POLICIES, CREDIT_POLICY_NAMES, DIAS_CREDITO_MAX } from '@portal/shared/domain/credit';
import { UMBRAL_EXISTENCIA_MAX } from '@portal/shared/domain/stock';
import { ESCALAR_HORAS_MAX, RECORDATORIO_HORAS_MAX, VENTANA_REGLAS_HORAS_MAX } from '@portal/shared/limits';
import { type FileValue, useObjectUrl } from '../../../components/ui/file-field';
import { FormSection } from '../../../components/ui/form-section';
import { ImageField } from '../../../components/ui/image-field';
import { PdfField } from '../../../components/ui/pdf-field';
import { PurchaseLimitField } from '../../../components/ui/purchase-limit-field';
import { BrandPreview } from './brand-preview';
import {
  AUTORIZADORES,
  type ClientFormValues,
  formRules,
  formWindow,
  MODOS,
  SWATCHES,
} from './client-form-values';

type ClientFormApi = UseFormReturnType<ClientFormValues>;

/** An amount in pesos: from 0, two decimals, '$' and thousands grouped. */
const PESOS = {
  min: 0,
  decimalScale: 2,
  fixedDecimalScale: true,
  prefix: '$',
  thousandSeparator: ',',
  allowNegative: false,
} as const;

/** A file field's value, change and error. */
function fileProps(form: ClientFormApi, field: 'imagen' | 'calendario' | 'manual') {
  return {
    value: form.values[field],
    onChange: (value: FileValue) => form.setFieldValue(field, value),
    error: form.errors[field],
  };
}

/** Name, budget, purchase limits, authorizers, budget mode and whether users see their budget. */
export function GeneralSection({ form }: { form: ClientFormApi }) {
  return (
    <FormSection title="Datos generales">
      <TextInput
        label="Nombre"
        withAsterisk
        maxLength={150}
        data-autofocus
        {...form.getInputProps('nombre')}
      />
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        <NumberInput
          label="Presupuesto mensual"
          description="Por usuario, en MXN"
          withAsterisk
          {...PESOS}
          {...form.getInputProps('presupuesto_default')}
        />
        <PurchaseLimitField withAsterisk {...form.getInputProps('limite_de_compras')} />
      </SimpleGrid>
      <NumberInput
        label="Cantidad límite por defecto"
        description="Por producto, al asignar productos sin indicar un límite"
        min={1}
        max={1_000_000}
        allowDecimal={false}
        allowNegative={false}
        {...form.getInputProps('limite_por_defecto')}
      />
      <LevelsField form={form} />
      <Select
        label="Modo de presupuesto"
        data={MODOS}
        allowDeselect={false}
        comboboxProps={{ withinPortal: true }}
        {...form.getInputProps('modo_presupuesto')}
      />
      <Switch
        label="Mostrar presupuesto a los usuarios"
        description="Los usuarios ven sus tarjetas de presupuesto"
        {...form.getInputProps('mostrar_presupuesto_a_usuarios', { type: 'checkbox' })}
      />
    </FormSection>
  );
}

/** The approval levels of each order: none, the Autorizador, or the Autorizador and the Super Autorizador. */
function LevelsField({ form }: { form: ClientFormApi }) {
  return (
    <Select
      label="Autorizadores"
      description="Niveles de aprobación de cada pedido"
      data={AUTORIZADORES}
      allowDeselect={false}
      comboboxProps={{ withinPortal: true }}
      {...form.getInputProps('cantidad_autorizadores')}
    />
  );
}

/**
 * The rules by amount, the reminder, the escalation and the window that adds a buyer's orders up; with
 * `levels`, the approval levels first (a client administrator's «Reglas de aprobación», where the client
 * form's 'Datos generales' are not shown).
 */
export function ApprovalRulesSection({ form, levels = false }: { form: ClientFormApi; levels?: boolean }) {
  return (
    <FormSection title="Reglas de aprobación">
      {levels ? <LevelsField form={form} /> : null}
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        <NumberInput
          label="Aprobación automática hasta"
          description="Total con IVA; vacío = sin regla"
          {...PESOS}
          disabled={form.values.cantidad_autorizadores === '0'}
          {...form.getInputProps('aprobacion_automatica_hasta')}
        />
        <NumberInput
          label="Super Autorizador desde"
          description={
            form.values.cantidad_autorizadores === '2'
              ? 'Total con IVA; vacío = todos los pedidos'
              : 'Solo con dos niveles de autorización'
          }
          {...PESOS}
          disabled={form.values.cantidad_autorizadores !== '2'}
          {...form.getInputProps('segundo_nivel_desde')}
        />
        <NumberInput
          label="Recordatorio (horas)"
          description="A los autorizadores; 0 = sin recordatorios"
          min={0}
          max={RECORDATORIO_HORAS_MAX}
          allowDecimal={false}
          allowNegative={false}
          {...form.getInputProps('recordatorio_horas')}
        />
        <NumberInput
          label="Sumar pedidos (horas)"
          description="Del mismo comprador; 0 = cada uno solo"
          min={0}
          max={VENTANA_REGLAS_HORAS_MAX}
          allowDecimal={false}
          allowNegative={false}
          disabled={form.values.cantidad_autorizadores === '0'}
          {...form.getInputProps('ventana_reglas_horas')}
        />
        <NumberInput
          label="Escalar después de (horas)"
          description="A quien sigue en espera; 0 = no escalar"
          min={0}
          max={ESCALAR_HORAS_MAX}
          allowDecimal={false}
          allowNegative={false}
          disabled={form.values.cantidad_autorizadores === '0'}
          {...form.getInputProps('escalar_horas')}
        />
      </SimpleGrid>
      <Text size="sm" c="dimmed" data-testid="reglas-resumen">
        {rulesSentence(formRules(form.values), formWindow(form.values)) ??
          'Sin reglas por monto: cada pedido sigue los niveles de autorización.'}
      </Text>
    </FormSection>
  );
}

/** Stock (decision 0124): whether approvals may go beyond the available stock, and the "Quedan N" threshold. */
export function StockSection({ form }: { form: ClientFormApi }) {
  return (
    <FormSection title="Existencias">
      <Switch
        label="Permitir productos sobre pedido"
        description="Si se desactiva, no se puede aprobar un pedido que pida más de lo disponible de un producto."
        {...form.getInputProps('permitir_sobre_pedido', { type: 'checkbox' })}
      />
      <NumberInput
        label="Avisar «Quedan N» desde"
        description="El catálogo muestra cuántas quedan cuando lo disponible es esta cantidad o menos; 0 = nunca"
        min={0}
        max={UMBRAL_EXISTENCIA_MAX}
        allowDecimal={false}
        allowNegative={false}
        hideControls
        {...form.getInputProps('umbral_existencia')}
      />
    </FormSection>
  );
}

/**
 * Credit (decision 0134): the limit (blank: none), the credit days from an invoice's date to its due date,
 * and what an approval over the limit or with an overdue invoice does.
 */
export function CreditSection({ form }: { form: ClientFormApi }) {
  return (
    <FormSection title="Crédito">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <NumberInput
          label="Límite de crédito"
          description="Saldo máximo de facturas por pagar. Vacío: sin límite."
          placeholder="Sin límite"
          {...PESOS}
          {...form.getInputProps('limite_credito')}
        />
        <NumberInput
          label="Días de crédito"
          description="Días naturales desde la fecha de la factura hasta su vencimiento"
          min={0}
          max={DIAS_CREDITO_MAX}
          allowDecimal={false}
          allowNegative={false}
          {...form.getInputProps('dias_credito')}
        />
      </SimpleGrid>
      <Select
        label="Si rebasa el límite o tiene facturas vencidas"
        data={CREDIT_POLICIES.map((p) => ({ value: p, label: CREDIT_POLICY_NAMES[p] }))}
        allowDeselect={false}
        {...form.getInputProps('politica_credito')}
      />
    </FormSection>
  );
}

/** Mandatory two-factor sign-in for the client's authorizers. */
export function SecuritySection({ form }: { form: ClientFormApi }) {
  return (
    <FormSection title="Seguridad">
      <Switch
        label="Exigir verificación en dos pasos a autorizadores"
        description="Autorizadores y Super Autorizadores del cliente deberán activarla, con una aplicación de autenticación, antes de usar el portal."
        {...form.getInputProps('requiere_2fa', { type: 'checkbox' })}
      />
    </FormSection>
  );
}

/** The calendar and manual PDFs. */
export function DocumentsSection({ form, busy }: { form: ClientFormApi; busy: boolean }) {
  return (
    <FormSection title="Documentos">
      <PdfField label="Calendario" disabled={busy} {...fileProps(form, 'calendario')} />
      <PdfField label="Manual" disabled={busy} {...fileProps(form, 'manual')} />
    </FormSection>
  );
}

/** The logo and the two colours, with a live preview of the sidebar the client's users will see. */
export function BrandSection({ form, busy }: { form: ClientFormApi; busy: boolean }) {
  const { imagen } = form.values;
  const logoPreview = useObjectUrl(imagen.file);
  const logo = logoPreview ?? (imagen.remove ? null : imagen.currentUrl);
  return (
    <FormSection title="Marca">
      <ImageField label="Logotipo" disabled={busy} {...fileProps(form, 'imagen')} />
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        <ColorInput
          label="Color principal"
          format="hex"
          swatches={SWATCHES}
          swatchesPerRow={6}
          popoverProps={{ withinPortal: true }}
          {...form.getInputProps('color')}
        />
        <ColorInput
          label="Color secundario"
          format="hex"
          swatches={SWATCHES}
          swatchesPerRow={6}
          popoverProps={{ withinPortal: true }}
          {...form.getInputProps('color2')}
        />
      </SimpleGrid>
      <Stack gap={6}>
        <Text size="sm" fw={500}>
          Vista previa
        </Text>
        <BrandPreview
          nombre={form.values.nombre}
          color={form.values.color}
          color2={form.values.color2}
          logo={logo}
        />
        <Text size="xs" c="dimmed">
          Así se verá el menú lateral de los usuarios del cliente.
        </Text>
      </Stack>
    </FormSection>
  );
}

/** The budget alert thresholds and whether the authorizers get them too. */
export function BudgetAlertsSection({ form }: { form: ClientFormApi }) {
  return (
    <FormSection title="Avisos de presupuesto">
      <TextInput
        label="Avisar al llegar al (%)"
        description="De 1 a 3 porcentajes del presupuesto del mes, separados por comas; un correo por porcentaje al mes"
        placeholder="80, 100"
        inputMode="numeric"
        {...form.getInputProps('alertas_presupuesto')}
      />
      <Switch
        label="Avisar también a los autorizadores"
        description="Los Autorizadores del cliente reciben el mismo aviso que el usuario"
        {...form.getInputProps('avisar_autorizadores', { type: 'checkbox' })}
      />
    </FormSection>
  );
}

/**
 * What the client's own administrators (rol 5, decision 0122) may change, and the cap above which a budget
 * they give waits for the distributor's approval («Presupuestos por aprobar» on the home).
 */
export function ClientAdminsSection({ form }: { form: ClientFormApi }) {
  return (
    <FormSection
      title="Administradores de cliente"
      description="Lo que las cuentas «Administrador de cliente» de esta empresa pueden cambiar por su cuenta."
    >
      <Checkbox.Group
        label="Pueden administrar"
        value={form.values.permisos_cliente}
        onChange={(value) => form.setFieldValue('permisos_cliente', value.filter(isClientPermission))}
        error={form.errors.permisos_cliente}
      >
        <Stack gap={8} mt={6}>
          {CLIENT_PERMISSIONS.map((p: ClientPermission) => (
            <Checkbox key={p} value={p} label={CLIENT_PERMISSION_NAMES[p]} />
          ))}
        </Stack>
      </Checkbox.Group>
      <NumberInput
        label="Tope de presupuesto"
        description="Un presupuesto mensual mayor que este, dado por un administrador de cliente, espera tu aprobación. Vacío: sin tope."
        placeholder="Sin tope"
        {...PESOS}
        {...form.getInputProps('tope_presupuesto')}
      />
    </FormSection>
  );
}
