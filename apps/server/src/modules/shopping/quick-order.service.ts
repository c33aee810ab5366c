import { parseQuickOrder } from '@portal/shared/domain/quick-order';
import type { QuickOrderResponse } from '@portal/shared/schemas/quick-order';
import { and, eq, inArray, or, sql } from 'drizzle-orm';
import { products, userProducts } from '../../db/schema/index.ts';
import type { Deps } from '../../lib/deps.ts';
import { MSG } from '../../messages.ts';
import type { AuthContext } from '../../plugins/auth-guard.ts';
import { buyerOf } from './cart.service.ts';
import { addLinesToCart, type ReorderLine } from './reorder.service.ts';

type Product = { id: number; nombre: string; claveInterna: string; claveCliente: string };

/** The buyer's assigned products whose clave interna or clave cliente is one of `keys` (lower case). */
async function assignedByClave(deps: Pick<Deps, 'db'>, userId: number, idCliente: number, keys: string[]) {
  if (keys.length === 0) return [];
  return deps.db
    .select({
      id: products.id,
      nombre: products.nombre,
      claveInterna: products.claveInterna,
      claveCliente: products.claveCliente,
    })
    .from(products)
    .innerJoin(
      userProducts,
      and(
        eq(userProducts.productId, products.id),
        eq(userProducts.userId, userId),
        eq(userProducts.asignado, true),
      ),
    )
    .where(
      and(
        eq(products.idCliente, idCliente),
        or(
          inArray(sql`lower(${products.claveInterna})`, keys),
          inArray(sql`lower(${products.claveCliente})`, keys),
        ),
      ),
    );
}

/**
 * POST /api/pedido-rapido: lines of `clave cantidad`, in order, through the one path of a repeated order
 * (addLinesToCart). A clave is matched, ignoring case, to the clave interna of a product assigned to the
 * buyer, else to its clave cliente; a clave of no assigned product (another client's included) is unknown,
 * reported by line; a clave cliente shared by several assigned products is refused with its line.
 */
export async function userQuickOrder(
  deps: Deps,
  auth: AuthContext,
  texto: string,
): Promise<QuickOrderResponse> {
  const { buyer } = buyerOf(auth);
  const { lineas, invalidas } = parseQuickOrder(texto);
  const found = await assignedByClave(deps, buyer.id, buyer.idCliente, [
    ...new Set(lineas.map((l) => l.clave.toLowerCase())),
  ]);
  const byInterna = new Map<string, Product>();
  const byCliente = new Map<string, Product[]>();
  for (const p of found) {
    byInterna.set(p.claveInterna.toLowerCase(), p);
    const key = p.claveCliente.toLowerCase();
    if (key !== '') byCliente.set(key, [...(byCliente.get(key) ?? []), p]);
  }

  const toAdd: ReorderLine[] = [];
  const desconocidas: QuickOrderResponse['desconocidas'] = [];
  const refused = [...invalidas];
  for (const line of lineas) {
    const key = line.clave.toLowerCase();
    const byClient = byCliente.get(key) ?? [];
    const product = byInterna.get(key) ?? (byClient.length === 1 ? byClient[0] : undefined);
    if (product) toAdd.push({ id: product.id, cantidad: line.cantidad, nombre: product.nombre });
    else if (byClient.length > 1)
      refused.push({
        linea: line.linea,
        texto: `${line.clave} ${line.cantidad}`,
        motivo: MSG.pedidoRapidoClaveAmbigua,
      });
    else desconocidas.push({ linea: line.linea, clave: line.clave });
  }

  const result = await addLinesToCart(deps, auth, toAdd);
  return { ...result, desconocidas, invalidas: refused.sort((a, b) => a.linea - b.linea) };
}
