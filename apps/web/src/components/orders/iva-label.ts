/**
 * How the tax of an order or a cart is named (decision 0098): 'IVA (16%)' only when every line carries IVA
 * (then the rate is the whole truth), else 'IVA'; an exempt line says 'Exento de IVA' on every screen.
 */
import { IVA_RATE_PERCENT } from '@portal/shared/domain/money';

export const EXENTO_DE_IVA = 'Exento de IVA';

export function ivaTotalLabel(lines: readonly { impuesto: boolean }[]): string {
  return lines.length > 0 && lines.every((l) => l.impuesto) ? `IVA (${IVA_RATE_PERCENT}%)` : 'IVA';
}
