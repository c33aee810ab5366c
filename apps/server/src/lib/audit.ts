import type { LogEventType } from '@portal/shared/domain/log-events';
import { sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Db, Tx } from '../db/client.ts';
import { orders, systemLogs, users } from '../db/schema/index.ts';

export interface AuditEntry {
  userId: number | null;
  /** One of the labelled types of packages/shared/src/domain/log-events.ts. */
  eventType: LogEventType;
  description: string;
  metadata?: Record<string, unknown>;
}

/** Who and from where, for the metadata of a log entry (never secrets). */
export function requestMeta(request: FastifyRequest): Record<string, unknown> {
  return { ip: request.ip, user_agent: String(request.headers['user-agent'] ?? '').slice(0, 300) };
}

const idIn = (value: unknown): number | null =>
  typeof value === 'number' && Number.isInteger(value) && value > 0 && value <= 2_147_483_647 ? value : null;

/**
 * Appends to the system log (append-only; never passwords or tokens). The entry's client and order, which
 * the log's filters read from their own indexed columns, come from the metadata's `id_cliente` and
 * `id_pedido`; without an `id_cliente`, the client is the order's, else the acting user's (looked up in
 * the same statement).
 */
export async function audit(db: Db | Tx, entry: AuditEntry): Promise<void> {
  const metadata = entry.metadata ?? {};
  const idPedido = idIn(metadata.id_pedido);
  const idCliente = idIn(metadata.id_cliente);
  const client =
    idCliente !== null
      ? sql`${idCliente}::integer`
      : sql`coalesce(
          (select ${orders.idCliente} from ${orders} where ${orders.id} = ${idPedido}::integer),
          (select ${users.idCliente} from ${users} where ${users.id} = ${entry.userId}::integer)
        )`;
  await db.insert(systemLogs).values({
    userId: entry.userId,
    eventType: entry.eventType,
    description: entry.description,
    metadata,
    idPedido,
    idCliente: client,
  });
}
