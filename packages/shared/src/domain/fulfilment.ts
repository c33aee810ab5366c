/**
 * Fulfilment of approved orders (docs/domain.md "Fulfilment", decisions 0058 and 0125): a second state beside
 * the approval status, `por_surtir → en_surtido → parcial → enviado → entregado`, moved forward only. The
 * operator (rol 4) may skip ahead (por_surtir → enviado: every unit left ships at once); `parcial` is
 * reached only by a shipment of some of the units (and left by the shipment or cancellation of the rest).
 * The buyer only confirms receipt of a shipped order.
 */
export const FULFILMENT_STATES = ['por_surtir', 'en_surtido', 'parcial', 'enviado', 'entregado'] as const;
export type FulfilmentState = (typeof FULFILMENT_STATES)[number];

/** The state an order takes in the transaction that makes it aprobado. */
export const FULFILMENT_START: FulfilmentState = 'por_surtir';

/** Carrier and tracking reference: at most this many characters. */
export const GUIA_MAX = 60;
/** The buyer's note on receipt and the operator's comment on a move: at most this many characters. */
export const FULFILMENT_NOTE_MAX = 500;
/** Orders in one export. */
export const EXPORT_ORDERS_MAX = 200;

export const FULFILMENT_LABELS: Record<FulfilmentState, string> = {
  por_surtir: 'Por surtir',
  en_surtido: 'En surtido',
  parcial: 'Envío parcial',
  enviado: 'Enviado',
  entregado: 'Entregado',
};

/** Mantine palette names, like the order statuses' colours. */
export const FULFILMENT_COLORS: Record<FulfilmentState, string> = {
  por_surtir: 'gray',
  en_surtido: 'yellow',
  parcial: 'cyan',
  enviado: 'blue',
  entregado: 'teal',
};

/** Whether `to` lies after `from` (a forward move; skipping ahead is one). */
export function isForwardMove(from: FulfilmentState, to: FulfilmentState): boolean {
  return FULFILMENT_STATES.indexOf(to) > FULFILMENT_STATES.indexOf(from);
}

/** The states an operator may move an order in `from` to (`parcial` only by a shipment of some units). */
export function nextFulfilmentStates(from: FulfilmentState): FulfilmentState[] {
  return FULFILMENT_STATES.filter((s) => s !== 'parcial' && isForwardMove(from, s));
}

/** Whether units are still to ship: the states a shipment or a line's cancellation starts from. */
export function shippable(state: FulfilmentState | null | undefined): boolean {
  return state === 'por_surtir' || state === 'en_surtido' || state === 'parcial';
}

/** Shipments of one order, and lines of one shipment. */
export const SHIPMENT_LINES_MAX = 500;
/** A line's cancellation reason and a shipment's note: at most this many characters. */
export const LINE_CANCEL_REASON_MAX = 300;
/**
 * The promised date of an approved line whose product has no lead time (`dias_entrega`): business today
 * plus this many days (decision 0125).
 */
export const DEFAULT_PROMISE_DAYS = 3;

/** The buyer confirms receipt ("Recibido") only of a shipped order. */
export function canConfirmReceipt(state: FulfilmentState | null | undefined): boolean {
  return state === 'enviado';
}

/** Orders moved together by `POST /api/surtido/estado-lote`. */
export const BULK_FULFILMENT_MAX = 200;
/** Orders in one pick list (`POST /api/surtido/lista`). */
export const PICK_LIST_MAX = 200;
/** The pick list's files: a PDF to print, a CSV for a spreadsheet. */
export const PICK_LIST_FORMATS = ['pdf', 'csv'] as const;
export type PickListFormat = (typeof PICK_LIST_FORMATS)[number];

/** An approved order goes on a pick list until every unit is shipped: por_surtir, en_surtido or parcial. */
export function onPickList(state: FulfilmentState | null | undefined): boolean {
  return shippable(state);
}
/** Rows of one guías file (`POST /api/surtido/guias`), answered at once, not in the background. */
export const GUIAS_IMPORT_MAX_ROWS = 1_000;
/** Size of one guías file. */
export const GUIAS_IMPORT_MAX_BYTES = 1024 * 1024;
/** The carrier named apart from the guía (`orders.paqueteria`): at most this many characters. */
export const PAQUETERIA_MAX = 40;

/** A carrier whose tracking page the portal links to (decision 0094). */
export interface Carrier {
  nombre: string;
  /** The tracking page, `{guia}` standing for the tracking number (URL-encoded). */
  rastreo: string;
}

/** The known carriers: a guía of one of them is shown as a link to its tracking page. */
export const CARRIERS: readonly Carrier[] = [
  { nombre: 'DHL', rastreo: 'https://www.dhl.com/mx-es/home/rastreo.html?tracking-id={guia}' },
  { nombre: 'FedEx', rastreo: 'https://www.fedex.com/fedextrack/?trknbr={guia}' },
  {
    nombre: 'Estafeta',
    rastreo: 'https://cs.estafeta.com/es/Tracking/searchByGet?wayBill={guia}&wayBillType=1',
  },
  { nombre: 'Paquetexpress', rastreo: 'https://www.paquetexpress.com.mx/rastreo/{guia}' },
  { nombre: '99minutos', rastreo: 'https://tracking.99minutos.com/search/{guia}' },
];

const carrierKey = (name: string) =>
  name
    .normalize('NFD')
    .replace(/[^a-z0-9]/gi, '')
    .toLowerCase();

/** The known carrier a name means ("fedex", "FEDEX ", "Fed-Ex"), or undefined. */
export function knownCarrier(name: string | null | undefined): Carrier | undefined {
  if (!name) return undefined;
  const key = carrierKey(name);
  return key === '' ? undefined : CARRIERS.find((c) => carrierKey(c.nombre) === key);
}

/** A guía as shown: its text, and the tracking page when its carrier is known. */
export interface TrackingLink {
  texto: string;
  url: string | null;
}

/**
 * Where a guía can be followed: the carrier is `paqueteria` when given apart (the guías import), else the
 * guía's first word ("Estafeta 1234567890", the single move's habit); the tracking number is the rest.
 * An unknown carrier, or no number, gives no link.
 */
export function trackingLink(guia: string, paqueteria?: string | null): TrackingLink {
  const texto = paqueteria ? `${paqueteria} ${guia}` : guia;
  let carrier = knownCarrier(paqueteria);
  let numero = guia.trim();
  if (!paqueteria) {
    const [first, ...rest] = numero.split(/\s+/);
    carrier = knownCarrier(first);
    numero = rest.join('');
  }
  if (!carrier || numero === '') return { texto, url: null };
  return { texto, url: carrier.rastreo.replace('{guia}', encodeURIComponent(numero)) };
}
