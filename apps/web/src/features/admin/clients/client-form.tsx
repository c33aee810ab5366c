/**
 * 'Agregar cliente' / 'Editar cliente' (spec §2, §3, §5): name, budget, purchase limit, authorizers,
 * budget mode, whether users see their budget, mandatory two-factor sign-in for its authorizers, the
 * logo, the two colours (with a live preview of the sidebar the client's users will see) and the
 * calendar and manual PDFs.
 */
import {
  Alert,
  Box,
  Button,
  ColorInput,
  Divider,
  Group,
  Modal,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMediaQuery } from '@mantine/hooks';
import { MSG } from '@portal/shared/messages';
import { type ClientDto, ClientForm, type ModoPresupuesto } from '@portal/shared/schemas/clients';
import {
  IconAlertTriangle,
  IconBuildingWarehouse,
  IconDeviceFloppy,
  IconLayoutGrid,
  IconShoppingCart,
} from '@tabler/icons-react';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { sidebarPalette } from '../../../components/layouts/brand-colors';
import { showSuccess } from '../../../components/ui/alerts';
import { type FileValue, storedFile, useObjectUrl } from '../../../components/ui/file-field';
import { FormSection } from '../../../components/ui/form-section';
import { ImageField } from '../../../components/ui/image-field';
import { PdfField } from '../../../components/ui/pdf-field';
import { errorMessage } from '../../../lib/api';
import { applyFieldErrors, formErrorSummary, missingFirst } from '../../../lib/form-errors';
import { useSaveClient } from './api';

const DEFAULT_COLOR = '#1c7ed6';
const DEFAULT_COLOR2 = '#15aabf';
const SWATCHES = [
  '#1c7ed6',
  '#15aabf',
  '#3b5bdb',
  '#5f3dc4',
  '#c2255c',
  '#e03131',
  '#f76707',
  '#f59f00',
  '#2f9e44',
  '#0ca678',
  '#212529',
  '#868e96',
];

const AUTORIZADORES = [
  { value: '0', label: 'Sin autorización (se aprueban al enviarse)' },
  { value: '1', label: '1 nivel (Autorizador)' },
  { value: '2', label: '2 niveles (Autorizador y Super Autorizador)' },
];

const MODOS: { value: ModoPresupuesto; label: string }[] = [
  { value: 'regular', label: 'Regular (un presupuesto por usuario)' },
  { value: 'categoria', label: 'Por categoría (un presupuesto por categoría)' },
];

interface Values {
  nombre: string;
  color: string;
  color2: string;
  presupuesto_default: number | string;
  limite_de_compras: number | string;
  cantidad_autorizadores: string;
  modo_presupuesto: ModoPresupuesto;
  mostrar_presupuesto_a_usuarios: boolean;
  requiere_2fa: boolean;
  imagen: FileValue;
  calendario: FileValue;
  manual: FileValue;
}

function initialValues(client: ClientDto | null): Values {
  const files = {
    imagen: storedFile(client?.imagen ?? null),
    calendario: storedFile(client?.calendario ?? null),
    manual: storedFile(client?.manual ?? null),
  };
  return client
    ? {
        ...files,
        nombre: client.nombre,
        color: client.color,
        color2: client.color2,
        presupuesto_default: client.presupuesto_default,
        limite_de_compras: client.limite_de_compras,
        cantidad_autorizadores: String(client.cantidad_autorizadores),
        modo_presupuesto: client.modo_presupuesto,
        mostrar_presupuesto_a_usuarios: client.mostrar_presupuesto_a_usuarios,
        requiere_2fa: client.requiere_2fa,
      }
    : {
        ...files,
        nombre: '',
        color: DEFAULT_COLOR,
        color2: DEFAULT_COLOR2,
        presupuesto_default: '',
        limite_de_compras: '',
        cantidad_autorizadores: '1',
        modo_presupuesto: 'regular',
        mostrar_presupuesto_a_usuarios: true,
        requiere_2fa: false,
      };
}

/** The form's values as the fields of the multipart body, before the schema reads them. */
function toBody({ imagen, calendario, manual, ...values }: Values, client: ClientDto | null) {
  return {
    ...values,
    color: values.color || DEFAULT_COLOR,
    color2: values.color2 || DEFAULT_COLOR2,
    activo: client?.activo ?? true,
  };
}

