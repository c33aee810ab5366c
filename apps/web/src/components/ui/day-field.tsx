/** One business date (YYYY-MM-DD) picked on a Spanish calendar and shown as dd/mm/aaaa. */
import '@mantine/dates/styles.css';
import { DatePickerInput, DatesProvider } from '@mantine/dates';
import { useMediaQuery } from '@mantine/hooks';
import { IconCalendar } from '@tabler/icons-react';
import { CALENDAR_LABELS } from './date-range-field';

export function DayField({
  label,
  value,
  onChange,
  minDate,
  maxDate,
  error,
}: {
  label: string;
  value: string;
  onChange: (fecha: string) => void;
  minDate?: string;
  maxDate?: string;
  error: string | null;
}) {
  const phone = useMediaQuery('(max-width: 36em)') ?? false;
  return (
    <DatesProvider settings={{ locale: 'es', firstDayOfWeek: 1 }}>
      <DatePickerInput
        label={label}
        valueFormat="DD/MM/YYYY"
        value={value || null}
        onChange={(v) => onChange(v ? String(v).slice(0, 10) : '')}
        minDate={minDate}
        maxDate={maxDate}
        error={error}
        leftSection={<IconCalendar size={18} aria-hidden />}
        dropdownType={phone ? 'modal' : 'popover'}
        ariaLabels={CALENDAR_LABELS}
        popoverProps={{ withinPortal: true }}
        w={{ base: '100%', sm: 220 }}
      />
    </DatesProvider>
  );
}
