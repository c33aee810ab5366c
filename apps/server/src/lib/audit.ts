import type { FastifyRequest } from 'fastify';
import type { Db, Tx } from '../db/client.ts';
import { systemLogs } from '../db/schema/index.ts';

export interface AuditEntry {
  userId: number | null;
  eventType: string;
  description: string;
  metadata?: Record<string, unknown>;
}

/** Who and from where, for the metadata of a log entry (never secrets). */
export function requestMeta(request: FastifyRequest): Record<string, unknown> {
  return { ip: request.ip, user_agent: String(request.headers['user-agent'] ?? '').slice(0, 300) };
}

/** Appends to the system log (append-only; never passwords or tokens). */
export async function audit(db: Db | Tx, entry: AuditEntry): Promise<void> {
  await db.insert(systemLogs).values({
    userId: entry.userId,
    eventType: entry.eventType,
    description: entry.description,
    metadata: entry.metadata ?? {},
  });
}
