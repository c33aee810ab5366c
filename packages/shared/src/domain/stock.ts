/**
 * Stock and availability (docs/domain.md "Stock and availability", decision 0124): what the catalogue says
 * of a product from its stock, the units approved orders reserve, the client's threshold and the lead time.
 */
import { formatCount } from './money.ts';
import { addDays, formatIsoDate } from './time.ts';

/** The largest stock a product may have (units). */
export const EXISTENCIA_MAX = 100_000_000;
/** The longest lead time (days). */
export const DIAS_ENTREGA_MAX = 3650;
/** The client's "Quedan N" threshold: default and largest. */
export const UMBRAL_EXISTENCIA_DEFAULT = 5;
export const UMBRAL_EXISTENCIA_MAX = 1_000_000;
/** Lines of one bulk stock update (POST /api/v1/existencias). */
export const EXISTENCIAS_MAX = 5000;

/**
 * What the catalogue says of a product: in stock, a few left (with how many), on backorder (with the
 * estimated delivery date, YYYY-MM-DD, when the product has a lead time), or null when its stock is unknown.
 */
export type Disponibilidad =
  | { estado: 'en_existencia' }
  | { estado: 'pocas'; quedan: number }
  | { estado: 'sobre_pedido'; entrega_estimada: string | null };

/** Units an approval may still take: stock minus what approved orders reserve (never below 0); null: unknown. */
export function available(existencia: number | null, reservado: number): number | null {
  return existencia === null ? null : Math.max(existencia - reservado, 0);
}

/**
 * A product's availability: with nothing available, "sobre pedido" (delivered `dias_entrega` days after
 * `today`, the business date); at most `umbral` available, "pocas"; else "en_existencia".
 */
export function disponibilidad(
  p: { existencia: number | null; reservado: number; diasEntrega: number | null },
  umbral: number,
  today: string,
): Disponibilidad | null {
  const n = available(p.existencia, p.reservado);
  if (n === null) return null;
  if (n === 0)
    return {
      estado: 'sobre_pedido',
      entrega_estimada: p.diasEntrega === null ? null : addDays(today, p.diasEntrega),
    };
  if (n <= umbral) return { estado: 'pocas', quedan: n };
  return { estado: 'en_existencia' };
}

/** The catalogue's words for an availability: "En existencia", "Quedan 3", "Sobre pedido · entrega estimada 12/12/2026". */
export function disponibilidadLabel(d: Disponibilidad): string {
  switch (d.estado) {
    case 'en_existencia':
      return 'En existencia';
    case 'pocas':
      return d.quedan === 1 ? 'Queda 1' : `Quedan ${formatCount(d.quedan)}`;
    case 'sobre_pedido':
      return d.entrega_estimada
        ? `Sobre pedido · entrega estimada ${formatIsoDate(d.entrega_estimada)}`
        : 'Sobre pedido';
  }
}

/**
 * What the cart says of a line that will ship later (decision 0124): the whole line or how many of its
 * units, with the estimated delivery date when the product has a lead time.
 */
export function laterShipmentLabel(
  cantidad: number,
  later: { cantidad: number; entrega_estimada: string | null },
): string {
  const what =
    later.cantidad >= cantidad
      ? 'Sobre pedido: se enviará después'
      : `${formatCount(later.cantidad)} de ${formatCount(cantidad)} se enviarán después`;
  return later.entrega_estimada
    ? `${what} · entrega estimada ${formatIsoDate(later.entrega_estimada)}`
    : what;
}
