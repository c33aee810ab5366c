/**
 * The user form (spec §3 "Usuario", §5): create ('Agregar nuevo usuario') or edit one user of a client,
 * in a drawer. Budget follows the client's mode: one 'Presupuesto' (regular, min 1) or one field per
 * category (min 0; only those above 0 are sent, as JSON text; the total is their sum).
 */
import {
  Alert,
  Box,
  Button,
  Center,
  Drawer,
  Group,
  Loader,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Switch,
  Text,
  TextInput,
  ThemeIcon,
} from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMediaQuery } from '@mantine/hooks';
import { formatMXN } from '@portal/shared/domain/money';
import { ROLES } from '@portal/shared/domain/roles';
import { MSG } from '@portal/shared/messages';
import type { ClientDto } from '@portal/shared/schemas/clients';
import type { AdminCategoryDto } from '@portal/shared/schemas/inventory';
import { UserBody, type UserDto } from '@portal/shared/schemas/users';
import { IconAlertTriangle, IconDeviceFloppy, IconUserQuestion } from '@tabler/icons-react';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { showSuccess } from '../../../components/ui/alerts';
import { CategoryIcon } from '../../../components/ui/category-icon';
import { FormSection } from '../../../components/ui/form-section';
import { errorMessage, isApiError } from '../../../lib/api';
import { applyFieldErrors, formErrorSummary, missingFirst } from '../../../lib/form-errors';
import { useClientCategories } from '../inventory/api';
import { useSaveUser, useUser } from './api';

const WEEKS = ['1', '2', '3', '4'].map((w) => ({ value: w, label: `Semana ${w}` }));

interface Values {
  usuario: string;
  user_id: string;
  nombre: string;
  rol: string | null;
  direccion_entrega: string;
  calle: string;
  colonia: string;
  ciudad: string;
  cp: string;
  estado: string;
  area: string;
  localidad: string;
  region: string;
  coordinacion: string;
  active_week: string | null;
  entrega_week: string | null;
  activo: boolean;
  limite_de_compras: number | string;
  presupuesto_default: number | string;
  /** Category mode: category id -> budget (pesos). */
  categorias: Record<string, number | string>;
}

const TEXT_FIELDS = [
  'calle',
  'colonia',
  'ciudad',
  'cp',
  'estado',
  'area',
  'localidad',
  'region',
  'coordinacion',
] as const;

function parseCategorias(text: string): Record<string, number> {
  try {
    const list: unknown = JSON.parse(text || '[]');
    if (!Array.isArray(list)) return {};
    const out: Record<string, number> = {};
    for (const item of list) {
      if (item && typeof item === 'object' && 'id' in item && 'presupuesto' in item) {
        out[String(item.id)] = Number(item.presupuesto) || 0;
      }
    }
    return out;
  } catch {
    return {};
  }
}

function initialValues(client: ClientDto, user: UserDto | null): Values {
  if (user) {
    return {
      usuario: user.usuario,
      user_id: user.user_id,
      nombre: user.nombre,
      rol: String(user.rol),
      direccion_entrega: user.direccion_entrega,
      calle: user.calle,
      colonia: user.colonia,
      ciudad: user.ciudad,
      cp: user.cp,
      estado: user.estado,
      area: user.area,
      localidad: user.localidad,
      region: user.region,
      coordinacion: user.coordinacion,
      active_week: user.active_week ? String(user.active_week) : null,
      entrega_week: user.entrega_week ? String(user.entrega_week) : null,
      activo: user.activo,
      limite_de_compras: user.limite_de_compras,
      presupuesto_default: user.presupuesto_default,
      categorias: parseCategorias(user.categorias),
    };
  }
  return {
    usuario: '',
    user_id: '',
    nombre: '',
    rol: '1',
    direccion_entrega: '',
    calle: '',
    colonia: '',
    ciudad: '',
    cp: '',
    estado: '',
    area: '',
    localidad: '',
    region: '',
    coordinacion: '',
    active_week: null,
    entrega_week: null,
    activo: true,
    limite_de_compras: client.limite_de_compras,
    presupuesto_default: client.presupuesto_default >= 1 ? client.presupuesto_default : '',
    categorias: {},
  };
}

function rolOptions(client: ClientDto, currentRol: number | null) {
  const options = [
    { value: '1', label: 'Usuario' },
    { value: '2', label: 'Autorizador' },
  ];
  if (client.cantidad_autorizadores === 2 || currentRol === ROLES.superAutorizador) {
    options.push({ value: '3', label: 'Super Autorizador' });
  }
  return options;
}

