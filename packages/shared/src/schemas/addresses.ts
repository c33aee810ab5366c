/**
 * Ship-to addresses (decision 0126, docs/domain.md "Ship-to addresses"): a client's address book, the
 * addresses each buyer may choose, and the cart's choice. The texts live here, not in the shared catalogue:
 * only the screens that import this file download them (the sign-in page's budget, decision 0095).
 */
import { z } from 'zod';
import { MSG } from '../messages.ts';
import { idNumber, optionalIdNumber, optionalText, PageQuery, requiredText } from './form-fields.ts';

export const ADDRESS_MSG = {
  nombreRequerido: 'Escribe el nombre de la dirección (por ejemplo, «Almacén Norte»).',
  calleRequerida: 'Escribe la calle.',
  numeroExteriorRequerido: 'Escribe el número exterior.',
  coloniaRequerida: 'Escribe la colonia.',
  municipioRequerido: 'Escribe el municipio o alcaldía.',
  ciudadRequerida: 'Escribe la ciudad.',
  estadoRequerido: 'Escribe el estado.',
  cpInvalido: 'El código postal debe tener 5 dígitos',
  contactoRequerido: 'Escribe quién recibe las entregas.',
  telefonoInvalido: 'El teléfono debe tener 10 dígitos.',
  direccionInvalida: 'Elige una dirección de entrega válida.',
  direccionesInvalidas: 'La lista de direcciones no es válida.',
  demasiadasDirecciones: 'Un usuario puede tener hasta 100 direcciones permitidas.',
} as const;

/** Most addresses a buyer may be allowed besides its default. */
export const USER_ADDRESSES_MAX = 100;
/** Addresses per page of the address book. */
export const ADDRESSES_PER_PAGE = 20;

/** Five digits, spaces around them ignored. */
const Cp = z.preprocess(
  (v) => (typeof v === 'number' ? String(v) : v),
  z
    .string({ error: ADDRESS_MSG.cpInvalido })
    .trim()
    .regex(/^\d{5}$/, ADDRESS_MSG.cpInvalido),
);

/** Ten digits; spaces, dashes, dots and parentheses between them are dropped ("81 1234-5678"). */
const Telefono = z.preprocess(
  (v) => (typeof v === 'string' ? v.replace(/[\s\-.()]/g, '') : typeof v === 'number' ? String(v) : v),
  z.string({ error: ADDRESS_MSG.telefonoInvalido }).regex(/^\d{10}$/, ADDRESS_MSG.telefonoInvalido),
);

/** POST /api/direcciones and PUT /api/direcciones/{id} (an update keeps the address's own client). */
export const AddressBody = z.object({
  /** The distributor names the client; a client administrator's is always its own. */
  id_cliente: optionalIdNumber(MSG.debesSeleccionarCliente),
  nombre: requiredText(ADDRESS_MSG.nombreRequerido, 80),
  calle: requiredText(ADDRESS_MSG.calleRequerida, 150),
  numero_exterior: requiredText(ADDRESS_MSG.numeroExteriorRequerido, 20),
  numero_interior: optionalText(20).transform((v) => v ?? ''),
  colonia: requiredText(ADDRESS_MSG.coloniaRequerida, 100),
  municipio: requiredText(ADDRESS_MSG.municipioRequerido, 100),
  ciudad: requiredText(ADDRESS_MSG.ciudadRequerida, 100),
  estado: requiredText(ADDRESS_MSG.estadoRequerido, 60),
  cp: Cp,
  contacto: requiredText(ADDRESS_MSG.contactoRequerido, 100),
  telefono: Telefono,
  horario: optionalText(120).transform((v) => v ?? ''),
});
export type AddressBody = z.infer<typeof AddressBody>;

/** GET /api/direcciones: a client's address book, by name, a page at a time. */
export const AddressesQuery = z.object({
  id_cliente: optionalIdNumber(MSG.debesSeleccionarCliente),
  page: PageQuery,
  /** Addresses per page (20 by default; a form's choice reads up to 200 at once). */
  por_pagina: z.coerce.number().int().min(1).max(200).default(ADDRESSES_PER_PAGE),
  /** Inactive ones too (they are listed after the active ones). */
  inactivas: z
    .enum(['0', '1', 'true', 'false'])
    .optional()
    .transform((v) => v === '1' || v === 'true'),
});
export type AddressesQuery = z.infer<typeof AddressesQuery>;

/** One address of the book. */
export const AddressDto = z.object({
  id: z.number().int(),
  id_cliente: z.number().int(),
  nombre: z.string(),
  calle: z.string(),
  numero_exterior: z.string(),
  numero_interior: z.string(),
  colonia: z.string(),
  municipio: z.string(),
  ciudad: z.string(),
  estado: z.string(),
  cp: z.string(),
  contacto: z.string(),
  telefono: z.string(),
  horario: z.string(),
  activo: z.boolean(),
  /** Active buyers whose default it is, and who may choose it besides. */
  predeterminada_de: z.number().int(),
  permitida_a: z.number().int(),
});
export type AddressDto = z.infer<typeof AddressDto>;

export const AddressesResponse = z.object({
  direcciones: z.array(AddressDto),
  total: z.number().int(),
  page: z.number().int(),
  per_page: z.number().int(),
});
export type AddressesResponse = z.infer<typeof AddressesResponse>;

export const AddressResponse = z.object({ status: z.literal('ok'), msg: z.string(), direccion: AddressDto });
export type AddressResponse = z.infer<typeof AddressResponse>;

/**
 * PUT /api/usuarios/{id}/direcciones: the buyer's default address (null: none, the profile's address is
 * used) and the others it may choose, all of the user's client and active.
 */
export const UserAddressesBody = z.object({
  id_direccion: z.preprocess(
    (v) => (v === '' ? null : v),
    idNumber(ADDRESS_MSG.direccionInvalida).nullable(),
  ),
  direcciones: z
    .array(idNumber(ADDRESS_MSG.direccionesInvalidas), { error: ADDRESS_MSG.direccionesInvalidas })
    .max(USER_ADDRESSES_MAX, ADDRESS_MSG.demasiadasDirecciones)
    .default([]),
});
export type UserAddressesBody = z.infer<typeof UserAddressesBody>;

/** An address as a buyer chooses it: the label, the line it prints and whether it is the default. */
export const ShipToDto = z.object({
  id: z.number().int(),
  nombre: z.string(),
  direccion: z.string(),
  contacto: z.string(),
  predeterminada: z.boolean(),
});
export type ShipToDto = z.infer<typeof ShipToDto>;

/** GET /api/usuarios/{id}/direcciones (the form's choice) and GET /api/carrito/direcciones (the cart's). */
export const UserAddressesResponse = z.object({
  id_direccion: z.number().int().nullable(),
  direcciones: z.array(ShipToDto),
});
export type UserAddressesResponse = z.infer<typeof UserAddressesResponse>;
