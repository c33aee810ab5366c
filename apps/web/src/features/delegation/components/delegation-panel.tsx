/**
 * "Fuera de oficina" (decision 0053): one person's delegation — the current one in a sentence, whom they act
 * for today, and the form that names a delegate for a window of dates or ends it. One component for both
 * endpoints: the authorizer's own (profile menu) and the administrator's, for any user (the user drawer).
 */
import { Alert, Badge, Button, Group, Paper, Select, Stack, Text, ThemeIcon } from '@mantine/core';
import { useForm } from '@mantine/form';
import { DELEGATION_MAX_DAYS, onBehalfSentence } from '@portal/shared/domain/delegation';
import { MSG } from '@portal/shared/messages';
import { IconAlertCircle, IconPlaneDeparture, IconUserShare } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { showSuccess } from '../../../components/ui/alerts';
import { confirmAction } from '../../../components/ui/confirm';
import { DateRangeField } from '../../../components/ui/date-range-field';
import { LoadError, LoadingRows } from '../../../components/ui/list-states';
import { Refusal } from '../../../components/ui/refusal';
import { errorMessage } from '../../../lib/api';
import {
  type DelegationState,
  type DelegationTarget,
  endDelegation,
  fetchDelegation,
  saveDelegation,
} from '../api/delegation';
import {
  type DelegationValues,
  delegationErrorField,
  delegationFormErrors,
  delegationSentence,
  roleName,
} from '../lib/delegation';

interface DelegationPanelProps {
  target: DelegationTarget;
  /** After a save or an end (the profile menu closes its dialog). */
  onDone?: () => void;
}

export function DelegationPanel({ target, onDone }: DelegationPanelProps) {
  const state = useQuery({
    queryKey: target.queryKey,
    queryFn: ({ signal }) => fetchDelegation(target, signal),
    staleTime: 0,
  });
  if (state.isPending) return <LoadingRows label="Cargando delegación" rows={3} />;
  if (state.isError)
    return (
      <LoadError
        title="No se pudo cargar la delegación"
        error={state.error}
        onRetry={() => void state.refetch()}
      />
    );
  const d = state.data.delegacion;
  // A new form for each saved state: its fields start from what the server holds.
  const key = d ? `${d.delegado.id}:${d.desde}:${d.hasta}` : 'sin-delegacion';
  return <DelegationEditor key={key} target={target} state={state.data} onDone={onDone} />;
}

/** The current delegation in a sentence with its state, or "Sin delegación". */
function CurrentDelegation({ state, self }: { state: DelegationState; self: boolean }) {
  const d = state.delegacion;
  return (
    <Paper withBorder radius="md" p="md" data-testid="delegacion-actual">
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <ThemeIcon size={36} radius="md" variant="light" color={d?.activa ? 'teal' : 'gray'} aria-hidden>
          <IconPlaneDeparture size={20} />
        </ThemeIcon>
        <Stack gap={4} miw={0} style={{ flex: 1 }}>
          {d ? (
            <Group gap="xs" wrap="wrap" justify="space-between">
              <Text fw={600} size="sm">
                {delegationSentence(d, self)}
              </Text>
              <Badge color={d.activa ? 'teal' : 'blue'} variant="light">
                {d.activa ? 'Activa' : 'Programada'}
              </Badge>
            </Group>
          ) : (
            <Text fw={600} size="sm">
              Sin delegación
            </Text>
          )}
          <Text size="xs" c="dimmed">
            {self
              ? 'Mientras estés fuera, tu delegado aprueba y cancela con tu nivel los pedidos que te tocan y recibe tus correos de pedidos.'
              : 'Mientras esté fuera, su delegado aprueba y cancela con su nivel los pedidos que le tocan y recibe sus correos de pedidos.'}
          </Text>
        </Stack>
      </Group>
    </Paper>
  );
}

