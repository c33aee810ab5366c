import '@mantine/dates/styles.css';
import { DatePickerInput, DatesProvider, type DatesRangeValue } from '@mantine/dates';
import { IconCalendar } from '@tabler/icons-react';
import { type ReactNode, useEffect, useState } from 'react';

/** The calendar's controls, in Spanish. */
export const CALENDAR_LABELS = {
  nextMonth: 'Mes siguiente',
  previousMonth: 'Mes anterior',
  nextYear: 'Año siguiente',
  previousYear: 'Año anterior',
  nextDecade: 'Década siguiente',
  previousDecade: 'Década anterior',
  monthLevelControl: 'Elegir mes',
  yearLevelControl: 'Elegir año',
};

interface DateRangeFieldProps {
  label: string;
  /** Business dates (YYYY-MM-DD) or null. */
  desde: string | null;
  hasta: string | null;
  /** Called with both ends, or with both null when cleared; never with half a range. */
  onChange: (desde: string | null, hasta: string | null) => void;
  w?: Parameters<typeof DatePickerInput>[0]['w'];
  /** A form's refusal of the range, under the field. */
  error?: ReactNode;
  description?: ReactNode;
  /** The first day that can be picked (YYYY-MM-DD). */
  minDate?: string;
  withAsterisk?: boolean;
  /** Whether the range can be cleared (a filter's can; default yes). */
  clearable?: boolean;
}

/**
 * A date range (a filter's, or a form's with `error`): one calendar, Spanish, days shown DD/MM/YYYY, weeks from Monday; a single day is
 * a range. Half a range (the first click) stays in the field until the second one.
 */
export function DateRangeField({
  label,
  desde,
  hasta,
  onChange,
  w,
  error,
  description,
  minDate,
  withAsterisk,
  clearable = true,
}: DateRangeFieldProps) {
  const [range, setRange] = useState<DatesRangeValue<string>>([desde, hasta]);
  useEffect(() => setRange([desde, hasta]), [desde, hasta]);
  return (
    <DatesProvider settings={{ locale: 'es', firstDayOfWeek: 1, labelSeparator: '–' }}>
      <DatePickerInput
        type="range"
        label={label}
        placeholder="Desde – hasta"
        valueFormat="DD/MM/YYYY"
        leftSection={<IconCalendar size={16} aria-hidden />}
        clearable={clearable}
        allowSingleDateInRange
        ariaLabels={CALENDAR_LABELS}
        error={error}
        description={description}
        minDate={minDate}
        withAsterisk={withAsterisk}
        value={range}
        w={w}
        onChange={(value) => {
          const next = value as DatesRangeValue<string>;
          setRange(next);
          if ((next[0] && next[1]) || (!next[0] && !next[1])) onChange(next[0], next[1]);
        }}
      />
    </DatesProvider>
  );
}
