/**
 * An order's delivery address, copied by the purchase's own statement (`orders.entrega`, docs/domain.md
 * "Fulfilment" and "Ship-to addresses", decisions 0094 and 0126): from the client's address book when the
 * buyer has one there (`id_direccion` and the book's fields), else from the buyer's profile
 * (`direccion_entrega`, `calle`, `colonia`, `ciudad`, `estado`, `cp`). A part not given is '' or absent.
 */
export interface OrderDelivery {
  direccion_entrega?: string;
  /** The address book's entry the copy was taken from; absent for a profile's address. */
  id_direccion?: number;
  /** The entry's label ("Almacén Norte"). */
  nombre?: string;
  calle?: string;
  numero_exterior?: string;
  numero_interior?: string;
  colonia?: string;
  municipio?: string;
  ciudad?: string;
  estado?: string;
  cp?: string;
  /** Who receives, their phone and the delivery window. */
  contacto?: string;
  telefono?: string;
  horario?: string;
}

/** The text parts of a delivery address, in the order the v1 API lists them. */
export const DELIVERY_PARTS = [
  'direccion_entrega',
  'nombre',
  'calle',
  'numero_exterior',
  'numero_interior',
  'colonia',
  'municipio',
  'ciudad',
  'estado',
  'cp',
  'contacto',
  'telefono',
  'horario',
] as const;

const clean = (p: string | undefined) => p?.trim() ?? '';

/** The street with its numbers: "Av. Industria núm. ext. 100 int. 3". */
export function streetLine(entrega: OrderDelivery): string {
  const ext = clean(entrega.numero_exterior);
  const int = clean(entrega.numero_interior);
  return [clean(entrega.calle), ext && `núm. ext. ${ext}`, int && `int. ${int}`].filter(Boolean).join(' ');
}

/**
 * The full delivery address on one line, as the purchase order, the export, the remisión and the API print
 * it: the label, the free-text address, then street with its numbers, colonia, municipio, city, state and
 * "C.P. 64000", each part once (a part the free text holds, or the same as an earlier part, is not
 * repeated: Monterrey as municipio and city is printed once), empty parts left out.
 */
export function deliveryAddress(entrega: OrderDelivery): string {
  const free = clean(entrega.direccion_entrega);
  const known = free.toLowerCase();
  const seen = new Set<string>();
  const parts: string[] = [];
  for (const part of [
    streetLine(entrega),
    entrega.colonia,
    entrega.municipio,
    entrega.ciudad,
    entrega.estado,
  ]) {
    const p = clean(part);
    const key = p.toLowerCase();
    if (p === '' || known.includes(key) || seen.has(key)) continue;
    seen.add(key);
    parts.push(p);
  }
  const cp = clean(entrega.cp);
  if (cp !== '' && !known.includes(cp)) parts.push(`C.P. ${cp}`);
  return [clean(entrega.nombre), free, ...parts].filter(Boolean).join(', ');
}

/**
 * Who receives and when, on one line ("Recibe: Ana López · Tel. 81 1234 5678 · Horario: L-V 9:00 a 14:00"),
 * parts left out when empty; '' when there is none (a profile's address has none).
 */
export function deliveryContact(entrega: OrderDelivery): string {
  const contacto = clean(entrega.contacto);
  const telefono = clean(entrega.telefono);
  const horario = clean(entrega.horario);
  return [
    contacto && `Recibe: ${contacto}`,
    telefono && `Tel. ${formatPhone(telefono)}`,
    horario && `Horario: ${horario}`,
  ]
    .filter(Boolean)
    .join(' · ');
}

/** A 10-digit Mexican number as "81 1234 5678"; anything else as given. */
export function formatPhone(telefono: string): string {
  return /^\d{10}$/.test(telefono)
    ? `${telefono.slice(0, 2)} ${telefono.slice(2, 6)} ${telefono.slice(6)}`
    : telefono;
}
