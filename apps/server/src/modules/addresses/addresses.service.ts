/**
 * Ship-to addresses (decision 0126, docs/domain.md "Ship-to addresses"): a client's address book, kept by
 * the distributor's administrator (any client) and the client's own administrator (its client, with the
 * `usuarios` permission), and each buyer's default and allowed addresses. Another client's address or
 * user answers like a missing one.
 */
import { deliveryAddress, deliveryContact } from '@portal/shared/domain/delivery';
import { ROLES } from '@portal/shared/domain/roles';
import type {
  AddressBody,
  AddressDto,
  AddressesQuery,
  AddressesResponse,
  AddressResponse,
  ShipToDto,
  UserAddressesBody,
  UserAddressesResponse,
} from '@portal/shared/schemas/addresses';
import { and, asc, count, desc, eq, getTableColumns, inArray, or, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Db, Tx } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { clientAddresses, userAddresses, users } from '../../db/schema/index.ts';
import { audit, requestMeta } from '../../lib/audit.ts';
import { requiredClient, scopedClient, userInScope } from '../../lib/client-scope.ts';
import type { Deps } from '../../lib/deps.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import { MSG } from '../../messages.ts';
import type { AuthContext } from '../../plugins/auth-guard.ts';

export const addressNotFound = () => notFound(MSG.direccionNoEncontrada, 'ADDRESS_NOT_FOUND');
const userNotFound = () => notFound(MSG.usuarioNoEncontrado, 'USER_NOT_FOUND');

type AddressRow = typeof clientAddresses.$inferSelect;

/**
 * Active buyers whose default an address is, and who may choose it besides (the outer row named in full:
 * drizzle writes a lone "id", which the subquery would read as its own).
 */
const defaultOf = sql<number>`(select count(*)::int from ${users} b
  where b.id_direccion = "client_addresses"."id" and b.activo)`.mapWith(Number);
const allowedTo =
  sql<number>`(select count(*)::int from ${userAddresses} x join ${users} b on b.id = x.user_id
  where x.address_id = "client_addresses"."id" and b.activo)`.mapWith(Number);

function addressDto(r: AddressRow & { predeterminada: number; permitida: number }): AddressDto {
  return {
    id: r.id,
    id_cliente: r.idCliente,
    nombre: r.nombre,
    calle: r.calle,
    numero_exterior: r.numeroExterior,
    numero_interior: r.numeroInterior,
    colonia: r.colonia,
    municipio: r.municipio,
    ciudad: r.ciudad,
    estado: r.estado,
    cp: r.cp,
    contacto: r.contacto,
    telefono: r.telefono,
    horario: r.horario,
    activo: r.activo,
    predeterminada_de: r.predeterminada,
    permitida_a: r.permitida,
  };
}

/** The copy an order keeps of an address (orders.entrega): every field, and the entry it came from. */
export function deliveryOf(r: AddressRow) {
  return {
    id_direccion: r.id,
    nombre: r.nombre,
    calle: r.calle,
    numero_exterior: r.numeroExterior,
    numero_interior: r.numeroInterior,
    colonia: r.colonia,
    municipio: r.municipio,
    ciudad: r.ciudad,
    estado: r.estado,
    cp: r.cp,
    contacto: r.contacto,
    telefono: r.telefono,
    horario: r.horario,
  };
}

/** An address the caller reaches (a client administrator: its own client's), or 404. */
async function reachableAddress(db: Db | Tx, auth: AuthContext, id: number): Promise<AddressRow> {
  const [row] = await db.select().from(clientAddresses).where(eq(clientAddresses.id, id));
  if (!row) throw addressNotFound();
  const own = scopedClient(auth, undefined);
  if (own !== undefined && row.idCliente !== own) throw addressNotFound();
  return row;
}

async function oneAddress(db: Db | Tx, id: number): Promise<AddressDto> {
  const [row] = await db
    .select({ ...columnsOf(), predeterminada: defaultOf, permitida: allowedTo })
    .from(clientAddresses)
    .where(eq(clientAddresses.id, id));
  return addressDto(row!);
}

const columnsOf = () => getTableColumns(clientAddresses);

