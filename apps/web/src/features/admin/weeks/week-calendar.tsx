/**
 * A month of the chosen client's access weeks as a calendar (Monday first): the days inside an active
 * week in teal, inside an inactive one in grey, today outlined. The list below keeps the actions.
 */
import '@mantine/core/styles/Table.css';
import {
  ActionIcon,
  Badge,
  Box,
  Button,
  Group,
  Paper,
  Table,
  Text,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { addMonths, monthName } from '@portal/shared/domain/months';
import { addDays, businessDate } from '@portal/shared/domain/time';
import type { WeekDto } from '@portal/shared/schemas/weeks';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { getBusinessTimeZone } from '../../../lib/format';
import { useWeeksMonth } from './api';

const WEEKDAYS = [
  ['lun', 'lunes'],
  ['mar', 'martes'],
  ['mié', 'miércoles'],
  ['jue', 'jueves'],
  ['vie', 'viernes'],
  ['sáb', 'sábado'],
  ['dom', 'domingo'],
] as const;

interface Cell {
  key: string;
  /** YYYY-MM-DD, or null for the padding of the first and last row. */
  day: string | null;
}

/** The month's days in rows of seven, Monday first. */
function monthGrid(mes: string): Cell[][] {
  const first = `${mes}-01`;
  const lead = (new Date(`${first}T00:00:00Z`).getUTCDay() + 6) % 7;
  const cells: Cell[] = Array.from({ length: lead }, (_, i) => ({ key: `antes-${i}`, day: null }));
  for (let day = first; day.startsWith(mes); day = addDays(day, 1)) cells.push({ key: day, day });
  while (cells.length % 7) cells.push({ key: `despues-${cells.length}`, day: null });
  return Array.from({ length: cells.length / 7 }, (_, i) => cells.slice(i * 7, i * 7 + 7));
}

/** The business month of today, 'YYYY-MM'. */
export function currentMonth(): string {
  return businessDate(Date.now(), getBusinessTimeZone()).slice(0, 7);
}

interface WeekCalendarProps {
  idCliente: number;
  mes: string;
  onMonthChange: (mes: string) => void;
}

export function WeekCalendar({ idCliente, mes, onMonthChange }: WeekCalendarProps) {
  const query = useWeeksMonth(idCliente, mes);
  const semanas: WeekDto[] = query.data?.mes === mes ? query.data.semanas : [];
  const today = businessDate(Date.now(), getBusinessTimeZone());
  const name = monthName(mes);
  const title = `${name.charAt(0).toUpperCase()}${name.slice(1)} de ${mes.slice(0, 4)}`;
  const weekOf = (day: string) => semanas.find((w) => w.inicio <= day && w.fin >= day);

  return (
    <Paper withBorder radius="lg" shadow="xs" p={{ base: 'sm', sm: 'md' }} data-testid="calendario-semanas">
      <Group justify="space-between" wrap="nowrap" mb="sm">
        <Tooltip label="Mes previo" withArrow>
          <ActionIcon
            variant="subtle"
            aria-label="Ir al mes previo"
            onClick={() => onMonthChange(addMonths(mes, -1))}
          >
            <IconChevronLeft size={18} aria-hidden />
          </ActionIcon>
        </Tooltip>
        <Group gap="xs" wrap="nowrap">
          <Text fw={700} aria-live="polite">
            {title}
          </Text>
          {mes !== currentMonth() ? (
            <Button size="compact-xs" variant="light" onClick={() => onMonthChange(currentMonth())}>
              Hoy
            </Button>
          ) : null}
        </Group>
        <Tooltip label="Próximo mes" withArrow>
          <ActionIcon
            variant="subtle"
            aria-label="Ir al próximo mes"
            onClick={() => onMonthChange(addMonths(mes, 1))}
          >
            <IconChevronRight size={18} aria-hidden />
          </ActionIcon>
        </Tooltip>
      </Group>
      <Table
        layout="fixed"
        withTableBorder={false}
        verticalSpacing={4}
        horizontalSpacing={2}
        aria-label={`Semanas de acceso de ${title}`}
      >
        <Table.Thead>
          <Table.Tr>
            {WEEKDAYS.map(([short, long]) => (
              <Table.Th key={short} ta="center" c="dimmed" fz="xs" fw={600}>
                <abbr title={long} style={{ textDecoration: 'none' }}>
                  {short}
                </abbr>
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {monthGrid(mes).map((row) => (
            <Table.Tr key={row[0]!.key}>
              {row.map(({ key, day }) => {
                if (!day) return <Table.Td key={key} />;
                const week = weekOf(day);
                const estado = week ? (week.activo ? 'activa' : 'inactiva') : 'sin-semana';
                return (
                  <Table.Td key={key} p={2}>
                    <Box
                      data-testid={`dia-${day}`}
                      data-estado={estado}
                      ta="center"
                      py={6}
                      bg={week ? (week.activo ? 'teal.1' : 'gray.2') : undefined}
                      c={week ? (week.activo ? 'teal.9' : 'gray.7') : undefined}
                      style={{
                        borderRadius: 'var(--mantine-radius-sm)',
                        fontVariantNumeric: 'tabular-nums',
                        outline: day === today ? '2px solid var(--mantine-color-blue-6)' : undefined,
                        textDecoration: week && !week.activo ? 'line-through' : undefined,
                      }}
                    >
                      <Text span size="sm" fw={week ? 700 : 400}>
                        {Number(day.slice(8))}
                      </Text>
                      {week ? (
                        <VisuallyHidden>{week.activo ? ' semana activa' : ' semana inactiva'}</VisuallyHidden>
                      ) : null}
                      {day === today ? <VisuallyHidden> (hoy)</VisuallyHidden> : null}
                    </Box>
                  </Table.Td>
                );
              })}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Group gap="sm" mt="sm" justify="space-between">
        <Group gap="xs">
          <Badge variant="light" color="teal" size="sm">
            Semana activa
          </Badge>
          <Badge variant="light" color="gray" size="sm" td="line-through">
            Semana inactiva
          </Badge>
        </Group>
        <Text size="xs" c="dimmed">
          {query.isError
            ? 'No se pudieron cargar las semanas del mes.'
            : semanas.length === 1
              ? '1 semana en este mes'
              : `${semanas.length} semanas en este mes`}
        </Text>
      </Group>
    </Paper>
  );
}
