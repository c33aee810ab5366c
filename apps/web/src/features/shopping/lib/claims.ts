/**
 * The buyer's receipt of a shipment and claim by hand (decision 0127), as pure functions: which lines the
 * dialogs list, what each field may hold and the body sent. The server checks the same again.
 */
import {
  CLAIM_MSG,
  CLAIM_NOTE_MAX,
  type ClaimReason,
  type ClaimResolution,
  type ReceiptReason,
} from '@portal/shared/domain/claims';
import type { ClaimBody, ShipmentReceiptBody } from '@portal/shared/schemas/claims';
import type { OrderDetailDto, OrderLineDto, OrderShipmentDto } from '@portal/shared/schemas/orders';

/** A number field's value: a number, or the text typed ('' when empty). */
export type UnitsValue = number | string;

/** A whole number of units typed in a field, or NaN ('' is NaN: the field needs a number). */
export function unitsOf(v: UnitsValue): number {
  if (typeof v === 'number') return v;
  return v.trim() === '' ? Number.NaN : Number(v);
}

/** Units of a line the buyer may still claim: shipped (credited ones included) less those already claimed. */
export function claimableUnits(linea: Pick<OrderLineDto, 'enviado' | 'acreditado' | 'reclamado'>): number {
  return Math.max(0, (linea.enviado ?? 0) + (linea.acreditado ?? 0) - (linea.reclamado ?? 0));
}

/** The order's lines that can be claimed, in the order's order. */
export function claimableLines(pedido: Pick<OrderDetailDto, 'status' | 'lineas'>): OrderLineDto[] {
  if (pedido.status !== 'aprobado') return [];
  return pedido.lineas.filter((l) => claimableUnits(l) > 0);
}

/** Shipments are received once the order ships (partly or wholly) and until it has a receipt. */
export function canReceiveShipment(
  pedido: Pick<OrderDetailDto, 'status' | 'surtido'>,
  envio: Pick<OrderShipmentDto, 'recepcion'>,
): boolean {
  const shipped =
    pedido.surtido === 'parcial' || pedido.surtido === 'enviado' || pedido.surtido === 'entregado';
  return pedido.status === 'aprobado' && shipped && !envio.recepcion;
}

/** One line of a receipt as the dialog shows it. */
export interface ReceiptLine {
  id: number;
  nombre: string;
  unidad: string;
  /** Units of this line in the shipment. */
  enviadas: number;
}

export function receiptLines(envio: OrderShipmentDto, lineas: OrderLineDto[]): ReceiptLine[] {
  const byId = new Map(lineas.map((l) => [l.id, l]));
  return envio.lineas.map((l) => {
    const linea = byId.get(l.id_linea);
    return {
      id: l.id_linea,
      nombre: linea?.nombre ?? `Línea ${l.id_linea}`,
      unidad: linea?.unidad_de_medida ?? '',
      enviadas: l.cantidad,
    };
  });
}

/** What the receipt dialog holds per line: units received in good condition and why fewer. */
export interface ReceiptLineDraft {
  recibido: UnitsValue;
  motivo: ReceiptReason | null;
}

/** Every line received in full: the dialog's start. */
export function fullReceipt(lines: ReceiptLine[]): Record<number, ReceiptLineDraft> {
  return Object.fromEntries(lines.map((l) => [l.id, { recibido: l.enviadas, motivo: null }]));
}

/** The parts both dialogs share: the note, the photos and what is asked for. */
interface ClaimExtras {
  nota: string;
  fotos: number[];
  resolucion: ClaimResolution | null;
}

/** A field's problem, by line id, and the dialog's. */
export interface DraftErrors {
  lineas: Record<number, { cantidad?: string; motivo?: string }>;
  resolucion?: string;
  nota?: string;
  /** Nothing claimed at all (the claim dialog). */
  vacio?: string;
}

export const RECEIPT_REASON_REQUIRED = 'Elige el motivo: faltante, dañado o producto equivocado.';
export const CLAIM_EMPTY = 'Indica al menos una unidad que reclamas.';

const noteError = (nota: string) =>
  nota.trim().length > CLAIM_NOTE_MAX ? CLAIM_MSG.reclamoNotaLarga : undefined;

const hasErrors = (e: DraftErrors) =>
  Object.keys(e.lineas).length > 0 || e.resolucion !== undefined || e.nota !== undefined || !!e.vacio;