/** GET /api/direcciones: the client's address book, active ones first, by name, a page at a time. */
export async function listAddresses(
  deps: Deps,
  auth: AuthContext,
  query: AddressesQuery,
): Promise<AddressesResponse> {
  const idCliente = await requiredClient(deps.db, auth, query.id_cliente);
  const where = and(
    eq(clientAddresses.idCliente, idCliente),
    query.inactivas ? undefined : eq(clientAddresses.activo, true),
  );
  const perPage = query.por_pagina;
  const [rows, [total]] = await Promise.all([
    deps.db
      .select({ ...columnsOf(), predeterminada: defaultOf, permitida: allowedTo })
      .from(clientAddresses)
      .where(where)
      .orderBy(
        desc(clientAddresses.activo),
        asc(sql`lower(${clientAddresses.nombre})`),
        asc(clientAddresses.id),
      )
      .limit(perPage)
      .offset((query.page - 1) * perPage),
    deps.db.select({ n: count() }).from(clientAddresses).where(where),
  ]);
  return { direcciones: rows.map(addressDto), total: total?.n ?? 0, page: query.page, per_page: perPage };
}

function duplicate(err: unknown): never {
  if (isUniqueViolation(err)) throw conflict('ADDRESS_DUPLICATE', MSG.direccionRepetida);
  throw err;
}

/** The columns a body sets. */
function valuesOf(body: AddressBody) {
  return {
    nombre: body.nombre,
    calle: body.calle,
    numeroExterior: body.numero_exterior,
    numeroInterior: body.numero_interior,
    colonia: body.colonia,
    municipio: body.municipio,
    ciudad: body.ciudad,
    estado: body.estado,
    cp: body.cp,
    contacto: body.contacto,
    telefono: body.telefono,
    horario: body.horario,
  };
}

/** POST /api/direcciones */
export async function createAddress(
  deps: Deps,
  request: FastifyRequest,
  auth: AuthContext,
  body: AddressBody,
): Promise<AddressResponse> {
  const id = await deps.db.transaction(async (tx) => {
    const idCliente = await requiredClient(tx, auth, body.id_cliente);
    const [row] = await tx
      .insert(clientAddresses)
      .values({ idCliente, ...valuesOf(body) })
      .returning()
      .catch(duplicate);
    await audit(tx, {
      userId: auth.user.id,
      eventType: 'direccion_creada',
      description: `Dirección de entrega creada: ${row!.nombre} (${deliveryAddress(deliveryOf(row!))})`,
      metadata: { id_direccion: row!.id, id_cliente: idCliente, ...requestMeta(request) },
    });
    return row!.id;
  });
  return { status: 'ok', msg: MSG.creadoCorrectamente, direccion: await oneAddress(deps.db, id) };
}

/**
 * PUT /api/direcciones/{id}: changes the entry (and reactivates an inactive one); orders already placed
 * keep their own copy.
 */
export async function updateAddress(
  deps: Deps,
  request: FastifyRequest,
  auth: AuthContext,
  id: number,
  body: AddressBody,
): Promise<AddressResponse> {
  await deps.db.transaction(async (tx) => {
    const before = await reachableAddress(tx, auth, id);
    if (body.id_cliente !== undefined && body.id_cliente !== before.idCliente) throw addressNotFound();
    const [after] = await tx
      .update(clientAddresses)
      .set({ ...valuesOf(body), activo: true, updatedAt: sql`now()` })
      .where(eq(clientAddresses.id, id))
      .returning()
      .catch(duplicate);
    await audit(tx, {
      userId: auth.user.id,
      eventType: 'direccion_modificada',
      description: `Dirección de entrega modificada: ${after!.nombre} (${deliveryAddress(deliveryOf(after!))})${
        before.activo ? '' : ', reactivada'
      }`,
      metadata: { id_direccion: id, id_cliente: before.idCliente, ...requestMeta(request) },
    });
  });
  return { status: 'ok', msg: MSG.modificadoCorrectamente, direccion: await oneAddress(deps.db, id) };
}

