/**
 * Report dialog: a date range (fecha_inicio, fecha_fin) and the type (general or detalle), checked with
 * the shared ReportBody, its messages on the fields; the CSV downloads as reporte.csv (decision 0014).
 */
import '@mantine/core/styles/RadioCard.css';
import '@mantine/dates/styles.css';
import { Alert, Group, Modal, Radio, SimpleGrid, Stack, Text } from '@mantine/core';
import { DatePickerInput, DatesProvider, type DatesRangeValue } from '@mantine/dates';
import { schemaResolver, useForm } from '@mantine/form';
import { useMediaQuery } from '@mantine/hooks';
import { addDays, businessDate } from '@portal/shared/domain/time';
import { MSG } from '@portal/shared/messages';
import { ReportBody } from '@portal/shared/schemas/orders';
import { IconCalendar, IconDownload, IconInfoCircle } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useState } from 'react';
import { showSuccess } from '../../../components/ui/alerts';
import { CALENDAR_LABELS } from '../../../components/ui/date-range-field';
import { DialogActions } from '../../../components/ui/dialog-actions';
import { isApiError } from '../../../lib/api';
import { getBusinessTimeZone } from '../../../lib/format';
import { downloadReport, REPORT_FILENAME, type ReportType } from '../api/reports';

type Range = DatesRangeValue<string>;

interface ReportValues {
  /** One picker for fecha_inicio and fecha_fin: their message shows under it. */
  periodo: Range;
  tipo: ReportType | null;
}

/** The picked period and type as the body of the report's POST. */
function toBody({ periodo: [inicio, fin], tipo }: ReportValues) {
  return { tipo: tipo ?? undefined, fecha_inicio: inicio ?? undefined, fecha_fin: fin ?? undefined };
}

/** The body's messages on the dialog's two fields (the dates' on the period). */
function fieldErrors<T>(errors: Record<string, T>): { periodo: T | undefined; tipo: T | undefined } {
  return { periodo: errors.fecha_inicio ?? errors.fecha_fin, tipo: errors.tipo };
}

const TYPES: { value: ReportType; label: string; description: string }[] = [
  {
    value: 'general',
    label: 'General',
    description: 'Un renglón por pedido: usuario, estatus, subtotal, IVA, total y datos de entrega.',
  },
  {
    value: 'detalle',
    label: 'Detalle',
    description: 'Un renglón por producto de cada pedido: claves, cantidad, precio unitario e IVA.',
  },
];

/** Quick ranges in the business zone, ending today at the latest. */
function presets(today: string) {
  const month = today.slice(0, 7);
  const prevMonthStart = dayjs(`${month}-01`).subtract(1, 'month');
  return [
    { value: [today, today] as [string, string], label: 'Hoy' },
    { value: [addDays(today, -6), today] as [string, string], label: 'Últimos 7 días' },
    { value: [`${month}-01`, today] as [string, string], label: 'Este mes' },
    {
      value: [prevMonthStart.format('YYYY-MM-DD'), prevMonthStart.endOf('month').format('YYYY-MM-DD')] as [
        string,
        string,
      ],
      label: 'Mes anterior',
    },
  ];
}

export function ReportDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const phone = useMediaQuery('(max-width: 36em)');
  const form = useForm<ReportValues>({
    initialValues: { periodo: [null, null], tipo: null },
    validate: (values) => fieldErrors(schemaResolver(ReportBody, { sync: true })(toBody(values))),
    // The period's message goes once both dates are picked (see its onChange), not at the first click.
    clearInputErrorOnChange: false,
  });
  const [refusal, setRefusal] = useState<string | null>(null);
  const today = businessDate(Date.now(), getBusinessTimeZone());

  const mutation = useMutation({
    mutationFn: downloadReport,
    onSuccess: () => {
      showSuccess('Reporte generado', `Se descargó el archivo ${REPORT_FILENAME}.`);
      form.clearErrors();
      onClose();
    },
    onError: (error) => {
      // The server's field message (for instance, a start date after the end) goes on the field.
      if (isApiError(error) && error.status === 400 && error.errors) {
        const errors = fieldErrors(error.errors);
        if (errors.periodo || errors.tipo) {
          form.setErrors(errors);
          return;
        }
      }
      setRefusal(MSG.reporteFallido);
    },
  });

  function close() {
    if (mutation.isPending) return;
    form.clearErrors();
    setRefusal(null);
    onClose();
  }

  const submit = form.onSubmit(
    (values) => {
      setRefusal(null);
      mutation.mutate(ReportBody.parse(toBody(values)));
    },
    () => setRefusal(null),
  );

  return (
    <Modal opened={opened} onClose={close} title="Generar reporte" size="lg" centered fullScreen={phone}>
      <DatesProvider settings={{ locale: 'es', firstDayOfWeek: 1, labelSeparator: '–' }}>
        <form onSubmit={submit} noValidate>
          <Stack gap="lg">
            <Text size="sm" c="dimmed">
              Descarga en CSV (se abre en Excel) los pedidos de tu empresa en el periodo que elijas, con todos
              sus estatus.
            </Text>
            <DatePickerInput
              type="range"
              label="Periodo"
              description="Fecha inicial y fecha final (incluidas)"
              placeholder="Elige la fecha inicial y la final"
              valueFormat="DD/MM/YYYY"
              value={form.values.periodo}
              onChange={(value) => {
                form.setFieldValue('periodo', value as Range);
                if (value[0] && value[1]) form.clearFieldError('periodo');
              }}
              maxDate={today}
              presets={presets(today)}
              allowSingleDateInRange
              clearable
              leftSection={<IconCalendar size={18} aria-hidden />}
              error={form.errors.periodo}
              dropdownType={phone ? 'modal' : 'popover'}
              // The calendar's controls and the clear button in Spanish (decision 0098).
              ariaLabels={CALENDAR_LABELS}
              clearButtonProps={{ 'aria-label': 'Borrar fechas' }}
              popoverProps={{ withinPortal: true }}
              data-testid="reporte-periodo"
            />
            <Radio.Group
              label="Tipo de reporte"
              value={form.values.tipo}
              onChange={(value) => {
                form.setFieldValue('tipo', value as ReportType);
                form.clearFieldError('tipo');
              }}
              error={form.errors.tipo}
            >
              <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm" mt="xs">
                {TYPES.map((t) => (
                  <Radio.Card key={t.value} value={t.value} radius="md" p="md">
                    <Group wrap="nowrap" align="flex-start" gap="sm">
                      <Radio.Indicator mt={2} />
                      <div>
                        <Text fw={600}>{t.label}</Text>
                        <Text size="sm" c="dimmed">
                          {t.description}
                        </Text>
                      </div>
                    </Group>
                  </Radio.Card>
                ))}
              </SimpleGrid>
            </Radio.Group>
            <Alert variant="light" color="gray" icon={<IconInfoCircle size={18} />} p="xs">
              <Text size="xs">
                Las fechas son de la zona horaria de la empresa. Los pedidos cancelados también aparecen, con
                su estatus.
              </Text>
            </Alert>
            <DialogActions
              error={refusal}
              busy={mutation.isPending}
              onCancel={close}
              confirmLabel="Descargar reporte"
              confirmIcon={<IconDownload size={18} aria-hidden />}
            />
          </Stack>
        </form>
      </DatesProvider>
    </Modal>
  );
}
