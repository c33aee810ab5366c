/**
 * «Lista de personal» (decision 0122): a client's full list of people as a CSV (usuario, correo, nombre, rol
 * optional) is first previewed — who gets an account, who is updated, who comes back, who leaves, and the
 * errors by row — and only then applied, after a confirmation that names the leavers. A client
 * administrator (rol 5) applies its own client's, with its client's `usuarios`; the distributor any
 * client's, chosen in `?cliente=` (it follows from screen to screen; opened from that client's Usuarios). A
 * list with any error changes nothing; the server's refusals are shown as it sends them. The upload reuses
 * the imports' file picker, steps and refused-rows table.
 */
import '@mantine/core/styles/Table.css';
import {
  Alert,
  Anchor,
  Badge,
  Box,
  Button,
  Group,
  List,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import type { ImportRowError } from '@portal/shared/schemas/imports';
import type { RosterSyncResponse } from '@portal/shared/schemas/roster-sync';
import {
  IconAlertTriangle,
  IconCircleCheck,
  IconDownload,
  IconEye,
  IconFileSearch,
  IconInfoCircle,
  IconUsersGroup,
} from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { Link } from 'react-router';
import { showSuccess } from '../../../components/ui/alerts';
import { ChooseClientFirst } from '../../../components/ui/choose-client';
import { confirmAction } from '../../../components/ui/confirm';
import { PageHeader } from '../../../components/ui/page';
import { errorMessage, isApiError } from '../../../lib/api';
import { withClient } from '../../../lib/chosen-client';
import { formatCount } from '../../../lib/format';
import { ClientSelect, ClientsLoadProblem, useAllClients, useSelectedClient } from '../clients/client-select';
import { CsvFilePicker } from '../imports/csv-file-picker';
import { RowErrorsTable } from '../imports/import-result';
import { Step } from '../imports/step';
import { areaPath, mayChangeUsers } from '../scope';
import { useAdminScope } from '../scope-context';
import { useRosterSync } from './api';
import {
  changedFields,
  downloadRosterTemplate,
  people,
  ROSTER_MAX_BYTES,
  ROSTER_TEMPLATE_FILENAME,
  refusedRows,
  roleName,
} from './roster-sync';

type Detail = RosterSyncResponse['detalle'];

export function RosterSyncPage() {
  const scope = useAdminScope();
  if (!scope.client) return <AnyClientRosterSync />;
  return (
    <Stack gap="lg">
      <PageHeader
        title="Lista de personal"
        description="Sube la lista completa de tu personal en CSV: se da de alta a quien no tiene cuenta, se actualiza a quien cambió y se da de baja a quien ya no está. Antes de aplicarla ves qué va a cambiar."
      />
      {mayChangeUsers(scope) ? (
        <RosterSync
          idCliente={null}
          accounts="las cuentas de tu empresa"
          usersPath={`${areaPath(scope)}/usuarios`}
        />
      ) : (
        <Alert color="gray" variant="light" icon={<IconEye size={18} />} mt={-8}>
          Tu distribuidor no te permite cambiar las cuentas de tu empresa, así que no puedes aplicar una lista
          de personal. Para hacerlo, pídelo a tu distribuidor.
        </Alert>
      )}
    </Stack>
  );
}

/** The distributor's screen: the list of the client chosen in `?cliente=`. */
function AnyClientRosterSync() {
  const [idCliente, setCliente] = useSelectedClient();
  const clients = useAllClients();
  const client = clients.data?.clientes.find((c) => c.id === idCliente) ?? null;
  return (
    <Stack gap="lg">
      <PageHeader
        title="Lista de personal"
        description="Sube en CSV la lista completa del personal de un cliente: se da de alta a quien no tiene cuenta, se actualiza a quien cambió y se da de baja a quien ya no está. Antes de aplicarla ves qué va a cambiar."
      />
      <Paper withBorder radius="lg" shadow="xs" p={{ base: 'sm', sm: 'md' }} mt={-8}>
        <Box w={{ base: '100%', sm: 380 }}>
          <ClientSelect value={idCliente} onChange={(id) => setCliente(id)} />
        </Box>
      </Paper>
      {idCliente === null ? (
        <ChooseClientFirst description="Selecciona un cliente en la lista de arriba para revisar y aplicar su lista de personal." />
      ) : (
        // Another client is another list: what was picked, previewed or applied does not carry over.
        <RosterSync
          key={idCliente}
          idCliente={idCliente}
          accounts={client ? `las cuentas de ${client.nombre}` : 'las cuentas del cliente'}
          usersPath={withClient('/administrador/usuarios', idCliente)}
        />
      )}
      <ClientsLoadProblem />
    </Stack>
  );
}

/** A refused list: the server's message and the rows it names. */
interface Refused {
  msg: string;
  rows: ImportRowError[];
}

interface RosterSyncProps {
  /** The client the distributor chose; null: a client administrator's own (the server knows it). */
  idCliente: number | null;
  /** Whose accounts the list is matched with: 'las cuentas de tu empresa', 'las cuentas de Acme'. */
  accounts: string;
  /** Where those accounts are listed. */
  usersPath: string;
}

function RosterSync({ idCliente, accounts, usersPath }: RosterSyncProps) {
  const sync = useRosterSync();
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [preview, setPreview] = useState<RosterSyncResponse | null>(null);
  const [applied, setApplied] = useState<RosterSyncResponse | null>(null);
  const [refused, setRefused] = useState<Refused | null>(null);

  const startOver = () => {
    setPreview(null);
    setApplied(null);
    setRefused(null);
  };
  const refuse = (error: unknown) =>
    setRefused({ msg: errorMessage(error), rows: isApiError(error) ? refusedRows(error.errors) : [] });

  const review = () => {
    if (!file) return;
    startOver();
    sync.mutate({ file, preview: true, idCliente }, { onSuccess: setPreview, onError: refuse });
  };

  const apply = () => {
    if (!file || !preview) return;
    // A refusal (the list changed since the preview, a lost permission…) is shown on the page with its rows.
    const run = async () => {
      setRefused(null);
      try {
        const res = await sync.mutateAsync({ file, preview: false, idCliente });
        setApplied(res);
        setPreview(null);
        setFile(null);
        showSuccess('Lista aplicada', res.msg);
      } catch (error) {
        refuse(error);
      }
    };
    if (preview.bajas === 0) {
      void run();
      return;
    }
    confirmAction({
      title: '¿Aplicar la lista de personal?',
      message: (
        <Stack gap="xs">
          <Text>
            Se dará de baja a {people(preview.bajas)}: no podrán iniciar sesión, se cerrarán sus sesiones
            abiertas y sus pedidos en espera se retirarán.
          </Text>
          <Text size="sm" c="dimmed">
            {preview.msg}
          </Text>
        </Stack>
      ),
      confirmLabel: 'Aplicar la lista',
      danger: true,
      onConfirm: run,
    });
  };

  return (
    <Stack gap="lg" mt={-8}>
      <Paper withBorder radius="lg" shadow="xs" p={{ base: 'sm', sm: 'lg' }}>
        <Stack gap="xl">
          <Step n={1} title="Prepara la lista" order={2}>
            <Columns />
            <Group gap="sm">
              <Button
                variant="light"
                leftSection={<IconDownload size={16} aria-hidden />}
                onClick={downloadRosterTemplate}
              >
                Descargar plantilla
              </Button>
              <Text size="xs" c="dimmed">
                {ROSTER_TEMPLATE_FILENAME}
              </Text>
            </Group>
          </Step>
          <Step n={2} title="Sube el archivo y revisa los cambios" order={2}>
            <CsvFilePicker
              file={file}
              error={fileError}
              disabled={sync.isPending}
              maxBytes={ROSTER_MAX_BYTES}
              onPick={(chosen, error) => {
                startOver();
                setFile(chosen);
                setFileError(error);
              }}
              onRemove={() => {
                startOver();
                setFile(null);
              }}
            />
            <Group justify="flex-end">
              <Button
                leftSection={<IconFileSearch size={16} aria-hidden />}
                onClick={review}
                disabled={!file}
                loading={sync.isPending && sync.variables?.preview === true}
              >
                Revisar la lista
              </Button>
            </Group>
          </Step>
        </Stack>
      </Paper>

      {refused ? <RefusedList refused={refused} /> : null}
      {preview ? (
        <Preview
          result={preview}
          accounts={accounts}
          busy={sync.isPending}
          onApply={apply}
          onCancel={() => {
            startOver();
            setFile(null);
          }}
        />
      ) : null}
      {applied ? <Applied result={applied} accounts={accounts} usersPath={usersPath} /> : null}
    </Stack>
  );
}

/** The columns the list must have. */
function Columns() {
  return (
    <Stack gap={6}>
      <Text size="sm">
        Una fila por persona, con las columnas <Code>usuario</Code>, <Code>correo</Code>, <Code>nombre</Code>{' '}
        y, si quieres, <Code>rol</Code> (1 Usuario, 2 Autorizador, 3 Super Autorizador, o su nombre). Sin rol,
        una cuenta nueva es Usuario y una que ya existe conserva el suyo. Guárdala en Excel como «CSV UTF-8
        (delimitado por comas)».
      </Text>
      <Group gap={6} wrap="nowrap" align="flex-start" c="dimmed">
        <IconInfoCircle size={16} style={{ flexShrink: 0, marginTop: 2 }} aria-hidden />
        <Text size="xs">
          La lista debe estar completa: quien tenga una cuenta activa (Usuario, Autorizador o Super
          Autorizador) y no aparezca en ella se da de baja. Las cuentas de administrador de cliente nunca
          cambian.
        </Text>
      </Group>
    </Stack>
  );
}

function Code({ children }: { children: ReactNode }) {
  return (
    <Text span ff="monospace" size="sm" fw={600}>
      {children}
    </Text>
  );
}

/** The figures of a preview or of an applied list. */
function Figures({ result }: { result: RosterSyncResponse }) {
  const figures = [
    { label: 'Altas', value: result.altas, color: 'teal' },
    { label: 'Cambios', value: result.cambios, color: 'blue' },
    { label: 'Reactivados', value: result.reactivados, color: 'indigo' },
    { label: 'Bajas', value: result.bajas, color: 'red' },
    { label: 'Sin cambio', value: result.sin_cambio, color: undefined },
  ];
  return (
    <SimpleGrid cols={{ base: 2, xs: 3, md: 5 }} spacing="sm">
      {figures.map((f) => (
        <Paper key={f.label} withBorder radius="md" p="sm" data-testid={`cifra-${f.label}`}>
          <Text size="xs" c="dimmed">
            {f.label}
          </Text>
          <Text fw={700} fz="xl" c={f.value > 0 ? f.color : undefined}>
            {formatCount(f.value)}
          </Text>
        </Paper>
      ))}
    </SimpleGrid>
  );
}

/** The list was refused as a whole (errors by row, a bad header, no permission…): nothing changed. */
function RefusedList({ refused }: { refused: Refused }) {
  const rows = refused.rows.filter((r) => r.fila > 0);
  return (
    <Alert
      color="red"
      variant="light"
      icon={<IconAlertTriangle size={18} />}
      title="No se aplicó la lista"
      role="alert"
      data-testid="lista-rechazada"
    >
      <Stack gap="sm">
        <Text size="sm">{refused.msg}</Text>
        {rows.length > 0 ? <RowErrorsTable errores={rows} /> : null}
      </Stack>
    </Alert>
  );
}

function Preview({
  result,
  accounts,
  busy,
  onApply,
  onCancel,
}: {
  result: RosterSyncResponse;
  accounts: string;
  busy: boolean;
  onApply: () => void;
  onCancel: () => void;
}) {
  const errors = result.errores.length;
  const changes = result.altas + result.cambios + result.reactivados + result.bajas;
  return (
    <Paper
      withBorder
      radius="lg"
      shadow="xs"
      p={{ base: 'sm', sm: 'lg' }}
      component="section"
      aria-labelledby="vista-previa"
      data-testid="vista-previa"
    >
      <Stack gap="md">
        <Group justify="space-between" gap="xs">
          <Title order={2} fz="lg" id="vista-previa">
            Vista previa: aún no se cambió nada
          </Title>
          <Badge variant="light" color={errors > 0 ? 'red' : 'teal'}>
            {errors > 0 ? 'Con errores' : 'Lista correcta'}
          </Badge>
        </Group>
        {errors > 0 ? (
          <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title="Corrige la lista">
            <Stack gap="sm">
              <Text size="sm">
                {errors === 1 ? 'La lista tiene 1 error' : `La lista tiene ${formatCount(errors)} errores`}:
                corrígelos en el archivo y vuelve a revisarlo. Una lista con errores no cambia nada.
              </Text>
              <RowErrorsTable errores={result.errores} />
            </Stack>
          </Alert>
        ) : (
          <Text size="sm" fw={500}>
            {changes === 0 ? `La lista coincide con ${accounts}: no hay nada que cambiar.` : result.msg}
          </Text>
        )}
        <Figures result={result} />
        <People detail={result.detalle} result={result} />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={busy}>
            Cancelar
          </Button>
          <Button
            leftSection={<IconUsersGroup size={16} aria-hidden />}
            onClick={onApply}
            loading={busy}
            disabled={errors > 0 || changes === 0}
            color={result.bajas > 0 ? 'red' : undefined}
          >
            Aplicar la lista
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/** Who joins, changes, comes back and leaves (the server names up to 200 of each). */
function People({ detail, result }: { detail: Detail; result: RosterSyncResponse }) {
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
      <PeopleGroup
        title="Altas"
        hint="Reciben un correo para establecer su contraseña."
        total={result.altas}
        entries={detail.altas.map((p) => ({
          key: p.usuario,
          usuario: p.usuario,
          text: `${p.nombre} · ${p.correo}`,
          note: roleName(p.rol),
        }))}
      />
      <PeopleGroup
        title="Cambios"
        total={result.cambios}
        entries={detail.cambios.map((p) => ({
          key: p.usuario,
          usuario: p.usuario,
          text: `${p.nombre} · ${p.correo}`,
          note: `Cambia: ${changedFields(p.campos)}`,
        }))}
      />
      <PeopleGroup
        title="Reactivados"
        hint="Sus cuentas inactivas vuelven a funcionar."
        total={result.reactivados}
        entries={detail.reactivados.map((p) => ({
          key: p.usuario,
          usuario: p.usuario,
          text: `${p.nombre} · ${p.correo}`,
        }))}
      />
      <PeopleGroup
        title="Bajas"
        hint="No están en la lista: se desactivan, sus sesiones terminan y sus pedidos en espera se retiran."
        total={result.bajas}
        danger
        entries={detail.bajas.map((p) => ({
          key: p.usuario,
          usuario: p.usuario,
          text: `${p.nombre} · ${p.correo}`,
          note: roleName(p.rol),
        }))}
      />
    </SimpleGrid>
  );
}

interface Entry {
  key: string;
  usuario: string;
  text: string;
  note?: string;
}

/** One kind of change and its people (none: not shown). */
function PeopleGroup({
  title,
  hint,
  total,
  entries,
  danger = false,
}: {
  title: string;
  hint?: string;
  total: number;
  entries: Entry[];
  danger?: boolean;
}) {
  if (total === 0) return null;
  const id = `personas-${title.toLowerCase()}`;
  return (
    <Box
      component="section"
      aria-labelledby={id}
      data-testid={id}
      p="sm"
      style={{
        border: `1px solid var(--mantine-color-${danger ? 'red-3' : 'gray-3'})`,
        borderRadius: 'var(--mantine-radius-md)',
      }}
    >
      <Group justify="space-between" gap="xs" mb={4}>
        <Title order={3} fz="sm" id={id} c={danger ? 'red.8' : undefined}>
          {title}
        </Title>
        <Badge variant="light" color={danger ? 'red' : 'gray'}>
          {people(total)}
        </Badge>
      </Group>
      {hint ? (
        <Text size="xs" c="dimmed" mb={6}>
          {hint}
        </Text>
      ) : null}
      {/* A long list scrolls down: the scrolling box takes the keyboard focus to do so. */}
      <Box
        mah={240}
        style={{ overflowY: 'auto' }}
        tabIndex={0}
        role="region"
        aria-label={`${title}: personas`}
      >
        <List spacing={6} listStyleType="none" p={0} m={0}>
          {entries.map((e) => (
            <List.Item key={e.key}>
              <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                {e.usuario}
                {e.note ? (
                  <Text span size="xs" fw={400} c="dimmed">
                    {' '}
                    · {e.note}
                  </Text>
                ) : null}
              </Text>
              <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                {e.text}
              </Text>
            </List.Item>
          ))}
        </List>
      </Box>
      {total > entries.length ? (
        <Text size="xs" c="dimmed" mt={4}>
          Se muestran {formatCount(entries.length)} de {formatCount(total)}.
        </Text>
      ) : null}
    </Box>
  );
}

function Applied({
  result,
  accounts,
  usersPath,
}: {
  result: RosterSyncResponse;
  accounts: string;
  usersPath: string;
}) {
  return (
    <Alert
      color="teal"
      variant="light"
      icon={<IconCircleCheck size={18} />}
      title="Lista aplicada"
      data-testid="lista-aplicada"
    >
      <Stack gap="sm">
        <Text size="sm">{result.msg}</Text>
        <Figures result={result} />
        <Anchor component={Link} to={usersPath} size="sm" fw={600}>
          Ver {accounts} en Usuarios
        </Anchor>
      </Stack>
    </Alert>
  );
}
