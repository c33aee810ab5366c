import '@mantine/dates/styles.css';
import { DatesProvider, MonthPickerInput } from '@mantine/dates';
import { DASHBOARD_MAX_MONTHS, isMonthKey, monthsBetween } from '@portal/shared/domain/months';
import { MSG } from '@portal/shared/messages';
import { IconCalendarMonth } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { CALENDAR_LABELS } from '../../../components/ui/date-range-field';

type Range = [string | null, string | null];

const toDay = (mes: string) => `${mes}-01`;
const toMonth = (day: string | null) => (day && isMonthKey(day.slice(0, 7)) ? day.slice(0, 7) : null);

/**
 * A range of months ("Periodo"), in Spanish: the first click picks the first month, the second the last.
 * `onChange` gets both months (YYYY-MM) once the range is whole and at most 24 months long.
 */
export function MonthRangeField({
  desde,
  hasta,
  maxMonth,
  onChange,
}: {
  desde: string;
  hasta: string;
  /** The last month that can be picked (the current one). */
  maxMonth: string;
  onChange: (desde: string, hasta: string) => void;
}) {
  const [range, setRange] = useState<Range>([toDay(desde), toDay(hasta)]);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setRange([toDay(desde), toDay(hasta)]), [desde, hasta]);
  return (
    <DatesProvider settings={{ locale: 'es', labelSeparator: '–' }}>
      <MonthPickerInput
        type="range"
        label="Periodo"
        placeholder="Desde – hasta"
        valueFormat="MMM YYYY"
        leftSection={<IconCalendarMonth size={16} aria-hidden />}
        allowSingleDateInRange
        ariaLabels={CALENDAR_LABELS}
        maxDate={toDay(maxMonth)}
        // Opens on the last month's year: the recent end is what one changes most.
        defaultDate={toDay(hasta)}
        value={range}
        error={error}
        w={{ base: '100%', xs: 260 }}
        onChange={(value) => {
          const next = value as Range;
          setRange(next);
          const from = toMonth(next[0]);
          const to = toMonth(next[1]);
          if (!from || !to) return;
          if (monthsBetween(from, to) > DASHBOARD_MAX_MONTHS) {
            setError(MSG.rangoMesesLargo);
            return;
          }
          setError(null);
          onChange(from, to);
        }}
      />
    </DatesProvider>
  );
}