const amount = (v: number | string) => (typeof v === 'number' ? v : Number(v) || 0);

function CategoryBudgets({
  categories,
  loading,
  values,
  errors,
  onChange,
}: {
  categories: AdminCategoryDto[];
  loading: boolean;
  values: Record<string, number | string>;
  errors: Record<string, ReactNode>;
  onChange: (id: number, value: number | string) => void;
}) {
  if (loading) return <Skeleton height={120} radius="md" aria-label="Cargando categorías" />;
  if (categories.length === 0) {
    return (
      <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />}>
        Este cliente aún no tiene categorías. Créalas en Inventario para asignar presupuestos por categoría.
      </Alert>
    );
  }
  const total = categories.reduce((sum, c) => sum + Math.max(0, amount(values[String(c.id)] ?? 0)), 0);
  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        {categories.map((c) => (
          <NumberInput
            key={c.id}
            label={c.nombre}
            leftSection={<CategoryIcon name={c.icono} size={16} />}
            prefix="$"
            min={0}
            decimalScale={2}
            fixedDecimalScale
            thousandSeparator=","
            allowNegative={false}
            placeholder="$0.00"
            value={values[String(c.id)] ?? ''}
            onChange={(v) => onChange(c.id, v)}
            error={errors[`categorias.${c.id}`]}
          />
        ))}
      </SimpleGrid>
      <Paper bg="indigo.0" radius="md" p="sm">
        <Group justify="space-between">
          <Text size="sm" fw={500}>
            Presupuesto total
          </Text>
          <Text fw={700} style={{ fontVariantNumeric: 'tabular-nums' }} data-testid="presupuesto-total">
            {formatMXN(total)}
          </Text>
        </Group>
        <Text size="xs" c="dimmed">
          Solo se guardan las categorías con presupuesto mayor a 0.
        </Text>
      </Paper>
    </Stack>
  );
}

interface UserFormProps {
  client: ClientDto;
  user: UserDto | null;
  onDone: () => void;
  onCancel: () => void;
}

/**
 * The form asks for what the API would otherwise default: a purchase limit always and, in regular mode, a
 * budget of at least $1.00 (the server's users.service refuses less for a regular-mode user).
 */
const CategoryModeUser = UserBody.extend({
  limite_de_compras: UserBody.shape.limite_de_compras.refine(
    (v) => v !== undefined,
    MSG.limiteComprasInvalido,
  ),
});
const RegularModeUser = CategoryModeUser.extend({
  presupuesto_default: UserBody.shape.presupuesto_default.refine(
    (v) => v !== undefined && v >= 1,
    MSG.presupuestoUsuarioMinimo,
  ),
});

/**
 * The form's values as the body of POST/PUT /api/usuarios, before the schema reads them: the budget of the
 * client's mode (in category mode, the known categories above 0).
 */
function toBody(values: Values, client: ClientDto, categories: AdminCategoryDto[] | undefined) {
  const { categorias, presupuesto_default, ...rest } = values;
  const categoryMode = client.modo_presupuesto === 'categoria';
  const known = new Set((categories ?? []).map((c) => String(c.id)));
  return {
    ...rest,
    id_cliente: client.id,
    presupuesto_default: categoryMode ? undefined : presupuesto_default,
    categorias: categoryMode
      ? Object.entries(categorias)
          .filter(([id, v]) => known.has(id) && amount(v) > 0)
          .map(([id, v]) => ({ id: Number(id), presupuesto: amount(v) }))
      : undefined,
  };
}

/** The schema names a category budget by its place in the list sent; the form by the category's id. */
function byCategoryId(
  errors: Record<string, ReactNode>,
  sent: { id: number }[] | undefined,
): Record<string, ReactNode> {
  return Object.fromEntries(
    Object.entries(errors).map(([path, message]) => {
      const match = /^categorias\.(\d+)/.exec(path);
      const category = match ? sent?.[Number(match[1])] : undefined;
      return [category ? `categorias.${category.id}` : path, message];
    }),
  );
}

