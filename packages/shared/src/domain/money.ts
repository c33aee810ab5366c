/**
 * Money is integer centavos everywhere inside the product. The API speaks pesos (numbers with
 * at most two decimals) and converts at the boundary with these functions.
 */
export type Centavos = number;

export const IVA_RATE_PERCENT = 16;

/** Pesos (as sent by a client, at most 2 decimals) to integer centavos. */
export function pesosToCentavos(pesos: number): Centavos {
  if (!Number.isFinite(pesos)) throw new RangeError('Importe inválido');
  return Math.round(pesos * 100);
}

/** True when a peso amount has at most two decimals (1.15 yes, 1.155 no). */
export function hasAtMostTwoDecimals(pesos: number): boolean {
  return Number.isFinite(pesos) && Math.abs(Math.round(pesos * 100) - pesos * 100) < 1e-6;
}

export function centavosToPesos(centavos: Centavos): number {
  return centavos / 100;
}

/** 16% of a taxable subtotal, rounded half-up to the centavo (once per order, never per line). */
export function ivaOf(taxableSubtotal: Centavos): Centavos {
  if (!Number.isSafeInteger(taxableSubtotal)) throw new RangeError('Subtotal inválido');
  const sign = taxableSubtotal < 0 ? -1 : 1;
  const abs = Math.abs(taxableSubtotal);
  return sign * Math.floor((abs * IVA_RATE_PERCENT + 50) / 100);
}

export interface PricedLine {
  /** Unit price in centavos. */
  precio: Centavos;
  cantidad: number;
  /** Taxable (IVA applies). */
  impuesto: boolean;
}

export interface Totals {
  subtotal: Centavos;
  iva: Centavos;
  total: Centavos;
}

export function lineAmount(line: PricedLine): Centavos {
  return line.precio * line.cantidad;
}

/** Subtotal, IVA (on taxable lines only, rounded once) and total of a set of lines. */
export function totalsOf(lines: readonly PricedLine[]): Totals {
  let subtotal = 0;
  let taxable = 0;
  for (const line of lines) {
    const amount = lineAmount(line);
    subtotal += amount;
    if (line.impuesto) taxable += amount;
  }
  const iva = ivaOf(taxable);
  return { subtotal, iva, total: subtotal + iva };
}

/**
 * Truncates a peso amount to 2 decimals without floating-point surprises
 * (1.15 stays 1.15; 2.999 becomes 2.99).
 */
export function truncatePesos(pesos: number): { negative: boolean; entero: string; centavos: string } {
  const negative = pesos < 0;
  const [entero = '0', frac = ''] = Math.abs(pesos).toFixed(8).split('.');
  return { negative, entero, centavos: `${frac}00`.slice(0, 2) };
}

/** "1234567" → "1,234,567": a string of digits grouped the Mexican way. */
const grouped = (digits: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** "$1,234.56 MXN": money shown to people, truncated, grouped the Mexican way. */
export function formatMXN(pesos: number, withCurrency = true): string {
  const { negative, entero, centavos } = truncatePesos(pesos);
  return `${negative ? '-' : ''}$${grouped(entero)}.${centavos}${withCurrency ? ' MXN' : ''}`;
}

/**
 * "1,200": a count grouped the Mexican way, as `toLocaleString('es-MX')` writes it: whole numbers without
 * building an `Intl` formatter (a schema's message built one as its module loaded), anything else by `Intl`.
 * The one way to write a count, on the server and in the web app.
 */
export function formatCount(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString('es-MX');
  return n < 0 ? `-${grouped(String(-n))}` : grouped(String(n));
}

/** An optional amount (null stays null) from centavos to pesos. */
export function centavosToPesosOrNull(centavos: Centavos | null): number | null {
  return centavos === null ? null : centavosToPesos(centavos);
}

/** Money shown from centavos (exact, no truncation needed). */
export function formatCentavos(centavos: Centavos, withCurrency = true): string {
  return formatMXN(centavosToPesos(centavos), withCurrency);
}
