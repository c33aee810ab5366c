/**
 * The form that adds an access week: start and end date pickers (the end defaults to
 * start + 4 days), the client dropdown (the distributor's: a client administrator adds to its own client)
 * and 'Agregar' ('Creando' while it runs). Checked with the shared
 * WeekCreateBody; the server's refusals (a duplicate, an overlap) show as notices.
 */
import '@mantine/dates/styles.css';
import { Button, Group, Loader, Paper, SimpleGrid, Text } from '@mantine/core';
import { DatePickerInput, DatesProvider } from '@mantine/dates';
import { schemaResolver, useForm } from '@mantine/form';
import { useMediaQuery } from '@mantine/hooks';
import { addDays } from '@portal/shared/domain/time';
import { MSG } from '@portal/shared/messages';
import { WeekCreateBody } from '@portal/shared/schemas/weeks';
import { IconCalendar, IconCalendarPlus, IconInfoCircle } from '@tabler/icons-react';
import { useState } from 'react';
import { showSuccess } from '../../../components/ui/alerts';
import { CALENDAR_LABELS } from '../../../components/ui/date-range-field';
import { Refusal } from '../../../components/ui/refusal';
import { isApiError } from '../../../lib/api';
import { applyFieldErrors, serverFieldErrors } from '../../../lib/form-errors';
import { ClientSelect } from '../clients/client-select';
import { useCreateWeek } from './api';

export const WEEK_CREATE_FAILED = 'No se pudo crear la información en la base de datos.';

interface WeekValues {
  inicio: string | null;
  fin: string | null;
}

/** The picked dates and the chosen client as the body of POST /api/calendario_semanas. */
function toBody(values: WeekValues, idCliente: number | null) {
  return { ...values, id_cliente: idCliente ?? undefined };
}

interface WeekFormProps {
  idCliente: number | null;
  /** The client dropdown's change; without it the form has none (a client administrator's own client). */
  onClientChange?: (id: number | null) => void;
}

export function WeekForm({ idCliente, onClientChange }: WeekFormProps) {
  const phone = useMediaQuery('(max-width: 36em)');
  const form = useForm<WeekValues>({
    initialValues: { inicio: null, fin: null },
    validate: (values) => schemaResolver(WeekCreateBody, { sync: true })(toBody(values, idCliente)),
  });
  const { inicio, fin } = form.values;
  const create = useCreateWeek();
  const [refusal, setRefusal] = useState<string | null>(null);
  const canAdd = Boolean(inicio && fin && idCliente) && !create.isPending;

  const add = form.onSubmit((values) => {
    if (create.isPending) return;
    setRefusal(null);
    create.mutate(WeekCreateBody.parse(toBody(values, idCliente)), {
      onSuccess: () => {
        showSuccess(MSG.creadoCorrectamente);
        form.reset();
      },
      onError: (error) => {
        // A date's own refusal under its field; duplicate, overlap and the rest under the form.
        applyFieldErrors(form, error);
        const onFields = Object.keys(serverFieldErrors(error)).some((f) => f === 'inicio' || f === 'fin');
        if (onFields) return;
        const known = isApiError(error) && error.status >= 400 && error.status < 500 && error.msg;
        setRefusal(known ? error.msg : WEEK_CREATE_FAILED);
      },
    });
  });

  return (
    <Paper withBorder radius="lg" shadow="xs" p={{ base: 'sm', sm: 'md' }} mt={-8}>
      <DatesProvider settings={{ locale: 'es', firstDayOfWeek: 1 }}>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: onClientChange ? 4 : 3 }} spacing="md" verticalSpacing="sm">
          <DatePickerInput
            label="Fecha de inicio"
            placeholder="Elige el primer día"
            valueFormat="DD/MM/YYYY"
            value={inicio}
            onChange={(value) => {
              const start = value ? String(value).slice(0, 10) : null;
              form.setFieldValue('inicio', start);
              if (start) form.setFieldValue('fin', addDays(start, 4));
            }}
            error={form.errors.inicio}
            clearable
            leftSection={<IconCalendar size={18} aria-hidden />}
            dropdownType={phone ? 'modal' : 'popover'}
            ariaLabels={CALENDAR_LABELS}
            popoverProps={{ withinPortal: true }}
          />
          <DatePickerInput
            label="Fecha de fin"
            placeholder="Elige el último día"
            valueFormat="DD/MM/YYYY"
            value={fin}
            onChange={(value) => form.setFieldValue('fin', value ? String(value).slice(0, 10) : null)}
            error={form.errors.fin}
            minDate={inicio ?? undefined}
            clearable
            leftSection={<IconCalendar size={18} aria-hidden />}
            dropdownType={phone ? 'modal' : 'popover'}
            ariaLabels={CALENDAR_LABELS}
            popoverProps={{ withinPortal: true }}
          />
          {onClientChange ? <ClientSelect value={idCliente} onChange={onClientChange} /> : null}
          <Button
            onClick={() => add()}
            disabled={!canAdd}
            style={{ alignSelf: 'end' }}
            leftSection={
              create.isPending ? (
                <Loader size={16} color="currentColor" aria-hidden />
              ) : (
                <IconCalendarPlus size={18} aria-hidden />
              )
            }
          >
            {create.isPending ? 'Creando' : 'Agregar'}
          </Button>
        </SimpleGrid>
      </DatesProvider>
      <Refusal error={refusal} onClose={() => setRefusal(null)} mt="sm" />
      <Group gap={6} mt="sm" wrap="nowrap" align="flex-start" c="dimmed">
        <IconInfoCircle size={16} style={{ flexShrink: 0, marginTop: 2 }} aria-hidden />
        <Text size="xs">
          {onClientChange ? 'Un cliente sin semanas' : 'Sin semanas, tu empresa'} permite el acceso todos los
          días. Con una o más, sus usuarios solo entran y compran dentro de una semana activa (inicio y fin
          incluidos). Las semanas no pueden empalmarse.
        </Text>
      </Group>
    </Paper>
  );
}