/** What the client's users will see: the sidebar in the client's gradient with its logo. */
function BrandPreview({
  nombre,
  color,
  color2,
  logo,
}: {
  nombre: string;
  color: string;
  color2: string;
  logo: string | null;
}) {
  const palette = sidebarPalette(color, color2);
  const fg = palette.tone === 'light' ? '#ffffff' : '#1a1b1e';
  const muted = palette.tone === 'light' ? 'rgba(255,255,255,0.22)' : 'rgba(0,0,0,0.1)';
  return (
    <Box
      role="img"
      aria-label={`Vista previa del menú con los colores de ${nombre || 'el cliente'}`}
      data-testid="vista-previa-marca"
      style={{ background: palette.background, color: fg, borderRadius: 'var(--mantine-radius-md)' }}
      p="md"
    >
      <Group gap="md" wrap="nowrap" align="stretch">
        <Box
          bg="white"
          w={120}
          h={64}
          style={{
            borderRadius: 'var(--mantine-radius-md)',
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'center',
            flexShrink: 0,
            boxShadow: '0 6px 18px rgba(0,0,0,0.12)',
          }}
        >
          {logo ? (
            <img
              src={logo}
              alt=""
              style={{ maxWidth: '100%', maxHeight: 52, objectFit: 'contain', padding: 6 }}
            />
          ) : (
            <IconBuildingWarehouse size={28} stroke={1.5} color="#868e96" aria-hidden />
          )}
        </Box>
        <Stack gap={6} justify="center" miw={0} style={{ flex: 1 }}>
          <Text fw={700} size="sm" truncate c={fg}>
            {nombre.trim() || 'Nombre del cliente'}
          </Text>
          <Group gap={6} px={8} py={4} style={{ background: muted, borderRadius: 6 }} wrap="nowrap">
            <IconLayoutGrid size={14} aria-hidden />
            <Text size="xs" c={fg}>
              Todos los productos
            </Text>
          </Group>
          <Group gap={6} px={8} wrap="nowrap">
            <IconShoppingCart size={14} aria-hidden />
            <Text size="xs" c={fg}>
              Carrito
            </Text>
          </Group>
        </Stack>
      </Group>
    </Box>
  );
}

interface ClientFormModalProps {
  opened: boolean;
  /** null: 'Agregar cliente'. */
  client: ClientDto | null;
  onClose: () => void;
}

export function ClientFormModal({ opened, client, onClose }: ClientFormModalProps) {
  const phone = useMediaQuery('(max-width: 48em)');
  const save = useSaveClient();
  const [formError, setFormError] = useState<{ title: string; text: ReactNode } | null>(null);
  const form = useForm<Values>({
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
  const errorRef = useRef<HTMLDivElement>(null);
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

  useEffect(() => {
    if (formError) errorRef.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }, [formError]);

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
    (errors) => setFormError(formErrorSummary(errors, MSG.clienteCamposRequeridos)),
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
                <NumberInput
                  label="Límite de compras"
                  description="Pedidos al mes (-1 = sin límite)"
                  withAsterisk
                  min={-1}
                  allowDecimal={false}
                  {...form.getInputProps('limite_de_compras')}
                />
              </SimpleGrid>
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
          </Stack>
        </SimpleGrid>

        <Paper
          pos="sticky"
          bottom={0}
          mt="xl"
          pt="md"
          pb={phone ? 'md' : 0}
          radius={0}
          bg="var(--mantine-color-body)"
          style={{ borderTop: '1px solid var(--mantine-color-gray-3)', zIndex: 2 }}
        >
          <Stack gap="sm">
            {formError ? (
              <Alert
                ref={errorRef}
                color="red"
                variant="light"
                title={formError.title}
                icon={<IconAlertTriangle size={18} />}
                role="alert"
              >
                {formError.text}
              </Alert>
            ) : null}
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={close} disabled={busy}>
                Cancelar
              </Button>
              <Button type="submit" loading={busy} leftSection={<IconDeviceFloppy size={18} aria-hidden />}>
                {client ? 'Guardar cambios' : 'Crear cliente'}
              </Button>
            </Group>
          </Stack>
        </Paper>
      </form>
    </Modal>
  );
}