function DelegationEditor({
  target,
  state,
  onDone,
}: {
  target: DelegationTarget;
  state: DelegationState;
  onDone?: () => void;
}) {
  const queryClient = useQueryClient();
  const current = state.delegacion;
  const form = useForm<DelegationValues>({
    mode: 'controlled',
    initialValues: {
      delegado_id: current ? String(current.delegado.id) : null,
      desde: current?.desde ?? null,
      hasta: current?.hasta ?? null,
    },
    validate: (values) => delegationFormErrors(values, state.hoy),
  });

  // A refusal that belongs to no field, above the panel's buttons.
  const [refusal, setRefusal] = useState<string | null>(null);
  const settle = (next: DelegationState, message: string) => {
    setRefusal(null);
    queryClient.setQueryData(target.queryKey, next);
    showSuccess(message);
    onDone?.();
  };
  const save = useMutation({
    mutationFn: (values: DelegationValues) =>
      saveDelegation(target, {
        delegado_id: Number(values.delegado_id),
        desde: values.desde ?? '',
        hasta: values.hasta ?? '',
      }),
    onSuccess: (next) => settle(next, MSG.delegacionGuardada),
    onError: (error) => {
      const placed = delegationErrorField(error);
      if (placed?.field) form.setFieldError(placed.field, placed.message);
      else setRefusal(errorMessage(error));
    },
  });
  const end = useMutation({
    mutationFn: () => endDelegation(target),
    onSuccess: (next) => settle(next, MSG.delegacionTerminadaOk),
  });
  const busy = save.isPending || end.isPending;

  const confirmEnd = () => {
    if (!current) return;
    confirmAction({
      title: 'Terminar delegación',
      message: (
        <Text size="sm">
          {current.delegado.nombre} {current.activa ? 'dejará de aprobar' : 'ya no aprobará'}{' '}
          {target.self ? 'en tu nombre' : 'en su nombre'}
          {current.activa ? ' desde ahora.' : ' en esas fechas.'}
        </Text>
      ),
      confirmLabel: 'Terminar delegación',
      danger: true,
      onConfirm: () => end.mutateAsync(),
    });
  };

  const options = state.candidatos.map((c) => ({
    value: String(c.id),
    label: `${c.nombre} · ${roleName(c.rol)}`,
  }));
  // The saved delegate is no longer a candidate (deactivated, another role): still shown as chosen.
  if (current && !options.some((o) => o.value === String(current.delegado.id))) {
    options.push({
      value: String(current.delegado.id),
      label: `${current.delegado.nombre} · ${roleName(current.delegado.rol)}`,
    });
  }

  return (
    <Stack gap="md">
      <CurrentDelegation state={state} self={target.self} />

      {target.self && state.en_nombre_de.length > 0 ? (
        <Stack gap={4}>
          {state.en_nombre_de.map((p) => (
            <Group key={p.id} gap="xs" wrap="nowrap">
              <IconUserShare size={16} color="var(--mantine-color-blue-7)" aria-hidden />
              <Text size="sm">{onBehalfSentence(p.nombre, p.hasta)}</Text>
            </Group>
          ))}
        </Stack>
      ) : null}

      {state.candidatos.length === 0 && !current ? (
        <Alert color="gray" variant="light" radius="md" icon={<IconAlertCircle size={18} />}>
          {target.self
            ? 'No hay otro Autorizador ni Super Autorizador activo en tu cliente: por ahora no tienes en quién delegar.'
            : 'No hay otro Autorizador ni Super Autorizador activo en su cliente: por ahora no tiene en quién delegar.'}
        </Alert>
      ) : (
        <form
          onSubmit={form.onSubmit((values) => {
            setRefusal(null);
            save.mutate(values);
          })}
          noValidate
        >
          <Stack gap="sm">
            <Select
              label="Delegar en"
              placeholder="Elige a un Autorizador o Super Autorizador"
              data={options}
              withAsterisk
              searchable
              nothingFoundMessage="Nadie con ese nombre"
              comboboxProps={{ withinPortal: true }}
              {...form.getInputProps('delegado_id')}
            />
            <DateRangeField
              label="Fechas fuera de oficina"
              description={`Ambos días incluidos; como máximo ${DELEGATION_MAX_DAYS} días.`}
              desde={form.values.desde}
              hasta={form.values.hasta}
              minDate={state.hoy}
              clearable={false}
              withAsterisk
              error={form.errors.fechas}
              onChange={(desde, hasta) => {
                form.setValues({ desde, hasta });
                form.clearFieldError('fechas');
              }}
            />
            <Refusal error={refusal} onClose={() => setRefusal(null)} />
            <Group justify="flex-end" gap="sm" mt="xs">
              {current ? (
                <Button
                  variant="subtle"
                  color="red"
                  onClick={confirmEnd}
                  disabled={busy}
                  loading={end.isPending}
                >
                  Terminar delegación
                </Button>
              ) : null}
              {/* In the user drawer, apart from the user form's own save button. */}
              <Button type="submit" loading={save.isPending} disabled={busy}>
                {target.self ? 'Guardar' : 'Guardar delegación'}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Stack>
  );
}

export default DelegationPanel;
