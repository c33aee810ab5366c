import { type Acting, delegationActive, delegationWindowProblem } from '@portal/shared/domain/delegation';
import { ROLES } from '@portal/shared/domain/roles';
import { businessDate, formatIsoDate } from '@portal/shared/domain/time';
import type { DelegationBody, DelegationState } from '@portal/shared/schemas/delegation';
import { and, asc, eq, gte, inArray, lte, ne, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { FastifyRequest } from 'fastify';
import type { Db, Tx } from '../../db/client.ts';
import { executeNamed, prepared, type Val } from '../../db/prepared.ts';
import { delegations, users } from '../../db/schema/index.ts';
import { audit, requestMeta } from '../../lib/audit.ts';
import type { Deps } from '../../lib/deps.ts';
import { orderEmail } from '../../lib/emails.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { addressOf, enqueueEmail } from '../../lib/mailer.ts';
import { MSG } from '../../messages.ts';
import type { Delegator, KeptSession } from '../../plugins/session-cache.ts';

/**
 * Out-of-office delegation (docs/domain.md "Delegation", decision 0053). One row per delegator; the window is
 * read against the business date of "now" in BUSINESS_TZ. A delegation counts only while both people are
 * active authorizers (rol 2 or 3) of the same client: a later change of role, client or activo ends its
 * effect without touching the row.
 */

const AUTHORIZER_ROLES = [ROLES.autorizador, ROLES.superAutorizador];
const delegate = alias(users, 'delegate');

/** Today's business date. */
export function today(deps: Pick<Deps, 'clock' | 'config'>, now: Date = deps.clock.now()): string {
  return businessDate(now, deps.config.BUSINESS_TZ);
}

/**
 * The people `userId` acts for on business date `day`: active authorizers of the same client. With `kept`
 * (a screen's read on the pool, never a transaction's) the list is read once per session and day and kept
 * with the session until a change to the user's delegations or to a delegator is announced (decision 0080).
 */
export async function actingFor(
  db: Db | Tx,
  userId: number,
  idCliente: number,
  day: string,
  kept?: KeptSession,
): Promise<readonly Delegator[]> {
  const found = kept?.cache.actingOf(kept.sessionId, day);
  if (found) return found;
  // A change announced after this moment is not kept with a list read now.
  const epoch = kept?.cache.epoch ?? 0;
  // On every authorizer's request (the list, the review) that finds none kept: a named prepared statement.
  const delegators = await prepared(db, 'portal_acting_for', (d) =>
    actingForQuery(d, {
      userId: sql.placeholder('userId'),
      idCliente: sql.placeholder('idCliente'),
      day: sql.placeholder('day'),
    }),
  ).execute({ userId, day, idCliente });
  if (kept)
    kept.cache.keep(kept.sessionId, epoch, { acting: { day, delegators: Object.freeze(delegators) } });
  return delegators;
}

/** The statement of `actingFor` (an approval reads it within its own statement). */
export function actingForQuery(
  d: Db | Tx,
  p: { userId: Val<number>; idCliente: Val<number>; day: Val<string> },
) {
  return d
    .select({ id: users.id, nombre: users.nombre, rol: users.rol, hasta: delegations.hasta })
    .from(delegations)
    .innerJoin(users, eq(users.id, delegations.delegatorId))
    .where(
      and(
        eq(delegations.delegateId, p.userId),
        lte(delegations.desde, p.day),
        gte(delegations.hasta, p.day),
        eq(users.idCliente, p.idCliente),
        eq(users.activo, true),
        inArray(users.rol, AUTHORIZER_ROLES),
      ),
    )
    .orderBy(asc(users.nombre), asc(users.id));
}

/** The ways `user` may act today: as themselves first, then with each delegator's role. */
export async function actorsOf(
  db: Db | Tx,
  user: { id: number; rol: number },
  idCliente: number,
  day: string,
  kept?: KeptSession,
): Promise<Acting[]> {
  return actorsFrom(user, await actingFor(db, user.id, idCliente, day, kept));
}

/** `actorsOf` from the delegators as read. */
export function actorsFrom(
  user: { rol: number },
  delegators: readonly { id: number; nombre: string; rol: number }[],
): Acting[] {
  return [
    { rol: user.rol, onBehalfOf: null },
    ...delegators.map((d) => ({ rol: d.rol, onBehalfOf: { id: d.id, nombre: d.nombre } })),
  ];
}

/** An active authorizer of a level, or a delegate standing in for one of them (`delegatorId`). */
export interface LevelPerson {
  id: number;
  email: string;
  usuario: string;
  nombre: string;
  /** The level's authorizer this person stands in for today; null for the level's own authorizers. */
  delegatorId: number | null;
}

/**
 * A client's active authorizers of role `rol`, then the delegates standing in for any of them on business date
 * `day` (the delegate must be an active authorizer of the same client too), in one statement: the level's own
 * people first, each part by id. A delegate who is also one of the level's people appears in both parts.
 */
export async function levelWithStandIns(
  db: Db | Tx,
  idCliente: number,
  rol: 2 | 3,
  day: string,
): Promise<LevelPerson[]> {
  // A named prepared statement: every purchase and approval that e-mails a level asks it.
  return executeNamed<LevelPerson>(
    db,
    'portal_level_with_stand_ins',
    levelWithStandInsQuery(idCliente, rol, day),
  );
}

/** The statement of `levelWithStandIns` (the purchase reads it within its own statement). */
export function levelWithStandInsQuery(idCliente: Val<number>, rol: 2 | 3, day: Val<string>): SQL {
  // The e-mail's column is named user_id (db/schema).
  const email = sql.identifier(users.email.name);
  return sql`
    with level as (
      select id, ${email} as email, usuario, nombre from ${users}
      where id_cliente = ${idCliente} and rol = ${rol} and activo
    )
    select id, email, usuario, nombre, null::integer as "delegatorId", 0 as part from level
    union all
    select d.id, d.${email}, d.usuario, d.nombre, g.delegator_id, 1
    from level l
    join ${delegations} g on g.delegator_id = l.id and g.desde <= ${day}::date and g.hasta >= ${day}::date
    join ${users} d on d.id = g.delegate_id
    where d.id_cliente = ${idCliente} and d.activo and d.rol in (${ROLES.autorizador}, ${ROLES.superAutorizador})
    order by part, id`;
}

interface Person {
  id: number;
  idCliente: number | null;
  rol: number;
  nombre: string;
}

/** The delegation screen's state for `person` (GET, and the answer of every change). */
export async function delegationState(db: Db | Tx, person: Person, day: string): Promise<DelegationState> {
  const isAuthorizer = person.idCliente !== null && AUTHORIZER_ROLES.includes(person.rol as 2 | 3);
  if (!isAuthorizer) return { delegacion: null, en_nombre_de: [], candidatos: [], hoy: day };
  const idCliente = person.idCliente!;
  // One after the other: inside a transaction the queries share one connection.
  const own = await db
    .select({
      desde: delegations.desde,
      hasta: delegations.hasta,
      id: delegate.id,
      nombre: delegate.nombre,
      rol: delegate.rol,
    })
    .from(delegations)
    .innerJoin(delegate, eq(delegate.id, delegations.delegateId))
    .where(and(eq(delegations.delegatorId, person.id), gte(delegations.hasta, day)))
    .limit(1);
  const enNombreDe = await actingFor(db, person.id, idCliente, day);
  const candidatos = await db
    .select({ id: users.id, nombre: users.nombre, rol: users.rol })
    .from(users)
    .where(
      and(
        eq(users.idCliente, idCliente),
        eq(users.activo, true),
        inArray(users.rol, AUTHORIZER_ROLES),
        ne(users.id, person.id),
      ),
    )
    .orderBy(asc(users.nombre), asc(users.id));
  const mine = own[0];
  return {
    delegacion: mine
      ? {
          delegado: { id: mine.id, nombre: mine.nombre, rol: mine.rol },
          desde: mine.desde,
          hasta: mine.hasta,
          activa: delegationActive(mine, day),
        }
      : null,
    en_nombre_de: [...enNombreDe],
    candidatos,
    hoy: day,
  };
}

/** An administrator's target: any user; a missing id answers 404. */
export async function findPerson(db: Db, id: number): Promise<Person> {
  const [row] = await db
    .select({ id: users.id, idCliente: users.idCliente, rol: users.rol, nombre: users.nombre })
    .from(users)
    .where(eq(users.id, id))
    .limit(1);
  if (!row) throw notFound(MSG.usuarioNoEncontrado, 'USER_NOT_FOUND');
  return row;
}

const refuse = (code: string, msg: string, field: string) => badRequest(code, msg, { [field]: msg });

/**
 * PUT: names `body.delegado_id` for `person` (replacing any earlier delegation). Refused: a person who is no
 * authorizer, oneself, anyone but an active authorizer of the same client (another client's id reads like a
 * missing one), a window that ends before it starts, lasts over 90 days or is over, and a delegate who is
 * out of office themselves in the window. Both people's rows are locked (in id order), so two people naming
 * each other at once cannot both succeed. The delegate is told by e-mail.
 */
export async function setDelegation(
  deps: Deps,
  request: FastifyRequest,
  actorId: number,
  person: Person,
  body: DelegationBody,
): Promise<DelegationState> {
  if (person.idCliente === null || !AUTHORIZER_ROLES.includes(person.rol as 2 | 3))
    throw badRequest('NOT_AN_AUTHORIZER', MSG.delegacionSoloAutorizadores);
  const day = today(deps);
  const problem = delegationWindowProblem(body.desde, body.hasta, day);
  if (problem) throw refuse('BAD_WINDOW', problem, 'hasta');
  if (body.delegado_id === person.id) throw refuse('SELF', MSG.delegadoEsUnoMismo, 'delegado_id');
  const state = await deps.db.transaction(async (tx) => {
    const locked = await tx
      .select({
        id: users.id,
        idCliente: users.idCliente,
        rol: users.rol,
        activo: users.activo,
        nombre: users.nombre,
        email: users.email,
        usuario: users.usuario,
      })
      .from(users)
      .where(inArray(users.id, [person.id, body.delegado_id]))
      .orderBy(asc(users.id))
      .for('update');
    const chosen = locked.find((u) => u.id === body.delegado_id);
    if (
      !chosen ||
      chosen.idCliente !== person.idCliente ||
      !chosen.activo ||
      !AUTHORIZER_ROLES.includes(chosen.rol as 2 | 3)
    )
      throw refuse('BAD_DELEGATE', MSG.delegadoNoValido, 'delegado_id');
    const [away] = await tx
      .select({ desde: delegations.desde })
      .from(delegations)
      .where(
        and(
          eq(delegations.delegatorId, chosen.id),
          lte(delegations.desde, body.hasta),
          gte(delegations.hasta, body.desde),
          gte(delegations.hasta, day),
        ),
      )
      .limit(1);
    if (away) throw refuse('DELEGATE_AWAY', MSG.delegadoAusente, 'delegado_id');
    const values = {
      delegatorId: person.id,
      delegateId: chosen.id,
      desde: body.desde,
      hasta: body.hasta,
      createdBy: actorId,
      createdAt: deps.clock.now(),
    };
    await tx
      .insert(delegations)
      .values(values)
      .onConflictDoUpdate({ target: delegations.delegatorId, set: values });
    await audit(tx, {
      userId: actorId,
      eventType: 'delegacion_guardada',
      description: `${person.nombre} delega en ${chosen.nombre} del ${formatIsoDate(body.desde)} al ${formatIsoDate(body.hasta)}`,
      metadata: {
        id_usuario: person.id,
        id_delegado: chosen.id,
        desde: body.desde,
        hasta: body.hasta,
        ...requestMeta(request),
      },
    });
    const to = addressOf(chosen);
    if (to)
      await enqueueEmail(
        tx,
        orderEmail(to, chosen.nombre, {
          subject: `${person.nombre} te delegó sus aprobaciones`,
          paragraphs: [
            `Del ${formatIsoDate(body.desde)} al ${formatIsoDate(body.hasta)} apruebas en nombre de ${person.nombre}: verás sus pedidos por revisar y recibirás sus avisos.`,
          ],
          url: `${deps.config.PUBLIC_URL}/autorizador/principal`,
          label: 'Ver pedidos por revisar',
        }),
      );
    return delegationState(tx, person, day);
  });
  void deps.mailer.flush();
  return state;
}

/** DELETE: ends `person`'s delegation now (nothing to end is not an error). */
export async function endDelegation(
  deps: Deps,
  request: FastifyRequest,
  actorId: number,
  person: Person,
): Promise<DelegationState> {
  const day = today(deps);
  return deps.db.transaction(async (tx) => {
    const ended = await tx
      .delete(delegations)
      .where(eq(delegations.delegatorId, person.id))
      .returning({ delegateId: delegations.delegateId });
    if (ended.length > 0)
      await audit(tx, {
        userId: actorId,
        eventType: 'delegacion_terminada',
        description: `${person.nombre} terminó su delegación`,
        metadata: { id_usuario: person.id, id_delegado: ended[0]!.delegateId, ...requestMeta(request) },
      });
    return delegationState(tx, person, day);
  });
}
