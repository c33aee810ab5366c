import { monthName } from '@portal/shared/domain/months';

/** A business month 'YYYY-MM' as people read it: 'abril de 2026'. */
export function monthLabel(mes: string): string {
  return `${monthName(mes)} de ${mes.slice(0, 4)}`;
}
