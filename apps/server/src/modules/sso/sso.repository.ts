import { ROLES } from '@portal/shared/domain/roles';
import { and, asc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import type { UserRow } from '../../db/principal.ts';
import { clientSso, clientSsoDomains, clients, ssoLogins, users } from '../../db/schema/index.ts';

export type SsoConfigRow = typeof clientSso.$inferSelect;
export type SsoLoginRow = typeof ssoLogins.$inferSelect;

export async function findConfig(db: Db | Tx, idCliente: number): Promise<SsoConfigRow | undefined> {
  const [row] = await db.select().from(clientSso).where(eq(clientSso.idCliente, idCliente)).limit(1);
  return row;
}

/** The active configuration that covers an e-mail domain, of an active client. */
export async function findActiveConfigByDomain(db: Db, dominio: string): Promise<SsoConfigRow | undefined> {
  const [row] = await db
    .select({ config: clientSso })
    .from(clientSsoDomains)
    .innerJoin(clientSso, eq(clientSso.idCliente, clientSsoDomains.idCliente))
    .innerJoin(clients, eq(clients.id, clientSso.idCliente))
    .where(and(eq(clientSsoDomains.dominio, dominio), eq(clientSso.activo, true), eq(clients.activo, true)))
    .limit(1);
  return row?.config;
}

/** The client's active configuration, when the client is active too. */
export async function findActiveConfig(db: Db, idCliente: number): Promise<SsoConfigRow | undefined> {
  const [row] = await db
    .select({ config: clientSso })
    .from(clientSso)
    .innerJoin(clients, eq(clients.id, clientSso.idCliente))
    .where(and(eq(clientSso.idCliente, idCliente), eq(clientSso.activo, true), eq(clients.activo, true)))
    .limit(1);
  return row?.config;
}

/** The domains of `dominios` that another client's configuration already covers. */
export async function domainsOfOthers(tx: Tx, idCliente: number, dominios: string[]): Promise<string[]> {
  if (dominios.length === 0) return [];
  const rows = await tx
    .select({ dominio: clientSsoDomains.dominio })
    .from(clientSsoDomains)
    .where(
      and(inArray(clientSsoDomains.dominio, dominios), sql`${clientSsoDomains.idCliente} <> ${idCliente}`),
    );
  return rows.map((r) => r.dominio);
}

/**
 * The e-mail domains of the client's administrators (rol 5): accounts only the distributor makes and changes,
 * so their domains are the company's by the distributor's word (decision 0122).
 */
export async function clientAdminDomains(tx: Tx, idCliente: number): Promise<string[]> {
  const rows = await tx
    .select({ dominio: sql<string>`lower(split_part(${users.email}, '@', 2))` })
    .from(users)
    .where(and(eq(users.idCliente, idCliente), eq(users.rol, ROLES.administradorCliente)));
  return rows.map((r) => r.dominio).filter(Boolean);
}

/** Writes a client's configuration and its domains (the domain rows replaced), in the caller's transaction. */
export async function saveConfig(
  tx: Tx,
  values: Omit<SsoConfigRow, 'createdAt' | 'updatedAt'>,
  now: Date,
): Promise<SsoConfigRow> {
  const [row] = await tx
    .insert(clientSso)
    .values({ ...values, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: clientSso.idCliente,
      set: {
        emisor: values.emisor,
        idClienteOidc: values.idClienteOidc,
        secretoCifrado: values.secretoCifrado,
        dominios: values.dominios,
        obligatorio: values.obligatorio,
        altaAutomatica: values.altaAutomatica,
        activo: values.activo,
        updatedAt: now,
      },
    })
    .returning();
  await tx.delete(clientSsoDomains).where(eq(clientSsoDomains.idCliente, values.idCliente));
  await tx
    .insert(clientSsoDomains)
    .values(values.dominios.map((dominio) => ({ dominio, idCliente: values.idCliente })));
  return row!;
}

/** Removes a client's configuration (its domains go with it); false when it had none. */
export async function deleteConfig(tx: Tx, idCliente: number): Promise<boolean> {
  const gone = await tx
    .delete(clientSso)
    .where(eq(clientSso.idCliente, idCliente))
    .returning({ id: clientSso.idCliente });
  return gone.length > 0;
}

export async function insertLogin(db: Db, values: typeof ssoLogins.$inferInsert): Promise<void> {
  await db.insert(ssoLogins).values(values);
}

/**
 * Uses a sign-in in progress, once: only the flow of this state, started from this session, unused and not
 * expired, is marked used and answered. A second callback with the same state (a replayed code) gets nothing.
 */
export async function consumeLogin(
  db: Db,
  stateHash: string,
  sessionId: string,
  now: Date,
): Promise<SsoLoginRow | undefined> {
  const [row] = await db
    .update(ssoLogins)
    .set({ usedAt: now })
    .where(
      and(
        eq(ssoLogins.stateHash, stateHash),
        eq(ssoLogins.sessionId, sessionId),
        isNull(ssoLogins.usedAt),
        gt(ssoLogins.expiresAt, now),
      ),
    )
    .returning();
  return row;
}

/** The flow of a state whatever its state (for the log of a refused callback): its client only. */
export async function loginClientOf(db: Db, stateHash: string): Promise<number | null> {
  const [row] = await db
    .select({ idCliente: ssoLogins.idCliente })
    .from(ssoLogins)
    .where(eq(ssoLogins.stateHash, stateHash))
    .limit(1);
  return row?.idCliente ?? null;
}

/** The client's accounts of roles 1–3 with this e-mail (case-insensitive), active ones first. */
export async function usersByEmail(db: Db | Tx, idCliente: number, correo: string): Promise<UserRow[]> {
  return db
    .select()
    .from(users)
    .where(
      and(
        eq(users.idCliente, idCliente),
        sql`${users.rol} between 1 and 3`,
        sql`lower(${users.email}) = lower(${correo})`,
      ),
    )
    .orderBy(sql`${users.activo} desc`, asc(users.id))
    .limit(10);
}

/** Usernames already taken among these candidates (case-insensitive), lower-cased. */
export async function takenUsernames(tx: Tx, candidates: string[]): Promise<Set<string>> {
  if (candidates.length === 0) return new Set();
  const rows = await tx
    .select({ usuario: sql<string>`lower(${users.usuario})` })
    .from(users)
    .where(
      inArray(
        sql`lower(${users.usuario})`,
        candidates.map((c) => c.toLowerCase()),
      ),
    );
  return new Set(rows.map((r) => r.usuario));
}
