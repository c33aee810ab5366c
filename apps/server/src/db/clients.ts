/** Whether a client exists: the administrator's routes for one client answer 404 before anything else. */
import { eq } from 'drizzle-orm';
import type { Db, Tx } from './client.ts';
import { clients } from './schema/index.ts';

export async function clientExists(db: Db | Tx, idCliente: number): Promise<boolean> {
  const [row] = await db.select({ id: clients.id }).from(clients).where(eq(clients.id, idCliente)).limit(1);
  return Boolean(row);
}
