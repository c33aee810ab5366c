/**
 * How the Áreas screen reads an área's month (decision 0123): the share of its budget taken, the bar's
 * colour, and what changed its budget this month. Pure: unit-tested.
 */
import { type Centavos, formatMXN, pesosToCentavos } from '@portal/shared/domain/money';
import type { AreaDto } from '@portal/shared/schemas/areas';

export interface AreaMonth {
  /** Share of this month's budget its orders take, 0 to 100 (100 with no budget and any spend). */
  usedPct: number;
  /** 'teal' under 70%, 'orange' from 70%, 'red' from 90% or when nothing is left. */
  color: 'teal' | 'orange' | 'red';
  /** What is left is below zero (a budget lowered, a transfer). */
  over: boolean;
  /** 'Base $1,000.00 + $250.00 este mes' when top-ups or transfers changed this month's budget; else null. */
  adjusted: string | null;
}

export function areaMonth(
  area: Pick<AreaDto, 'presupuesto' | 'ampliaciones' | 'presupuesto_mes' | 'utilizado' | 'restante'>,
): AreaMonth {
  const total: Centavos = pesosToCentavos(area.presupuesto_mes);
  const used: Centavos = pesosToCentavos(area.utilizado);
  const usedPct = total > 0 ? Math.min(100, Math.max(0, (used / total) * 100)) : used > 0 ? 100 : 0;
  const over = area.restante < 0;
  const color = over || usedPct >= 90 ? 'red' : usedPct >= 70 ? 'orange' : 'teal';
  const ajuste = pesosToCentavos(area.ampliaciones);
  const adjusted =
    ajuste === 0
      ? null
      : `Base ${formatMXN(area.presupuesto, false)} ${ajuste > 0 ? '+' : '−'} ${formatMXN(Math.abs(area.ampliaciones), false)} este mes`;
  return { usedPct, color, over, adjusted };
}