/**
 * DELETE /api/direcciones/{id}: deactivates the entry (never deleted: it lives as long as its client). An
 * active buyer's default is refused (409: give them another first); buyers allowed it lose the choice.
 */
export async function deactivateAddress(
  deps: Deps,
  request: FastifyRequest,
  auth: AuthContext,
  id: number,
): Promise<AddressResponse> {
  await deps.db.transaction(async (tx) => {
    const before = await reachableAddress(tx, auth, id);
    // Locked, so that no buyer takes it as default while it goes (the user form reads it for share).
    await tx.execute(sql`select 1 from ${clientAddresses} where id = ${id} for update`);
    const [inUse] = await tx
      .select({ n: count() })
      .from(users)
      .where(and(eq(users.idDireccion, id), eq(users.activo, true)));
    if (inUse && inUse.n > 0) throw conflict('ADDRESS_IS_DEFAULT', MSG.direccionPredeterminadaEnUso(inUse.n));
    // An inactive buyer's default is let go: it would otherwise name an address nobody may choose.
    await tx.update(users).set({ idDireccion: null }).where(eq(users.idDireccion, id));
    await tx.delete(userAddresses).where(eq(userAddresses.addressId, id));
    await tx
      .update(clientAddresses)
      .set({ activo: false, updatedAt: sql`now()` })
      .where(eq(clientAddresses.id, id));
    if (before.activo)
      await audit(tx, {
        userId: auth.user.id,
        eventType: 'direccion_desactivada',
        description: `Dirección de entrega desactivada: ${before.nombre}`,
        metadata: { id_direccion: id, id_cliente: before.idCliente, ...requestMeta(request) },
      });
  });
  return { status: 'ok', msg: MSG.direccionDesactivada, direccion: await oneAddress(deps.db, id) };
}

/** The user a request names, within the caller's reach, or 404 (the receivers' naming reads it too). */
export async function reachableUser(db: Db | Tx, auth: AuthContext, id: number) {
  const [u] = await db
    .select({
      id: users.id,
      idCliente: users.idCliente,
      rol: users.rol,
      nombre: users.nombre,
      idDireccion: users.idDireccion,
    })
    .from(users)
    .where(eq(users.id, id));
  if (!u || !userInScope(auth, u)) throw userNotFound();
  return u;
}

/**
 * A buyer's default and allowed addresses (active ones only), the default first, then by name: what the
 * cart offers and the user form shows.
 */
export async function shipToChoices(
  db: Db | Tx,
  user: { id: number; idDireccion: number | null },
): Promise<UserAddressesResponse> {
  const allowed = db
    .select({ id: userAddresses.addressId })
    .from(userAddresses)
    .where(eq(userAddresses.userId, user.id));
  const rows = await db
    .select()
    .from(clientAddresses)
    .where(
      and(
        eq(clientAddresses.activo, true),
        user.idDireccion === null
          ? inArray(clientAddresses.id, allowed)
          : or(eq(clientAddresses.id, user.idDireccion), inArray(clientAddresses.id, allowed)),
      ),
    )
    .orderBy(asc(sql`lower(${clientAddresses.nombre})`), asc(clientAddresses.id));
  const direcciones: ShipToDto[] = rows
    .map((r) => ({
      id: r.id,
      nombre: r.nombre,
      direccion: deliveryAddress({ ...deliveryOf(r), nombre: '' }),
      contacto: deliveryContact(deliveryOf(r)),
      predeterminada: r.id === user.idDireccion,
    }))
    .sort((a, b) => Number(b.predeterminada) - Number(a.predeterminada));
  const idDireccion = direcciones.some((d) => d.predeterminada) ? user.idDireccion : null;
  return { id_direccion: idDireccion, direcciones };
}

/** GET /api/usuarios/{id}/direcciones */
export async function userAddressesOf(
  deps: Deps,
  auth: AuthContext,
  userId: number,
): Promise<UserAddressesResponse> {
  const user = await reachableUser(deps.db, auth, userId);
  return shipToChoices(deps.db, user);
}

/**
 * PUT /api/usuarios/{id}/direcciones: a buyer's default (null: none; the orders then copy its profile's
 * address) and the other addresses it may choose, replaced whole; each must be an active address of the
 * buyer's client.
 */
