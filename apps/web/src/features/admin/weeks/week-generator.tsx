/**
 * 'Generar semanas': a rule (each month's N-th or last week, every week, every N weeks) over a period of
 * up to two years, previewed as a list — new weeks, and those skipped because they exist or overlap —
 * before saving them all at once. Checked with the shared WeekGenerateBody; refusals show in the dialog.
 */
import '@mantine/core/styles/Table.css';
import {
  Alert,
  Badge,
  Button,
  Group,
  Modal,
  NumberInput,
  ScrollArea,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Table,
  Text,
} from '@mantine/core';
import { type FormErrors, schemaResolver, useForm } from '@mantine/form';
import { useMediaQuery } from '@mantine/hooks';
import { addDays, businessDate, formatIsoDate } from '@portal/shared/domain/time';
import type { WeekGeneratorMode, WeekOfMonth } from '@portal/shared/domain/week-generator';
import { MSG } from '@portal/shared/messages';
import {
  WeekGenerateBody,
  type WeekPreviewItem,
  type WeekPreviewResponse,
} from '@portal/shared/schemas/weeks';
import { IconAlertCircle, IconAlertTriangle, IconCalendarRepeat } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { showSuccess } from '../../../components/ui/alerts';
import { DateRangeField } from '../../../components/ui/date-range-field';
import { errorMessage } from '../../../lib/api';
import { serverFieldErrors } from '../../../lib/form-errors';
import { getBusinessTimeZone } from '../../../lib/format';
import { useGenerateWeeks, usePreviewWeeks } from './api';

const MODES: { value: WeekGeneratorMode; label: string }[] = [
  { value: 'mensual', label: 'Cada mes' },
  { value: 'semanal', label: 'Todas las semanas' },
  { value: 'cada_n', label: 'Cada N semanas' },
];
const WEEKS_OF_MONTH: { value: WeekOfMonth; label: string }[] = [
  { value: '1', label: 'Primera semana' },
  { value: '2', label: 'Segunda semana' },
  { value: '3', label: 'Tercera semana' },
  { value: '4', label: 'Cuarta semana' },
  { value: 'ultima', label: 'Última semana' },
];
const STATES: Record<WeekPreviewItem['estado'], { label: string; color: string }> = {
  nueva: { label: 'Nueva', color: 'teal' },
  existente: { label: 'Ya existe', color: 'gray' },
  empalmada: { label: 'Se empalma', color: 'orange' },
};

interface Rule {
  desde: string | null;
  hasta: string | null;
  modo: WeekGeneratorMode;
  semana_del_mes: WeekOfMonth;
  cada: number | string;
  dias: number | string;
  activo: boolean;
}

/** A year from today (business date): the first week can start this very week (decision 0097). */
function fromToday(): Pick<Rule, 'desde' | 'hasta'> {
  const today = businessDate(Date.now(), getBusinessTimeZone());
  return { desde: today, hasta: addDays(today, 364) };
}

const initialRule = (): Rule => ({
  ...fromToday(),
  modo: 'mensual',
  semana_del_mes: '1',
  cada: 2,
  dias: 5,
  activo: true,
});

/** The period's messages (its start's too) under its one picker, which shows them on `hasta`. */
function onPicker(errors: FormErrors): FormErrors {
  const next: FormErrors = {};
  for (const [key, message] of Object.entries(errors)) next[key === 'desde' ? 'hasta' : key] ??= message;
  return next;
}

function toBody(rule: Rule, idCliente: number) {
  return {
    id_cliente: idCliente,
    desde: rule.desde ?? undefined,
    hasta: rule.hasta ?? undefined,
    modo: rule.modo,
    semana_del_mes: rule.modo === 'mensual' ? rule.semana_del_mes : undefined,
    cada: rule.modo === 'cada_n' ? rule.cada : undefined,
    dias: rule.dias,
    activo: rule.activo,
  };
}

interface WeekGeneratorProps {
  opened: boolean;
  onClose: () => void;
  idCliente: number;
  clientName: string;
  /** After saving: the first new week's start, to show its month. */
  onSaved: (firstInicio: string | null) => void;
}

