import { listNameKey } from '@portal/shared/domain/lists';
import { centavosToPesos } from '@portal/shared/domain/money';
import type { OkMessage } from '@portal/shared/schemas/common';
import {
  LISTS_PER_USER_MAX,
  type ListCreateBody,
  type ListDetailDto,
  type ListSavedResponse,
  type ListsResponse,
  type ListUpdateBody,
} from '@portal/shared/schemas/lists';
import type { ReorderResponse } from '@portal/shared/schemas/shopping';
import { and, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { pendingPricesOf } from '../../db/pending-prices.ts';
import { savedLists } from '../../db/schema/index.ts';
import type { Deps } from '../../lib/deps.ts';
import { AppError, conflict, notFound, unprocessable } from '../../lib/errors.ts';
import { thumbUrl } from '../../lib/files.ts';
import { MSG } from '../../messages.ts';
import type { AuthContext } from '../../plugins/auth-guard.ts';
import { buyerOf, type LockedBuyer, lockBuyer } from '../shopping/cart.service.ts';
import { addLinesToCart } from '../shopping/reorder.service.ts';
import {
  countLists,
  listItems,
  listsOf,
  ownList,
  productsForList,
  replaceItems,
} from './lists.repository.ts';

const NAME_CONSTRAINT = 'saved_lists_user_nombre_unique';
const listNotFound = () => notFound(MSG.listaNoEncontrada, 'LIST_NOT_FOUND');

export async function userLists(deps: Pick<Deps, 'db'>, auth: AuthContext): Promise<ListsResponse> {
  buyerOf(auth);
  const rows = await listsOf(deps.db, auth.user.id);
  return {
    listas: rows.map((r) => ({
      id: r.id,
      nombre: r.nombre,
      productos: r.productos,
      actualizada: r.updatedAt.toISOString(),
    })),
  };
}

async function detail(
  db: Db | Tx,
  userId: number,
  list: typeof savedLists.$inferSelect,
): Promise<ListDetailDto> {
  const items = await listItems(db, userId, list.id);
  const pending = await pendingPricesOf(
    db,
    items.map((i) => i.id),
  );
  return {
    id: list.id,
    nombre: list.nombre,
    creada: list.createdAt.toISOString(),
    actualizada: list.updatedAt.toISOString(),
    items: items.map((i) => {
      const asignado = i.asignado === true;
      const codigo = !asignado ? 'NOT_ASSIGNED' : !i.activo ? 'INACTIVE_PRODUCT' : null;
      return {
        id: i.id,
        cantidad: i.cantidad,
        nombre: i.nombre,
        clave_interna: i.claveInterna,
        clave_cliente: i.claveCliente,
        unidad_de_medida: i.unidadDeMedida,
        precio: centavosToPesos(i.precio),
        impuesto: i.impuesto,
        id_categoria: i.idCategoria,
        categoria: i.categoria,
        miniatura: thumbUrl(i.imagen),
        cantidad_limite: asignado ? (i.cantidadLimite ?? 1) : null,
        disponible: codigo === null,
        motivo:
          codigo === 'NOT_ASSIGNED'
            ? MSG.productoNoAsignado
            : codigo === 'INACTIVE_PRODUCT'
              ? MSG.productoInactivo
              : null,
        codigo,
        precio_programado: pending.get(i.id) ?? null,
      };
    }),
  };
}

export async function userList(
  deps: Pick<Deps, 'db'>,
  auth: AuthContext,
  id: number,
): Promise<ListDetailDto> {
  buyerOf(auth);
  const list = await ownList(deps.db, auth.user.id, id);
  if (!list) throw listNotFound();
  return detail(deps.db, auth.user.id, list);
}

/**
 * Every product of a list must be of the buyer's client and assigned to the buyer: else 422 naming the
 * first one that is not (a product of another client is named by its id only, like a missing one).
 */
async function checkItems(tx: Tx, locked: LockedBuyer, items: readonly { id: number }[]) {
  const found = new Map(
    (
      await productsForList(
        tx,
        locked.buyer.id,
        locked.buyer.idCliente,
        items.map((i) => i.id),
      )
    ).map((p) => [p.id, p]),
  );
  const errors: Record<string, string> = {};
  let first: { code: string; msg: string } | undefined;
  items.forEach((item, index) => {
    const product = found.get(item.id);
    const problem = !product
      ? { code: 'PRODUCT_NOT_FOUND', msg: MSG.listaProductoNoExiste(item.id) }
      : product.asignado !== true
        ? { code: 'NOT_ASSIGNED', msg: `${product.nombre}: ${MSG.productoNoAsignado}` }
        : undefined;
    if (!problem) return;
    errors[`items.${index}.id`] = problem.msg;
    first ??= problem;
  });
  if (first) throw new AppError(422, first.code, first.msg, errors);
}

/** Runs a list change under the buyer's lock; a name already used (even by a concurrent call) is 409. */
async function saveUnderLock<T>(
  deps: Pick<Deps, 'db'>,
  auth: AuthContext,
  work: (tx: Tx, locked: LockedBuyer) => Promise<T>,
): Promise<T> {
  buyerOf(auth);
  try {
    return await deps.db.transaction(async (tx) => work(tx, await lockBuyer(tx, auth.user.id)));
  } catch (err) {
    if (isUniqueViolation(err, NAME_CONSTRAINT)) throw conflict('LIST_NAME_TAKEN', MSG.listaNombreDuplicado);
    throw err;
  }
}

async function refuseTakenName(tx: Tx, userId: number, nombreClave: string, exceptId?: number) {
  const [taken] = await tx
    .select({ id: savedLists.id })
    .from(savedLists)
    .where(and(eq(savedLists.userId, userId), eq(savedLists.nombreClave, nombreClave)))
    .limit(1);
  if (taken && taken.id !== exceptId) throw conflict('LIST_NAME_TAKEN', MSG.listaNombreDuplicado);
}

export async function userCreateList(
  deps: Deps,
  auth: AuthContext,
  body: ListCreateBody,
): Promise<ListSavedResponse> {
  return saveUnderLock(deps, auth, async (tx, locked) => {
    if ((await countLists(tx, locked.buyer.id)) >= LISTS_PER_USER_MAX)
      throw unprocessable('TOO_MANY_LISTS', MSG.listaMaximo);
    const nombreClave = listNameKey(body.nombre);
    await refuseTakenName(tx, locked.buyer.id, nombreClave);
    await checkItems(tx, locked, body.items);
    const [list] = await tx
      .insert(savedLists)
      .values({ userId: locked.buyer.id, nombre: body.nombre, nombreClave })
      .returning();
    await replaceItems(tx, list!.id, body.items);
    return { status: 'ok', msg: MSG.listaGuardada, lista: await detail(tx, locked.buyer.id, list!) };
  });
}

export async function userUpdateList(
  deps: Deps,
  auth: AuthContext,
  id: number,
  body: ListUpdateBody,
): Promise<ListSavedResponse> {
  return saveUnderLock(deps, auth, async (tx, locked) => {
    const list = await ownList(tx, locked.buyer.id, id);
    if (!list) throw listNotFound();
    const changes: Partial<typeof savedLists.$inferInsert> = { updatedAt: deps.clock.now() };
    if (body.nombre !== undefined) {
      changes.nombre = body.nombre;
      changes.nombreClave = listNameKey(body.nombre);
      await refuseTakenName(tx, locked.buyer.id, changes.nombreClave, id);
    }
    if (body.items !== undefined) {
      await checkItems(tx, locked, body.items);
      await replaceItems(tx, id, body.items);
    }
    const [saved] = await tx.update(savedLists).set(changes).where(eq(savedLists.id, id)).returning();
    return { status: 'ok', msg: MSG.listaGuardada, lista: await detail(tx, locked.buyer.id, saved!) };
  });
}

export async function userDeleteList(
  deps: Pick<Deps, 'db'>,
  auth: AuthContext,
  id: number,
): Promise<OkMessage> {
  buyerOf(auth);
  const deleted = await deps.db
    .delete(savedLists)
    .where(and(eq(savedLists.id, id), eq(savedLists.userId, auth.user.id)))
    .returning({ id: savedLists.id });
  if (deleted.length === 0) throw listNotFound();
  return { status: 'ok', msg: MSG.listaEliminada };
}

/** POST /api/listas/{id}/al-carrito: the list's items, in order, exactly as a repeated order's lines. */
export async function userListToCart(deps: Deps, auth: AuthContext, id: number): Promise<ReorderResponse> {
  buyerOf(auth);
  const list = await ownList(deps.db, auth.user.id, id);
  if (!list) throw listNotFound();
  const items = await listItems(deps.db, auth.user.id, id);
  return addLinesToCart(
    deps,
    auth,
    items.map((i) => ({ id: i.id, cantidad: i.cantidad, nombre: i.nombre })),
  );
}
