/**
 * A client on credit terms for the credit tests (decision 0134): its category and a product of $1,000.00
 * (before IVA), a buyer, one approver (one approval level, so the approver's approval is the final one, which
 * checks the credit) and a client administrator (rol 5); its orders of one unit, and the approval.
 */
import type { clients } from '../db/schema/index.ts';
import { nextIp } from './client-admin.ts';
import {
  makeCategory,
  makeClient,
  makeOrder,
  makeProduct,
  makeUser,
  TEST_PASSWORD,
  uniq,
} from './factories.ts';
import { ApiClient, type TestApp } from './harness.ts';
import { enrolTwoFactor } from './two-factor.ts';

/** The product's price in centavos, before IVA. */
export const CREDIT_PRODUCT_PRICE = 100_000;

export async function creditWorld(t: TestApp, credit: Partial<typeof clients.$inferInsert> = {}) {
  const db = () => t.database.db;
  const client = await makeClient(db(), {
    nombre: `Cliente ${uniq('cred')}`,
    limiteDeCompras: -1,
    cantidadAutorizadores: 1,
    ...credit,
  });
  const category = await makeCategory(db(), client.id);
  const product = await makeProduct(db(), {
    idCliente: client.id,
    idCategoria: category.id,
    precio: CREDIT_PRODUCT_PRICE,
  });
  const buyer = await makeUser(db(), { rol: 1, idCliente: client.id });
  const approver = await makeUser(db(), { rol: 2, idCliente: client.id });
  const clientAdmin = await makeUser(db(), { rol: 5, idCliente: client.id });
  /** An order of one unit, written as it is (no rule runs). */
  const order = (status: 'pendiente' | 'aprobado' = 'aprobado') =>
    makeOrder(db(), {
      idUser: buyer.id,
      idCliente: client.id,
      status,
      lines: [{ productId: product.id, precio: CREDIT_PRODUCT_PRICE, cantidad: 1, idCategoria: category.id }],
    });
  const login = async (u: { usuario: string; rol: number }) => {
    const api = await new ApiClient(t.app, nextIp()).loginOk(u.usuario, TEST_PASSWORD);
    // A client administrator works enrolled in two-factor sign-in (decision 0122).
    if (u.rol === 5) await enrolTwoFactor(api);
    return api;
  };
  /** The approver's approval of a waiting order as it is (the final one: it checks the credit). */
  const approve = async (id: number) =>
    (await login(approver)).post('/api/update/compra', { id, orden: [{ id: product.id, cantidad: 1 }] });
  return { client, category, product, buyer, approver, clientAdmin, order, login, approve };
}