export function WeekGenerator({ opened, onClose, idCliente, clientName, onSaved }: WeekGeneratorProps) {
  const phone = useMediaQuery('(max-width: 36em)');
  const [refusal, setRefusal] = useState<string | null>(null);
  const [preview, setPreview] = useState<WeekPreviewResponse | null>(null);
  const previewing = usePreviewWeeks();
  const saving = useGenerateWeeks();
  const form = useForm<Rule>({
    initialValues: initialRule(),
    validate: (values) =>
      onPicker(schemaResolver(WeekGenerateBody, { sync: true })(toBody(values, idCliente))),
    // Any change to the rule makes the preview stale.
    onValuesChange: () => {
      setPreview(null);
      form.clearErrors();
      setRefusal(null);
    },
  });
  const rule = form.values;
  const change = (patch: Partial<Rule>) => form.setValues(patch);

  // A fresh rule each time the dialog opens.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset only when opening
  useEffect(() => {
    if (!opened) return;
    form.setValues(initialRule());
    form.clearErrors();
    setRefusal(null);
    setPreview(null);
  }, [opened]);

  /** The rule as the server reads it, or null after showing its first problem next to its field. */
  function parsed() {
    if (form.validate().hasErrors) return null;
    return WeekGenerateBody.parse(toBody(form.values, idCliente));
  }

  const refused = (error: unknown) => {
    const fields = serverFieldErrors(error);
    form.setErrors(fields.desde ? { ...fields, hasta: fields.desde } : fields);
    setRefusal(errorMessage(error));
  };

  const runPreview = () => {
    const body = parsed();
    if (!body) return;
    setRefusal(null);
    previewing.mutate(body, { onSuccess: setPreview, onError: refused });
  };

  const save = () => {
    const body = parsed();
    if (!body || saving.isPending) return;
    saving.mutate(body, {
      onSuccess: (res) => {
        showSuccess(res.msg);
        onSaved(res.semanas[0]?.inicio ?? null);
        onClose();
      },
      onError: refused,
    });
  };

  const nuevas = preview?.nuevas ?? 0;

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={`Generar semanas de ${clientName}`}
      size="lg"
      fullScreen={phone}
      centered
    >
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
          <Select
            label="Repetir"
            data={MODES}
            value={rule.modo}
            allowDeselect={false}
            onChange={(v) => v && change({ modo: v as WeekGeneratorMode })}
            error={form.errors.modo}
          />
          {rule.modo === 'mensual' ? (
            <Select
              label="Semana del mes"
              description="Contando lunes: la que empieza el primer lunes, el segundo…"
              data={WEEKS_OF_MONTH}
              value={rule.semana_del_mes}
              allowDeselect={false}
              onChange={(v) => v && change({ semana_del_mes: v as WeekOfMonth })}
              error={form.errors.semana_del_mes}
            />
          ) : rule.modo === 'cada_n' ? (
            <NumberInput
              label="Cada cuántas semanas"
              description="Desde el primer lunes del periodo"
              min={2}
              max={12}
              allowDecimal={false}
              value={rule.cada}
              onChange={(v) => change({ cada: v })}
              error={form.errors.cada}
            />
          ) : (
            <div />
          )}
          <DateRangeField
            label="Periodo"
            description="Hasta 2 años; solo se crean las semanas que caben completas"
            desde={rule.desde}
            hasta={rule.hasta}
            clearable={false}
            onChange={(desde, hasta) => change({ desde, hasta })}
            error={form.errors.hasta}
          />
          <NumberInput
            label="Días por semana"
            description="Desde el lunes: 5 es de lunes a viernes"
            min={1}
            max={7}
            allowDecimal={false}
            value={rule.dias}
            onChange={(v) => change({ dias: v })}
            error={form.errors.dias}
          />
        </SimpleGrid>
        <Switch
          label="Crear las semanas activas"
          checked={rule.activo}
          onChange={(e) => change({ activo: e.currentTarget.checked })}
          color="teal"
        />
        {refusal ? (
          <Alert color="red" variant="light" icon={<IconAlertCircle size={18} aria-hidden />} role="alert">
            {refusal}
          </Alert>
        ) : null}
        {preview ? (
          <Stack gap="xs" data-testid="vista-previa-semanas">
            <Text fw={600} aria-live="polite">
              {preview.semanas.length === 0
                ? 'La regla no genera ninguna semana en este periodo.'
                : `${nuevas === 1 ? 'Se creará 1 semana' : `Se crearán ${nuevas} semanas`}${
                    preview.omitidas === 0
                      ? ''
                      : preview.omitidas === 1
                        ? '; se omitirá 1 que ya existe o se empalma'
                        : `; se omitirán ${preview.omitidas} que ya existen o se empalman`
                  }.`}
            </Text>
            {preview.hoy_sin_acceso ? (
              <Alert
                color="orange"
                variant="light"
                icon={<IconAlertTriangle size={18} aria-hidden />}
                data-testid="aviso-hoy-sin-acceso"
              >
                {MSG.hoySinAcceso(preview.proximo_acceso)}
              </Alert>
            ) : null}
            {preview.semanas.length ? (
              <ScrollArea.Autosize
                mah={phone ? undefined : 280}
                type="auto"
                // A keyboard can scroll a long preview too.
                viewportProps={{ tabIndex: 0, role: 'group', 'aria-label': 'Desplazar la vista previa' }}
              >
                <Table verticalSpacing={6} striped="even" aria-label="Semanas que se generarán">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Inicio</Table.Th>
                      <Table.Th>Fin</Table.Th>
                      <Table.Th>Estado</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {preview.semanas.map((w) => (
                      <Table.Tr key={w.inicio} data-testid={`previa-${w.inicio}`}>
                        <Table.Td style={{ fontVariantNumeric: 'tabular-nums' }}>
                          {formatIsoDate(w.inicio)}
                        </Table.Td>
                        <Table.Td style={{ fontVariantNumeric: 'tabular-nums' }}>
                          {formatIsoDate(w.fin)}
                        </Table.Td>
                        <Table.Td>
                          <Badge variant="light" color={STATES[w.estado].color} size="sm">
                            {STATES[w.estado].label}
                          </Badge>
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </ScrollArea.Autosize>
            ) : null}
          </Stack>
        ) : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            Cancelar
          </Button>
          <Button variant="light" onClick={runPreview} loading={previewing.isPending}>
            Vista previa
          </Button>
          <Button
            onClick={save}
            disabled={!preview || nuevas === 0}
            loading={saving.isPending}
            leftSection={<IconCalendarRepeat size={18} aria-hidden />}
          >
            {preview && nuevas > 0 ? `Guardar ${nuevas} ${nuevas === 1 ? 'semana' : 'semanas'}` : 'Guardar'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
