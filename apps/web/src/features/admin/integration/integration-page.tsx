/**
 * 'Integraciones' (rol 4): integration tokens for the /api/v1 API and webhook endpoints with their delivery
 * log (docs/integration.md). A token's value and a webhook's signing secret are shown once, right after
 * creation, with a copy button; the lists never carry them.
 */
import '@mantine/core/styles/Code.css';
import '@mantine/core/styles/Table.css';
import '@mantine/core/styles/Tabs.css';
import {
  Badge,
  Button,
  Checkbox,
  Code,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Tabs,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { type GetInputPropsReturnType, schemaResolver, useForm } from '@mantine/form';
import { API_SCOPES, TOKEN_MAX_DAYS, WEBHOOK_EVENTS } from '@portal/shared/domain/integration';
import {
  type DeliveryDto,
  TokenCreateBody,
  type TokenDto,
  WebhookCreateBody,
  type WebhookDto,
} from '@portal/shared/schemas/integration';
import { IconKey, IconWebhook } from '@tabler/icons-react';
import { useState } from 'react';
import { showSuccess } from '../../../components/ui/alerts';
import { confirmAction } from '../../../components/ui/confirm';
import { PageHeader } from '../../../components/ui/page';
import { Pager } from '../../../components/ui/pager';
import { Refusal } from '../../../components/ui/refusal';
import { ShownOnce } from '../../../components/ui/shown-once';
import { errorMessage, isApiError } from '../../../lib/api';
import { pageHeading } from '../../../lib/first-paint';
import { formatDateTime, formatOrderNumber } from '../../../lib/format';
import { useAllClients } from '../clients/client-select';
import {
  useCreateToken,
  useCreateWebhook,
  useDeactivateWebhook,
  useDeliveries,
  useResendDelivery,
  useRevokeToken,
  useTokens,
  useWebhooks,
} from './api';

const ALL_CLIENTS = 'todos';
const VALIDITY = [30, 90, 180, TOKEN_MAX_DAYS].map((d) => ({ value: String(d), label: `${d} días` }));

function useClientOptions() {
  const { data } = useAllClients();
  return [
    { value: ALL_CLIENTS, label: 'Todos los clientes' },
    ...(data?.clientes ?? []).map((c) => ({ value: String(c.id), label: c.nombre })),
  ];
}

/** The client a token or webhook is for ("Todos los clientes" or one), bound to its form field. */
function ClientScopeSelect({ value, onChange, error }: GetInputPropsReturnType) {
  const clients = useClientOptions();
  return (
    <Select
      label="Cliente"
      data={clients}
      value={value}
      onChange={(v) => onChange(v ?? ALL_CLIENTS)}
      searchable
      allowDeselect={false}
      error={error}
    />
  );
}

/** Checkboxes for a list of choices (the scopes, the events), bound to its form field. */
function ChoiceGroup({
  label,
  options,
  value,
  onChange,
  error,
}: { label: string; options: readonly string[] } & GetInputPropsReturnType) {
  return (
    <Checkbox.Group label={label} value={value} onChange={onChange} error={error}>
      <Stack gap={6} mt={6}>
        {options.map((o) => (
          <Checkbox key={o} value={o} label={o} />
        ))}
      </Stack>
    </Checkbox.Group>
  );
}

function EmptyRow({ cols, text }: { cols: number; text: string }) {
  return (
    <Table.Tr>
      <Table.Td colSpan={cols}>
        <Text c="dimmed" size="sm">
          {text}
        </Text>
      </Table.Td>
    </Table.Tr>
  );
}

/** The token form's values: the body's fields as its inputs hold them (the client and validity as text). */
interface TokenValues {
  nombre: string;
  id_cliente: string;
  permisos: string[];
  vigencia_dias: string;
}

/** The client's choice as the body says it: null for every client. */
function clientScope(value: string): number | null {
  return value === ALL_CLIENTS ? null : Number(value);
}

/** The token form as the body of POST /api/integracion/tokens. */
function tokenBody(values: TokenValues) {
  return {
    ...values,
    id_cliente: clientScope(values.id_cliente),
    vigencia_dias: Number(values.vigencia_dias),
  };
}

interface WebhookValues {
  url: string;
  id_cliente: string;
  eventos: string[];
}

/** The webhook form as the body of POST /api/integracion/webhooks. */
function webhookBody(values: WebhookValues) {
  return { ...values, id_cliente: clientScope(values.id_cliente) };
}

/** A refused form: field messages under their fields, anything else under '_' (shown above the button). */
function formErrors(setErrors: (e: Record<string, string>) => void) {
  return (err: unknown) => {
    const fields = isApiError(err) ? err.errors : undefined;
    setErrors(fields ?? { _: errorMessage(err) });
  };
}

const TOKEN_STATE: Record<TokenDto['estado'], { label: string; color: string }> = {
  activo: { label: 'Activo', color: 'teal' },
  revocado: { label: 'Revocado', color: 'red' },
  vencido: { label: 'Vencido', color: 'gray' },
};

function TokensPanel() {
  const [page, setPage] = useState(1);
  const tokens = useTokens(page);
  const create = useCreateToken();
  const revoke = useRevokeToken();
  const form = useForm<TokenValues>({
    initialValues: { nombre: '', id_cliente: ALL_CLIENTS, permisos: ['pedidos:leer'], vigencia_dias: '90' },
    validate: (values) => schemaResolver(TokenCreateBody, { sync: true })(tokenBody(values)),
  });
  const [shown, setShown] = useState<string | null>(null);

  const submit = form.onSubmit((values) => {
    create.mutate(TokenCreateBody.parse(tokenBody(values)), {
      onSuccess: (res) => {
        setShown(res.valor);
        form.setFieldValue('nombre', '');
        showSuccess(res.msg);
      },
      onError: formErrors(form.setErrors),
    });
  });

  const askRevoke = (t: TokenDto) =>
    confirmAction({
      title: `¿Revocar el token «${t.nombre}»?`,
      message: (
        <Text size="sm">
          Las solicitudes con el token {t.prefijo}… ({t.cliente ?? 'todos los clientes'}) se rechazarán desde
          este momento y no se puede volver a activar.{' '}
          {t.ultimo_uso ? `Se usó por última vez el ${formatDateTime(t.ultimo_uso)}.` : 'Nunca se ha usado.'}
        </Text>
      ),
      confirmLabel: 'Revocar',
      danger: true,
      onConfirm: async () => {
        await revoke.mutateAsync(t.id);
        showSuccess('Token revocado');
      },
    });

  const rows = tokens.data?.tokens ?? [];
  return (
    <Stack>
      <Paper withBorder p="md" component="form" onSubmit={submit} aria-label="Nuevo token">
        <Title order={3} size="h4" mb="sm">
          Nuevo token
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
          <TextInput label="Nombre" placeholder="ERP de almacén" required {...form.getInputProps('nombre')} />
          <ClientScopeSelect {...form.getInputProps('id_cliente')} />
          <Select
            label="Vigencia"
            data={VALIDITY}
            allowDeselect={false}
            {...form.getInputProps('vigencia_dias')}
            onChange={(v) => form.setFieldValue('vigencia_dias', v ?? '90')}
          />
          <ChoiceGroup label="Permisos" options={API_SCOPES} {...form.getInputProps('permisos')} />
        </SimpleGrid>
        <Refusal error={form.errors._ ?? null} mt="md" />
        <Group justify="flex-end" mt="md">
          <Button type="submit" leftSection={<IconKey size={16} />} loading={create.isPending}>
            Crear token
          </Button>
        </Group>
      </Paper>
      {shown && <ShownOnce title="Token creado" value={shown} onClose={() => setShown(null)} />}
      <Table.ScrollContainer minWidth={760}>
        <Table striped highlightOnHover aria-label="Tokens de integración">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Nombre</Table.Th>
              <Table.Th>Token</Table.Th>
              <Table.Th>Cliente</Table.Th>
              <Table.Th>Permisos</Table.Th>
              <Table.Th>Estado</Table.Th>
              <Table.Th>Vence</Table.Th>
              <Table.Th>Último uso</Table.Th>
              <Table.Th>
                <VisuallyHidden>Acciones</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((t) => (
              <Table.Tr key={t.id}>
                <Table.Td>{t.nombre}</Table.Td>
                <Table.Td>
                  <Code>{t.prefijo}…</Code>
                </Table.Td>
                <Table.Td>{t.cliente ?? 'Todos'}</Table.Td>
                <Table.Td>{t.permisos.join(', ')}</Table.Td>
                <Table.Td>
                  <Badge color={TOKEN_STATE[t.estado].color} variant="light">
                    {TOKEN_STATE[t.estado].label}
                  </Badge>
                </Table.Td>
                <Table.Td>{formatDateTime(t.expira_en)}</Table.Td>
                <Table.Td>{t.ultimo_uso ? formatDateTime(t.ultimo_uso) : 'Nunca'}</Table.Td>
                <Table.Td>
                  {t.estado === 'activo' && (
                    <Button
                      size="compact-sm"
                      color="red"
                      variant="light"
                      onClick={() => askRevoke(t)}
                      aria-label={`Revocar ${t.nombre}`}
                    >
                      Revocar
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
            {rows.length === 0 && !tokens.isLoading && <EmptyRow cols={8} text="Aún no hay tokens." />}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Pager
        label="Páginas de tokens"
        total={Math.ceil((tokens.data?.total ?? 0) / (tokens.data?.per_page ?? 1))}
        value={page}
        onChange={setPage}
      />
    </Stack>
  );
}

const DELIVERY_STATE: Record<DeliveryDto['estado'], { label: string; color: string }> = {
  pendiente: { label: 'Reintentando', color: 'yellow' },
  enviando: { label: 'Enviando', color: 'blue' },
  entregado: { label: 'Entregado', color: 'teal' },
  fallido: { label: 'Fallido', color: 'red' },
};

function DeliveriesPanel({ webhook }: { webhook: WebhookDto }) {
  const [page, setPage] = useState(1);
  const [refusal, setRefusal] = useState<string | null>(null);
  const deliveries = useDeliveries(webhook.id, page);
  const resend = useResendDelivery();
  const rows = deliveries.data?.entregas ?? [];
  return (
    <Paper withBorder p="md">
      <Title order={3} size="h4" mb="sm">
        Entregas de {webhook.url}
      </Title>
      <Refusal error={refusal} onClose={() => setRefusal(null)} mb="sm" />
      <Table.ScrollContainer minWidth={760}>
        <Table striped aria-label="Bitácora de entregas">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Evento</Table.Th>
              <Table.Th>Pedido</Table.Th>
              <Table.Th>Estado</Table.Th>
              <Table.Th>Intentos</Table.Th>
              <Table.Th>Respuesta</Table.Th>
              <Table.Th>Latencia</Table.Th>
              <Table.Th>Último intento</Table.Th>
              <Table.Th>
                <VisuallyHidden>Acciones</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((d) => (
              <Table.Tr key={d.id}>
                <Table.Td>{d.tipo}</Table.Td>
                <Table.Td>{formatOrderNumber(d.id_pedido)}</Table.Td>
                <Table.Td>
                  <Badge color={DELIVERY_STATE[d.estado].color} variant="light">
                    {DELIVERY_STATE[d.estado].label}
                  </Badge>
                </Table.Td>
                <Table.Td>{d.intentos}</Table.Td>
                <Table.Td>{d.ultimo_error ?? (d.ultimo_codigo ? `HTTP ${d.ultimo_codigo}` : '—')}</Table.Td>
                <Table.Td>{d.ultima_latencia_ms === null ? '—' : `${d.ultima_latencia_ms} ms`}</Table.Td>
                <Table.Td>{d.ultimo_intento_en ? formatDateTime(d.ultimo_intento_en) : '—'}</Table.Td>
                <Table.Td>
                  <Button
                    size="compact-sm"
                    variant="light"
                    disabled={d.estado === 'enviando'}
                    loading={resend.isPending && resend.variables === d.id}
                    onClick={() =>
                      resend.mutate(d.id, {
                        onSuccess: () => {
                          setRefusal(null);
                          showSuccess('Reenvío programado');
                        },
                        onError: (err) => setRefusal(errorMessage(err)),
                      })
                    }
                    aria-label={`Reenviar la entrega ${d.id}`}
                  >
                    Reenviar
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
            {rows.length === 0 && !deliveries.isLoading && <EmptyRow cols={8} text="Aún no hay entregas." />}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Pager
        label="Páginas de entregas"
        total={Math.ceil((deliveries.data?.total ?? 0) / (deliveries.data?.per_page ?? 1))}
        value={page}
        onChange={setPage}
      />
    </Paper>
  );
}

function WebhooksPanel() {
  const [page, setPage] = useState(1);
  const webhooks = useWebhooks(page);
  const create = useCreateWebhook();
  const deactivate = useDeactivateWebhook();
  const _clients = useClientOptions();
  const form = useForm<WebhookValues>({
    initialValues: { url: '', id_cliente: ALL_CLIENTS, eventos: ['pedido.aprobado'] },
    validate: (values) => schemaResolver(WebhookCreateBody, { sync: true })(webhookBody(values)),
  });
  const [shown, setShown] = useState<string | null>(null);
  const [selected, setSelected] = useState<number | null>(null);

  const submit = form.onSubmit((values) => {
    create.mutate(WebhookCreateBody.parse(webhookBody(values)), {
      onSuccess: (res) => {
        setShown(res.secreto);
        form.setFieldValue('url', '');
        setSelected(res.webhook.id);
        showSuccess(res.msg);
      },
      onError: formErrors(form.setErrors),
    });
  });

  const rows = webhooks.data?.webhooks ?? [];
  const current = rows.find((w) => w.id === selected) ?? null;
  return (
    <Stack>
      <Paper withBorder p="md" component="form" onSubmit={submit} aria-label="Nuevo webhook">
        <Title order={3} size="h4" mb="sm">
          Nuevo webhook
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <TextInput
            label="URL"
            placeholder="https://erp.ejemplo.mx/portal/eventos"
            required
            {...form.getInputProps('url')}
          />
          <ClientScopeSelect {...form.getInputProps('id_cliente')} />
          <ChoiceGroup label="Eventos" options={WEBHOOK_EVENTS} {...form.getInputProps('eventos')} />
        </SimpleGrid>
        <Refusal error={form.errors._ ?? null} mt="md" />
        <Group justify="flex-end" mt="md">
          <Button type="submit" leftSection={<IconWebhook size={16} />} loading={create.isPending}>
            Registrar webhook
          </Button>
        </Group>
      </Paper>
      {shown && <ShownOnce title="Secreto de firma" value={shown} onClose={() => setShown(null)} />}
      <Table.ScrollContainer minWidth={760}>
        <Table striped highlightOnHover aria-label="Webhooks">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>URL</Table.Th>
              <Table.Th>Eventos</Table.Th>
              <Table.Th>Cliente</Table.Th>
              <Table.Th miw={130}>Estado</Table.Th>
              <Table.Th>Pendientes</Table.Th>
              <Table.Th>Fallidas</Table.Th>
              <Table.Th>
                <VisuallyHidden>Acciones</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((w) => (
              <Table.Tr key={w.id}>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{w.url}</Table.Td>
                <Table.Td>{w.eventos.join(', ')}</Table.Td>
                <Table.Td>{w.cliente ?? 'Todos'}</Table.Td>
                <Table.Td>
                  <Badge color={w.activo ? 'teal' : 'gray'} variant="light">
                    {w.activo ? 'Activo' : 'Desactivado'}
                  </Badge>
                </Table.Td>
                <Table.Td>{w.pendientes}</Table.Td>
                <Table.Td>{w.fallidas}</Table.Td>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    <Button
                      size="compact-sm"
                      variant="light"
                      onClick={() => setSelected(w.id)}
                      aria-label={`Ver entregas de ${w.url}`}
                    >
                      Entregas
                    </Button>
                    {w.activo && (
                      <Button
                        size="compact-sm"
                        variant="light"
                        color="red"
                        onClick={() =>
                          confirmAction({
                            title: `¿Desactivar el webhook de ${w.url}?`,
                            message: (
                              <Text size="sm">
                                No recibirá eventos nuevos
                                {w.pendientes === 0
                                  ? ' (no tiene entregas pendientes).'
                                  : w.pendientes === 1
                                    ? ' y su entrega pendiente se dará por fallida.'
                                    : ` y sus ${w.pendientes} entregas pendientes se darán por fallidas.`}
                              </Text>
                            ),
                            confirmLabel: 'Desactivar',
                            danger: true,
                            onConfirm: async () => {
                              await deactivate.mutateAsync(w.id);
                              showSuccess('Webhook desactivado');
                            },
                          })
                        }
                        aria-label={`Desactivar ${w.url}`}
                      >
                        Desactivar
                      </Button>
                    )}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
            {rows.length === 0 && !webhooks.isLoading && <EmptyRow cols={7} text="Aún no hay webhooks." />}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Pager
        label="Páginas de webhooks"
        total={Math.ceil((webhooks.data?.total ?? 0) / (webhooks.data?.per_page ?? 1))}
        value={page}
        onChange={setPage}
      />
      {current && <DeliveriesPanel key={current.id} webhook={current} />}
    </Stack>
  );
}

export function IntegrationPage() {
  return (
    <Stack>
      <PageHeader {...pageHeading('integraciones')} />
      <Tabs defaultValue="tokens" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="tokens" leftSection={<IconKey size={16} />}>
            Tokens
          </Tabs.Tab>
          <Tabs.Tab value="webhooks" leftSection={<IconWebhook size={16} />}>
            Webhooks
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="tokens" pt="md">
          <TokensPanel />
        </Tabs.Panel>
        <Tabs.Panel value="webhooks" pt="md">
          <WebhooksPanel />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
