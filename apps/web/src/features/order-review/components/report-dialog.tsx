/**
 * Report dialog: a date range (fecha_inicio, fecha_fin) and the type (general or detalle), with
 * the spec's messages on the fields; the CSV downloads as reporte.csv (decision 0014).
 */
import '@mantine/dates/styles.css';
import { Alert, Group, Modal, Radio, SimpleGrid, Stack, Text } from '@mantine/core';
import { DatePickerInput, DatesProvider, type DatesRangeValue } from '@mantine/dates';
import { useMediaQuery } from '@mantine/hooks';
import { addDays, businessDate } from '@portal/shared/domain/time';
import { MSG } from '@portal/shared/messages';
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

interface Errors {
  fechas?: string;
  tipo?: string;
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
  const [range, setRange] = useState<Range>([null, null]);
  const [tipo, setTipo] = useState<ReportType | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  const today = businessDate(Date.now(), getBusinessTimeZone());

  const mutation = useMutation({
    mutationFn: downloadReport,
    onSuccess: () => {
      showSuccess('Reporte generado', `Se descargó el archivo ${REPORT_FILENAME}.`);
      setErrors({});
      onClose();
    },
    onError: (error) => {
      // The server's field message (for instance, a start date after the end) goes on the field.
      if (isApiError(error) && error.status === 400 && error.errors) {
        const fechas = error.errors.fecha_inicio ?? error.errors.fecha_fin;
        if (fechas || error.errors.tipo) {
          setErrors({ fechas, tipo: error.errors.tipo });
          return;
        }
      }
      setRefusal(MSG.reporteFallido);
    },
  });

  function close() {
    if (mutation.isPending) return;
    setErrors({});
    setRefusal(null);
    onClose();
  }

  function submit(event: React.FormEvent) {
    event.preventDefault();
    const [inicio, fin] = range;
    const next: Errors = {};
    if (!inicio || !fin) next.fechas = MSG.fechasRequeridas;
    if (!tipo) next.tipo = MSG.tipoReporteRequerido;
    setErrors(next);
    setRefusal(null);
    if (!inicio || !fin || !tipo) return;
    mutation.mutate({ tipo, fecha_inicio: inicio, fecha_fin: fin });
  }

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
              value={range}
              onChange={(value) => {
                setRange(value as Range);
                if (value[0] && value[1]) setErrors((e) => ({ ...e, fechas: undefined }));
              }}
              maxDate={today}
              presets={presets(today)}
              allowSingleDateInRange
              clearable
              leftSection={<IconCalendar size={18} aria-hidden />}
              error={errors.fechas}
              dropdownType={phone ? 'modal' : 'popover'}
              // The calendar's controls and the clear button in Spanish (decision 0098).
              ariaLabels={CALENDAR_LABELS}
              clearButtonProps={{ 'aria-label': 'Borrar fechas' }}
              popoverProps={{ withinPortal: true }}
              data-testid="reporte-periodo"
            />
            <Radio.Group
              label="Tipo de reporte"
              value={tipo}
              onChange={(value) => {
                setTipo(value as ReportType);
                setErrors((e) => ({ ...e, tipo: undefined }));
              }}
              error={errors.tipo}
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