function UserForm({ client, user, onDone, onCancel }: UserFormProps) {
  const save = useSaveUser();
  const categoryMode = client.modo_presupuesto === 'categoria';
  const categories = useClientCategories(client.id, categoryMode);
  const [formError, setFormError] = useState<{ title: string; text: ReactNode } | null>(null);
  const schema = categoryMode ? CategoryModeUser : RegularModeUser;
  const form = useForm<Values>({
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
  const errorRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (formError) errorRef.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }, [formError]);

  const submit = form.onSubmit(
    (values) => {
      setFormError(null);
      const input = schema.parse(toBody(values, client, categories.data));
      save.mutate(
        { id: user?.id ?? null, input },
        {
          onSuccess: () => {
            showSuccess(user ? MSG.modificadoCorrectamente : MSG.creadoCorrectamente);
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
              data={rolOptions(client, user?.rol ?? null)}
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
              label="Semana de acceso"
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
        </FormSection>

        <FormSection
          title="Presupuesto y límites"
          description={
            categoryMode
              ? 'Este cliente usa presupuesto por categoría: asigna un monto mensual (MXN) a cada una.'
              : undefined
          }
        >
          {categoryMode ? (
            <CategoryBudgets
              categories={categories.data ?? []}
              loading={categories.isPending}
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
                {...form.getInputProps('presupuesto_default')}
              />
            )}
            <NumberInput
              label="Límite de compras"
              description="Pedidos al mes (-1 = sin límite)"
              min={-1}
              allowDecimal={false}
              {...form.getInputProps('limite_de_compras')}
            />
          </SimpleGrid>
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

      <Paper
        pos="sticky"
        bottom={0}
        mt="xl"
        py="md"
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
            <Button variant="default" onClick={onCancel} disabled={busy}>
              Cancelar
            </Button>
            <Button type="submit" loading={busy} leftSection={<IconDeviceFloppy size={18} aria-hidden />}>
              {user ? 'Guardar cambios' : 'Crear usuario'}
            </Button>
          </Group>
        </Stack>
      </Paper>
    </form>
  );
}

interface UserFormDrawerProps {
  opened: boolean;
  /** The client of a new user (create), or the clients to find an edited user's own client in. */
  client: ClientDto | null;
  clients: ClientDto[];
  /** null: a new user. */
  userId: number | null;
  onClose: () => void;
}

/** The drawer: for an edit it loads the user first ('Usuario no encontrado' for an unknown id). */
export function UserFormDrawer({ opened, client, clients, userId, onClose }: UserFormDrawerProps) {
  const phone = useMediaQuery('(max-width: 48em)');
  const userQuery = useUser(opened ? userId : null);
  const user = userId ? (userQuery.data?.usuario ?? null) : null;
  const ownClient = user ? (clients.find((c) => c.id === user.id_cliente) ?? null) : client;

  let body: ReactNode;
  if (userId && userQuery.isPending) {
    body = (
      <Center py={64}>
        <Loader aria-label="Cargando usuario" />
      </Center>
    );
  } else if (userId && userQuery.isError) {
    const notFound = isApiError(userQuery.error) && userQuery.error.status === 404;
    body = (
      <Stack align="center" ta="center" py={48} gap="sm">
        <ThemeIcon size={56} radius="xl" variant="light" color={notFound ? 'gray' : 'red'} aria-hidden>
          <IconUserQuestion size={30} />
        </ThemeIcon>
        <Text fw={700} size="lg" role="alert">
          {notFound ? MSG.usuarioNoEncontrado : 'No se pudo cargar el usuario'}
        </Text>
        {notFound ? null : <Text c="dimmed">{errorMessage(userQuery.error)}</Text>}
        <Button variant="default" onClick={onClose}>
          Volver a la lista
        </Button>
      </Stack>
    );
  } else if (!ownClient) {
    body = (
      <Center py={64}>
        <Loader aria-label="Cargando cliente" />
      </Center>
    );
  } else {
    body = (
      <UserForm key={userId ?? 'nuevo'} client={ownClient} user={user} onDone={onClose} onCancel={onClose} />
    );
  }

  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="right"
      size={phone ? '100%' : 720}
      title={
        <Box>
          <Text fw={700} size="lg">
            {userId ? 'Editar usuario' : 'Agregar nuevo usuario'}
          </Text>
          {ownClient ? (
            <Text size="sm" c="dimmed">
              {ownClient.nombre}
              {user ? ` · ${user.usuario}` : ''}
            </Text>
          ) : null}
        </Box>
      }
      closeButtonProps={{ 'aria-label': 'Cerrar' }}
      padding="lg"
    >
      {body}
    </Drawer>
  );
}
