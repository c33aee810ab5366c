/**
 * Welcome e-mails that never left (decision 0097): the administrator's banner counts the users whose latest
 * access e-mail is still unsent, and "Reenviar acceso" sends a fresh welcome link to a selection of users.
 */
import type {
  ResendAccessBody,
  ResendAccessResponse,
  ResendAccessSkip,
  UnsentAccessResponse,
} from '@portal/shared/schemas/users';
import { and, asc, inArray, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Tx } from '../../db/client.ts';
import { clients, emailOutbox, users } from '../../db/schema/index.ts';
import { audit, requestMeta } from '../../lib/audit.ts';
import { userInScope } from '../../lib/client-scope.ts';
import type { Deps } from '../../lib/deps.ts';
import { notFound } from '../../lib/errors.ts';
import { addressOf } from '../../lib/mailer.ts';
import { MSG } from '../../messages.ts';
import type { AuthContext } from '../../plugins/auth-guard.ts';
import { retireAllLinks } from '../auth/auth.repository.ts';
import { sendWelcomeLinks } from './users.service.ts';

/** An access e-mail still unsent this long after it was written shows in the banner. */
export const UNSENT_ACCESS_AFTER_MS = 10 * 60_000;
/** Outbox states of a message that has not reached a mail server ('registrado': recorded without SMTP). */
const UNSENT = ['pendiente', 'enviando', 'fallido', 'registrado'];
/** The body left on an access e-mail that a newer one replaced before it was sent: its link is dead. */
const REPLACED_BODY = '[reemplazado por un correo de acceso nuevo; el contenido no se conserva]';

/**
 * GET /api/usuarios/accesos-sin-enviar: active users without a password whose access e-mail is unsent
 * (written over 10 minutes ago; any age when no SMTP server is configured, since none will ever leave).
 */
export async function unsentAccess(deps: Deps): Promise<UnsentAccessResponse> {
  const sinSmtp = !deps.config.SMTP_URL;
  const cutoff = new Date(deps.clock.ms() - (sinSmtp ? 0 : UNSENT_ACCESS_AFTER_MS));
  const rows = await deps.db
    .select({ id: clients.id, nombre: clients.nombre, pendientes: sql<number>`count(*)`.mapWith(Number) })
    .from(users)
    .innerJoin(clients, sql`${clients.id} = ${users.idCliente}`)
    .where(
      sql`${users.activo} and ${users.passwordHash} is null and exists (
        select 1 from ${emailOutbox} o where o.user_id = ${users.id} and o.tipo = 'acceso'
          and o.status in ('pendiente', 'enviando', 'fallido', 'registrado') and o.created_at <= ${cutoff}
          and not exists (select 1 from ${emailOutbox} n where n.user_id = o.user_id and n.tipo = 'acceso'
            and n.id > o.id))`,
    )
    .groupBy(clients.id, clients.nombre)
    .orderBy(sql`count(*) desc`, asc(clients.nombre));
  return {
    pendientes: rows.reduce((sum, r) => sum + r.pendientes, 0),
    sin_smtp: sinSmtp,
    clientes: rows.slice(0, 5),
  };
}

/** The older unsent access e-mails of these users: never sent now, their links being retired. */
async function retireUnsentAccessEmails(tx: Tx, ids: number[]) {
  await tx
    .update(emailOutbox)
    .set({ status: 'reemplazado', text: REPLACED_BODY, html: null })
    .where(
      and(
        inArray(emailOutbox.userId, ids),
        sql`${emailOutbox.tipo} = 'acceso'`,
        inArray(
          emailOutbox.status,
          UNSENT.filter((s) => s !== 'enviando'),
        ),
      ),
    );
}

/**
 * POST /api/usuarios/reenviar-acceso: 1–500 users of one client (an unknown id, an administrator or users of
 * two clients answer 404 like a missing user). Each active user without a password and with an address gets
 * a fresh welcome link; the user's older links and unsent access e-mails are retired. One log entry.
 */
export async function resendAccess(
  deps: Deps,
  request: FastifyRequest,
  auth: AuthContext,
  body: ResendAccessBody,
): Promise<ResendAccessResponse> {
  const ids = [...new Set(body.ids)].sort((a, b) => a - b);
  const now = deps.clock.now();
  const result = await deps.db.transaction(async (tx) => {
    // Locked in id order: two resends of the same users run one after the other.
    const rows = await tx
      .select({
        id: users.id,
        idCliente: users.idCliente,
        rol: users.rol,
        activo: users.activo,
        usuario: users.usuario,
        nombre: users.nombre,
        email: users.email,
        conPassword: sql<boolean>`${users.passwordHash} is not null`,
      })
      .from(users)
      .where(inArray(users.id, ids))
      .orderBy(asc(users.id))
      .for('update');
    const idCliente = rows[0]?.idCliente ?? null;
    if (
      rows.length !== ids.length ||
      idCliente === null ||
      rows.some((r) => !userInScope(auth, r) || r.idCliente !== idCliente)
    )
      throw notFound(MSG.usuarioNoEncontrado, 'USER_NOT_FOUND');
    const skipped: { id: number; usuario: string; motivo: ResendAccessSkip }[] = [];
    const due = rows.filter((r) => {
      const motivo: ResendAccessSkip | null = !r.activo
        ? 'inactivo'
        : r.conPassword
          ? 'con_contrasena'
          : addressOf(r)
            ? null
            : 'sin_correo';
      if (motivo) skipped.push({ id: r.id, usuario: r.usuario, motivo });
      return motivo === null;
    });
    const dueIds = due.map((r) => r.id);
    if (dueIds.length > 0) {
      await retireAllLinks(tx, dueIds, now);
      await retireUnsentAccessEmails(tx, dueIds);
      await sendWelcomeLinks(tx, due, deps.config.PUBLIC_URL, now);
    }
    await audit(tx, {
      userId: auth.user.id,
      eventType: 'accesos_reenviados',
      description: `Accesos reenviados: ${dueIds.length}; omitidos: ${skipped.length}`,
      metadata: {
        id_cliente: idCliente,
        enviados: dueIds.length,
        omitidos: skipped.length,
        ids_usuarios: dueIds,
        omitidos_por_motivo: Object.fromEntries(
          [...new Set(skipped.map((s) => s.motivo))].map((m) => [
            m,
            skipped.filter((s) => s.motivo === m).length,
          ]),
        ),
        ...requestMeta(request),
      },
    });
    return { enviados: dueIds.length, skipped };
  });
  if (result.enviados > 0) void deps.mailer.flush();
  return {
    status: 'ok',
    msg: MSG.accesoReenviado(result.enviados, result.skipped.length),
    enviados: result.enviados,
    omitidos: result.skipped.length,
    detalle_omitidos: result.skipped,
  };
}
