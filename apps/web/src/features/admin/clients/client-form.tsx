/**
 * 'Agregar cliente' / 'Editar cliente': name, budget, purchase limit, authorizers,
 * budget mode, whether users see their budget, mandatory two-factor sign-in for its authorizers, the
 * logo, the two colours (with a live preview of the sidebar the client's users will see) and the
 * calendar and manual PDFs.
 */
import '@mantine/core/styles/ColorPicker.css';
import '@mantine/core/styles/ColorInput.css';
import {
  ColorInput,
  Divider,
  Modal,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMediaQuery } from '@mantine/hooks';
import { rulesSentence } from '@portal/shared/domain/approval-rules';
import { RECORDATORIO_HORAS_MAX, VENTANA_REGLAS_HORAS_MAX } from '@portal/shared/limits';
import { MSG } from '@portal/shared/messages';
import { type ClientDto, ClientForm } from '@portal/shared/schemas/clients';
import { useEffect, useState } from 'react';
import { showSuccess } from '../../../components/ui/alerts';
import { type FileValue, useObjectUrl } from '../../../components/ui/file-field';
import { type FormError, FormFooter } from '../../../components/ui/form-footer';
import { FormSection } from '../../../components/ui/form-section';
import { ImageField } from '../../../components/ui/image-field';
import { PdfField } from '../../../components/ui/pdf-field';
import { PurchaseLimitField } from '../../../components/ui/purchase-limit-field';
import { errorMessage } from '../../../lib/api';
import { applyFieldErrors, formErrorSummary, missingFirst } from '../../../lib/form-errors';
import { useSaveClient } from './api';
import { BrandPreview } from './brand-preview';
import {
  AUTORIZADORES,
  type ClientFormValues,
  formRules,
  formWindow,
  initialValues,
  MODOS,
  SWATCHES,
  toBody,
} from './client-form-values';

interface ClientFormModalProps {
  opened: boolean;
  /** null: 'Agregar cliente'. */
  client: ClientDto | null;
  onClose: () => void;
}

/** The required fields' labels, for the summary that names what is missing (decision 0098). */
const REQUIRED_LABELS = {
  nombre: 'Nombre',
  presupuesto_default: 'Presupuesto mensual',
  limite_de_compras: 'Límite de compras',
};

// biome-ignore lint/complexity/noExcessiveLinesPerFunction: a form, to split by section (docs/code-style.md)
export function ClientFormModal({ opened, client, onClose }: ClientFormModalProps) {
  const phone = useMediaQuery('(max-width: 48em)');
  const save = useSaveClient();
  const [formError, setFormError] = useState<FormError | null>(null);
  const form = useForm<ClientFormValues>({
    mode: 'controlled',
    initialValues: initialValues(client),
    validate: (values) =>
      missingFirst(
        schemaResolver(ClientForm, { sync: true })(toBody(values, client)),
        MSG.clienteCamposRequeridos,
      ),
    // The message under the form goes as soon as the administrator corrects something.
    onValuesChange: () => setFormError(null),
  });
  const { imagen } = form.values;
  const logoPreview = useObjectUrl(imagen.file);
  const logo = logoPreview ?? (imagen.remove ? null : imagen.currentUrl);

  // A fresh form each time the modal opens (for this client, or empty).
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset only when opening or switching client
  useEffect(() => {
    if (!opened) return;
    form.setValues(initialValues(client));
    form.resetDirty(initialValues(client));
    form.clearErrors();
    setFormError(null);
    save.reset();
  }, [opened, client?.id]);

  const submit = form.onSubmit(
    (values) => {
      setFormError(null);
      const body = ClientForm.parse(toBody(values, client));
      save.mutate(
        {
          id: client?.id ?? null,
          input: { ...body, imagen: values.imagen, calendario: values.calendario, manual: values.manual },
        },
        {
          onSuccess: () => {
            showSuccess(client ? MSG.modificadoCorrectamente : MSG.creadoCorrectamente);
            onClose();
          },
          onError: (error) => {
            applyFieldErrors(form, error);
            setFormError({ title: MSG.error, text: errorMessage(error) });
          },
        },
      );
    },
    (errors) => setFormError(formErrorSummary(errors, MSG.clienteCamposRequeridos, REQUIRED_LABELS)),
  );

  const busy = save.isPending;
  const fileProps = (field: 'imagen' | 'calendario' | 'manual') => ({
    value: form.values[field],
    onChange: (value: FileValue) => form.setFieldValue(field, value),
    error: form.errors[field],
  });
  const close = () => {
    if (!busy) onClose();
  };

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={client ? 'Editar cliente' : 'Agregar cliente'}
      size={1000}
      fullScreen={phone}
      closeOnClickOutside={!busy}
      closeButtonProps={{ 'aria-label': 'Cerrar' }}
    >
      <form onSubmit={submit} noValidate>
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="xl" verticalSpacing="lg">
          <Stack gap="lg">
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
                  min={0}
                  decimalScale={2}
                  fixedDecimalScale
                  prefix="$"
                  thousandSeparator=","
                  allowNegative={false}
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
              <Select
                label="Autorizadores"
                description="Niveles de aprobación de cada pedido"
                data={AUTORIZADORES}
                allowDeselect={false}
                comboboxProps={{ withinPortal: true }}
                {...form.getInputProps('cantidad_autorizadores')}
              />
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
            <Divider />
            <FormSection title="Reglas de aprobación">
              <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
                <NumberInput
                  label="Aprobación automática hasta"
                  description="Total con IVA; vacío = sin regla"
                  min={0}
                  decimalScale={2}
                  fixedDecimalScale
                  prefix="$"
                  thousandSeparator=","
                  allowNegative={false}
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
                  min={0}
                  decimalScale={2}
                  fixedDecimalScale
                  prefix="$"
                  thousandSeparator=","
                  allowNegative={false}
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
              </SimpleGrid>
              <Text size="sm" c="dimmed" data-testid="reglas-resumen">
                {rulesSentence(formRules(form.values), formWindow(form.values)) ??
                  'Sin reglas por monto: cada pedido sigue los niveles de autorización.'}
              </Text>
            </FormSection>
            <Divider />
            <FormSection title="Seguridad">
              <Switch
                label="Exigir verificación en dos pasos a autorizadores"
                description="Autorizadores y Super Autorizadores del cliente deberán activarla, con una aplicación de autenticación, antes de usar el portal."
                {...form.getInputProps('requiere_2fa', { type: 'checkbox' })}
              />
            </FormSection>
            <Divider />
            <FormSection title="Documentos">
              <PdfField label="Calendario" disabled={busy} {...fileProps('calendario')} />
              <PdfField label="Manual" disabled={busy} {...fileProps('manual')} />
            </FormSection>
          </Stack>

          <Stack gap="lg">
            <FormSection title="Marca">
              <ImageField label="Logotipo" disabled={busy} {...fileProps('imagen')} />
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
            <Divider />
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
          </Stack>
        </SimpleGrid>

        <FormFooter
          pt="md"
          pb={phone ? 'md' : 0}
          error={formError}
          busy={busy}
          onCancel={close}
          submitLabel={client ? 'Guardar cambios' : 'Crear cliente'}
        />
      </form>
    </Modal>
  );
}