/** The optional parts of a body: a note when written, the photos when any. */
function extrasOf(extras: ClaimExtras) {
  return {
    ...(extras.nota.trim() ? { nota: extras.nota.trim() } : {}),
    ...(extras.fotos.length > 0 ? { fotos: extras.fotos } : {}),
  };
}

export interface ReceiptCheck {
  /** Some line was received short: a claim will be opened and `resolucion` is needed. */
  differences: boolean;
  errors: DraftErrors;
  /** The body to send, or null while a field is wrong. */
  body: ShipmentReceiptBody | null;
}

/**
 * The receipt's body: only the lines received short (a line not listed is received in full), each with its
 * reason; `resolucion` when any line is short; the note and the photos when given.
 */
export function receiptCheck(
  lines: ReceiptLine[],
  draft: Record<number, ReceiptLineDraft>,
  extras: ClaimExtras,
): ReceiptCheck {
  const errors: DraftErrors = { lineas: {} };
  const short: ShipmentReceiptBody['lineas'] = [];
  for (const line of lines) {
    const d = draft[line.id] ?? { recibido: line.enviadas, motivo: null };
    const n = unitsOf(d.recibido);
    if (!Number.isInteger(n) || n < 0) {
      errors.lineas[line.id] = { cantidad: CLAIM_MSG.recepcionCantidad };
      continue;
    }
    if (n > line.enviadas) {
      errors.lineas[line.id] = { cantidad: `No puedes recibir más de ${line.enviadas}.` };
      continue;
    }
    if (n === line.enviadas) continue;
    if (!d.motivo) errors.lineas[line.id] = { motivo: RECEIPT_REASON_REQUIRED };
    else short.push({ id: line.id, recibido: n, motivo: d.motivo });
  }
  const differences = short.length > 0 || Object.values(errors.lineas).some((e) => e.motivo !== undefined);
  if (differences && !extras.resolucion) errors.resolucion = CLAIM_MSG.reclamoResolucion;
  const nota = noteError(extras.nota);
  if (nota) errors.nota = nota;
  const body: ShipmentReceiptBody | null = hasErrors(errors)
    ? null
    : {
        lineas: short,
        ...extrasOf(extras),
        ...(differences && extras.resolucion ? { resolucion: extras.resolucion } : {}),
      };
  return { differences, errors, body };
}

/** What the claim dialog holds per line: units claimed (0 = none) and why. */
export interface ClaimLineDraft {
  cantidad: UnitsValue;
  motivo: ClaimReason | null;
}

export interface ClaimCheck {
  errors: DraftErrors;
  body: ClaimBody | null;
}

/** The claim's body: the lines with units claimed, each with its reason; what is asked for; note, photos. */
export function claimCheck(
  lines: OrderLineDto[],
  draft: Record<number, ClaimLineDraft>,
  extras: ClaimExtras,
): ClaimCheck {
  const errors: DraftErrors = { lineas: {} };
  const claimed: ClaimBody['lineas'] = [];
  for (const line of lines) {
    const d = draft[line.id] ?? { cantidad: 0, motivo: null };
    const n = typeof d.cantidad === 'string' && d.cantidad.trim() === '' ? 0 : unitsOf(d.cantidad);
    const max = claimableUnits(line);
    if (!Number.isInteger(n) || n < 0) errors.lineas[line.id] = { cantidad: CLAIM_MSG.reclamoCantidad };
    else if (n > max) errors.lineas[line.id] = { cantidad: `Puedes reclamar hasta ${max}.` };
    else if (n > 0 && !d.motivo) errors.lineas[line.id] = { motivo: CLAIM_MSG.reclamoMotivo };
    else if (n > 0 && d.motivo) claimed.push({ id: line.id, cantidad: n, motivo: d.motivo });
  }
  if (claimed.length === 0 && Object.keys(errors.lineas).length === 0) errors.vacio = CLAIM_EMPTY;
  if (!extras.resolucion) errors.resolucion = CLAIM_MSG.reclamoResolucion;
  const nota = noteError(extras.nota);
  if (nota) errors.nota = nota;
  const body: ClaimBody | null =
    hasErrors(errors) || !extras.resolucion
      ? null
      : { lineas: claimed, resolucion: extras.resolucion, ...extrasOf(extras) };
  return { errors, body };
}