export async function setUserAddresses(
  deps: Deps,
  request: FastifyRequest,
  auth: AuthContext,
  userId: number,
  body: UserAddressesBody,
): Promise<UserAddressesResponse & { status: 'ok'; msg: string }> {
  const result = await deps.db.transaction(async (tx) => {
    const user = await reachableUser(tx, auth, userId);
    const others = [...new Set(body.direcciones)].filter((id) => id !== body.id_direccion);
    const named = body.id_direccion === null ? others : [body.id_direccion, ...others];
    if (named.length > 0 && user.rol !== ROLES.usuario)
      throw badRequest('VALIDATION', MSG.direccionSoloCompradores, {
        id_direccion: MSG.direccionSoloCompradores,
      });
    // Read for share: an address deactivated at the same time waits, then is seen inactive.
    const found =
      named.length === 0
        ? []
        : await tx
            .select({ id: clientAddresses.id, nombre: clientAddresses.nombre })
            .from(clientAddresses)
            .where(
              and(
                inArray(clientAddresses.id, named),
                eq(clientAddresses.idCliente, user.idCliente ?? -1),
                eq(clientAddresses.activo, true),
              ),
            )
            .for('share');
    if (found.length !== named.length)
      throw badRequest('VALIDATION', MSG.direccionDeOtroCliente, { direcciones: MSG.direccionDeOtroCliente });
    await tx.update(users).set({ idDireccion: body.id_direccion }).where(eq(users.id, userId));
    await tx.delete(userAddresses).where(eq(userAddresses.userId, userId));
    if (others.length > 0)
      await tx.insert(userAddresses).values(others.map((addressId) => ({ userId, addressId })));
    const nameOf = new Map(found.map((f) => [f.id, f.nombre]));
    await audit(tx, {
      userId: auth.user.id,
      eventType: 'direcciones_usuario',
      description: `Direcciones de entrega de ${user.nombre}: predeterminada ${
        body.id_direccion === null ? 'ninguna' : nameOf.get(body.id_direccion)
      }${others.length > 0 ? `; también ${others.map((id) => nameOf.get(id)).join(', ')}` : ''}`,
      metadata: {
        id_usuario: userId,
        id_cliente: user.idCliente,
        id_direccion: body.id_direccion,
        direcciones: others,
        ...requestMeta(request),
      },
    });
    return shipToChoices(tx, { id: userId, idDireccion: body.id_direccion });
  });
  return { status: 'ok', msg: MSG.direccionesGuardadas, ...result };
}

/** GET /api/carrito/direcciones: the addresses the signed-in buyer may send its order to. */
export async function buyerShipTo(deps: Deps, auth: AuthContext): Promise<UserAddressesResponse> {
  const [u] = await deps.db
    .select({ id: users.id, idDireccion: users.idDireccion })
    .from(users)
    .where(eq(users.id, auth.user.id));
  return shipToChoices(deps.db, u!);
}

/**
 * The address book entry a purchase names (POST /api/compra `id_direccion`), checked under the buyer's
 * lock: missing, another client's → 404; inactive, or neither the buyer's default nor allowed → 400.
 */
export async function checkChosenAddress(
  tx: Tx,
  buyer: { id: number; idCliente: number },
  id: number,
): Promise<void> {
  const [row] = await tx
    .select({
      idCliente: clientAddresses.idCliente,
      activo: clientAddresses.activo,
      elegible: sql<boolean>`(exists (select 1 from ${users} u where u.id = ${buyer.id} and u.id_direccion = ${id})
        or exists (select 1 from ${userAddresses} x where x.user_id = ${buyer.id} and x.address_id = ${id}))`,
    })
    .from(clientAddresses)
    .where(eq(clientAddresses.id, id));
  if (!row || row.idCliente !== buyer.idCliente) throw addressNotFound();
  if (!row.activo || !row.elegible)
    throw badRequest('ADDRESS_NOT_ALLOWED', MSG.direccionNoPermitida, {
      id_direccion: MSG.direccionNoPermitida,
    });
}
