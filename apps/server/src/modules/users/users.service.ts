import { budgetNeedsApproval } from '@portal/shared/domain/client-admin';
import { formatCentavos, pesosToCentavos } from '@portal/shared/domain/money';
import { ROLES, ROLES_A_CLIENT_ADMIN_GIVES } from '@portal/shared/domain/roles';
import { MIN_USER_BUDGET_PESOS, WELCOME_LINK_TTL_MS } from '@portal/shared/limits';
import type {
  BulkDeactivateBody,
  BulkDeactivateResponse,
  UserBody,
  UserDto,
  UserUpdateResponse,
} from '@portal/shared/schemas/users';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Tx } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { categories, clients, passwordTokens, userCategoryBudgets, users } from '../../db/schema/index.ts';
import { audit, requestMeta } from '../../lib/audit.ts';
import {
  clientAllows,
  isClientAdmin,
  requireClientPermission,
  scopedClient,
  userInScope,
} from '../../lib/client-scope.ts';
import type { Deps } from '../../lib/deps.ts';
import { temporaryPasswordEmail, welcomeEmail } from '../../lib/emails.ts';
import { AppError, badRequest, conflict, notFound } from '../../lib/errors.ts';
import { addressOf, type Email, enqueueEmail, enqueueEmails } from '../../lib/mailer.ts';
import { hashPassword, temporaryPassword } from '../../lib/passwords.ts';
import { hashToken, newToken } from '../../lib/tokens.ts';
import { MSG } from '../../messages.ts';
import type { AuthContext } from '../../plugins/auth-guard.ts';
import { checkUserArea } from '../areas/areas.service.ts';
import { retireAllLinks, setPassword } from '../auth/auth.repository.ts';
import { queueBudgetRequest, replacePendingBudgetRequest } from './budget-requests.service.ts';
import { findClientUser, listUsers, storeCategoryBudgets, userDetail } from './users.repository.ts';

type ClientRow = typeof clients.$inferSelect;

const userNotFound = () => notFound(MSG.usuarioNoEncontrado, 'USER_NOT_FOUND');
const duplicate = () => conflict('DUPLICATE_USUARIO', MSG.usuarioDuplicado);

async function usuarioTaken(tx: Tx, usuario: string, exceptId?: number): Promise<boolean> {
  const [row] = await tx
    .select({ id: users.id })
    .from(users)
    .where(
      exceptId === undefined
        ? sql`lower(${users.usuario}) = lower(${usuario})`
        : and(sql`lower(${users.usuario}) = lower(${usuario})`, sql`${users.id} <> ${exceptId}`),
    )
    .limit(1);
  return Boolean(row);
}

interface ResolvedBudget {
  /** centavos */
  presupuestoDefault: number;
  /** Category mode: the budgets to store (centavos, all > 0); undefined = keep the stored ones. */
  categorias?: { id: number; presupuesto: number }[];
}

/**
 * Regular mode: presupuesto_default ≥ $1 (the given one, else the stored one on update, else the
 * client's). Category mode: the categories above 0 (of this client) and their sum.
 */
async function resolveBudget(
  tx: Tx,
  client: ClientRow,
  body: UserBody,
  current?: { presupuestoDefault: number },
): Promise<ResolvedBudget> {
  if (client.modoPresupuesto === 'categoria') {
    if (body.categorias === undefined) {
      return { presupuestoDefault: current?.presupuestoDefault ?? 0, categorias: current ? undefined : [] };
    }
    const seen = new Set<number>();
    for (const c of body.categorias) {
      if (seen.has(c.id))
        throw badRequest('VALIDATION', MSG.categoriaRepetida, { categorias: MSG.categoriaRepetida });
      seen.add(c.id);
    }
    const kept = body.categorias
      .map((c) => ({ id: c.id, presupuesto: pesosToCentavos(c.presupuesto) }))
      .filter((c) => c.presupuesto > 0);
    if (kept.length > 0) {
      const own = await tx
        .select({ id: categories.id })
        .from(categories)
        .where(
          and(
            eq(categories.idCliente, client.id),
            inArray(
              categories.id,
              kept.map((c) => c.id),
            ),
          ),
        );
      if (own.length !== kept.length)
        throw badRequest('VALIDATION', MSG.categoriaAjena, { categorias: MSG.categoriaAjena });
    }
    return { presupuestoDefault: kept.reduce((s, c) => s + c.presupuesto, 0), categorias: kept };
  }
  const centavos =
    body.presupuesto_default !== undefined
      ? pesosToCentavos(body.presupuesto_default)
      : (current?.presupuestoDefault ?? client.presupuestoDefault);
  if (centavos < pesosToCentavos(MIN_USER_BUDGET_PESOS)) {
    throw badRequest('VALIDATION', MSG.presupuestoUsuarioMinimo, {
      presupuesto_default: MSG.presupuestoUsuarioMinimo,
    });
  }
  return { presupuestoDefault: centavos };
}

/**
 * E-mails a single-use link (72 h) to set the password to each account's address (outbox, in the caller's
 * transaction). The accounts without an address get nothing: no link is stored or sent. Returns the ids
 * of the accounts that were sent a link.
 */
export async function sendWelcomeLinks(
  tx: Tx,
  accounts: readonly { id: number; usuario: string; nombre: string; email: string }[],
  publicUrl: string,
  /** Now (the app's clock): the links live WELCOME_LINK_TTL_MS from it. */
  now: Date,
): Promise<Set<number>> {
  const sent = new Set<number>();
  const tokens: { userId: number; tokenHash: string; purpose: string; expiresAt: Date }[] = [];
  const emails: Email[] = [];
  const expiresAt = new Date(now.getTime() + WELCOME_LINK_TTL_MS);
  for (const account of accounts) {
    const to = addressOf(account);
    if (!to) continue;
    const token = newToken();
    tokens.push({ userId: account.id, tokenHash: hashToken(token), purpose: 'bienvenida', expiresAt });
    emails.push({
      ...welcomeEmail(to, account.nombre, account.usuario, `${publicUrl}/restablecer/${token}`),
      tipo: 'acceso',
      userId: account.id,
    });
    sent.add(account.id);
  }
  if (tokens.length) await tx.insert(passwordTokens).values(tokens);
  await enqueueEmails(tx, emails);
  return sent;
}

/** One account's welcome link (see sendWelcomeLinks); false when the account has no address. */
export async function sendWelcomeLink(
  tx: Tx,
  user: { id: number; usuario: string; nombre: string; email: string },
  publicUrl: string,
  now: Date,
): Promise<boolean> {
  return (await sendWelcomeLinks(tx, [user], publicUrl, now)).has(user.id);
}

/** The role rule of an account: super autorizador only where the client has two authorizers. */
export function roleAllowed(rol: number, client: { cantidadAutorizadores: number }): boolean {
  return rol !== ROLES.superAutorizador || client.cantidadAutorizadores === 2;
}

function checkRol(auth: AuthContext, rol: number, client: ClientRow) {
  // A client administrator gives roles 1–3 only, never its own (decision 0122).
  if (isClientAdmin(auth) && !(ROLES_A_CLIENT_ADMIN_GIVES as readonly number[]).includes(rol)) {
    throw new AppError(403, 'ROLE_NOT_ALLOWED', MSG.rolNoPermitidoCliente);
  }
  if (!roleAllowed(rol, client)) {
    throw badRequest('VALIDATION', MSG.rolSuperNoDisponible, { rol: MSG.rolSuperNoDisponible });
  }
}

/** A new account of a client; null limit or budget takes the client's default. */
export type NewAccount = Omit<
  typeof users.$inferInsert,
  'id' | 'idCliente' | 'limiteDeCompras' | 'presupuestoDefault' | 'passwordHash'
> & {
  limiteDeCompras: number | null;
  presupuestoDefault: number | null;
};

export interface CreatedAccount {
  id: number;
  usuario: string;
  nombre: string;
  rol: number;
  /** The welcome link was e-mailed (the account has an address). */
  welcomed: boolean;
}

/**
 * The one way an account is created (the users form, the users import, a first sign-in with the company's
 * account when the client allows it): the accounts of one client,
 * with no password, the client's purchase limit and budget where none is given (category mode: 0, the
 * budget is the sum of the categories), and a single-use welcome link (72 h) e-mailed through the outbox
 * in the caller's transaction. The role rule (roleAllowed) is the caller's check, with its own message.
 * A username already taken (case-insensitive) is skipped: the result holds only the created accounts.
 */
export async function createAccounts(
  tx: Tx,
  client: Pick<ClientRow, 'id' | 'limiteDeCompras' | 'presupuestoDefault' | 'modoPresupuesto'>,
  accounts: readonly NewAccount[],
  publicUrl: string,
  /** Now (the app's clock), for the welcome links' expiry. */
  now: Date,
  /**
   * `welcome: false`: no welcome link (an account made at its first sign-in with its company's account,
   * decision 0120, signs in that way and has no password to set).
   */
  options: { welcome?: boolean } = {},
): Promise<CreatedAccount[]> {
  if (accounts.length === 0) return [];
  const regular = client.modoPresupuesto !== 'categoria';
  const inserted = await tx
    .insert(users)
    .values(
      accounts.map((account) => ({
        ...account,
        idCliente: client.id,
        limiteDeCompras: account.limiteDeCompras ?? client.limiteDeCompras,
        presupuestoDefault: account.presupuestoDefault ?? (regular ? client.presupuestoDefault : 0),
        passwordHash: null,
      })),
    )
    .onConflictDoNothing()
    .returning({
      id: users.id,
      usuario: users.usuario,
      nombre: users.nombre,
      email: users.email,
      rol: users.rol,
    });
  const welcomed =
    options.welcome === false ? new Set<number>() : await sendWelcomeLinks(tx, inserted, publicUrl, now);
  return inserted.map(({ email: _email, ...user }) => ({ ...user, welcomed: welcomed.has(user.id) }));
}

/** What the form asks of a user's budget and purchase limit, against what it has (or would get). */
interface BudgetAsk {
  budget: ResolvedBudget;
  limite: number;
}

function sameCategories(
  a: readonly { id: number; presupuesto: number }[],
  b: readonly { id: number; presupuesto: number }[],
) {
  const key = (l: readonly { id: number; presupuesto: number }[]) =>
    JSON.stringify([...l].sort((x, y) => x.id - y.id).map((c) => [c.id, c.presupuesto]));
  return key(a) === key(b);
}

/**
 * A client administrator's budget change (decision 0122): refused (403) when its client does not allow
 * `presupuestos` and the budget or the limit would change; held for the distributor (the budget stays as it
 * is, the rest of the form applies) when the new budget rises above the client's `tope_presupuesto`.
 * Returns the budget to store now, the one to queue, if any, and whether the budget changes at once (a
 * request still waiting is then out of date).
 */
async function clientAdminBudget(
  tx: Tx,
  auth: AuthContext,
  client: ClientRow,
  asked: BudgetAsk,
  current: BudgetAsk,
): Promise<{ store: ResolvedBudget; queued: ResolvedBudget | null; changedNow: boolean }> {
  if (!isClientAdmin(auth)) return { store: asked.budget, queued: null, changedNow: false };
  const budgetChanges =
    asked.budget.presupuestoDefault !== current.budget.presupuestoDefault ||
    (asked.budget.categorias !== undefined &&
      !sameCategories(asked.budget.categorias, current.budget.categorias ?? []));
  if ((budgetChanges || asked.limite !== current.limite) && !(await clientAllows(tx, auth, 'presupuestos')))
    await requireClientPermission(tx, auth, 'presupuestos');
  if (
    budgetChanges &&
    budgetNeedsApproval(
      client.topePresupuesto,
      asked.budget.presupuestoDefault,
      current.budget.presupuestoDefault,
    )
  )
    return { store: current.budget, queued: asked.budget, changedNow: false };
  return { store: asked.budget, queued: null, changedNow: budgetChanges };
}

async function currentCategories(tx: Tx, userId: number) {
  return tx
    .select({ id: userCategoryBudgets.categoryId, presupuesto: userCategoryBudgets.presupuesto })
    .from(userCategoryBudgets)
    .where(eq(userCategoryBudgets.userId, userId));
}

/** The account fields every form body carries. */
function accountFields(body: UserBody) {
  return {
    usuario: body.usuario,
    email: body.user_id,
    nombre: body.nombre,
    rol: body.rol,
    direccionEntrega: body.direccion_entrega,
    activeWeek: body.active_week,
    entregaWeek: body.entrega_week,
  };
}

/**
 * The área given to a user (decision 0123): one of the user's client; a client administrator moves users
 * between áreas only with its client's `presupuestos` permission (an área is a budget).
 */
async function userArea(tx: Tx, auth: AuthContext, idCliente: number, idArea: number | null) {
  await requireClientPermission(tx, auth, 'presupuestos');
  return (await checkUserArea(tx, idCliente, idArea)) ?? null;
}

/** The optional text fields: absent keeps the stored value (update) or is empty (create). */
function textFields(body: UserBody) {
  const out: Partial<typeof users.$inferInsert> = {};
  const map = {
    colonia: 'colonia',
    ciudad: 'ciudad',
    cp: 'cp',
    estado: 'estado',
    area: 'area',
    localidad: 'localidad',
    region: 'region',
    coordinacion: 'coordinacion',
    calle: 'calle',
  } as const;
  for (const [key, column] of Object.entries(map) as [keyof typeof map, (typeof map)[keyof typeof map]][]) {
    const value = body[key];
    if (value !== undefined) out[column] = value;
  }
  return out;
}

/**
 * POST /api/usuarios: creates a user of a client with no password; a single-use welcome link (72 h) to
 * set it is e-mailed (outbox, same transaction).
 */
export async function createUser(
  deps: Deps,
  request: FastifyRequest,
  auth: AuthContext,
  body: UserBody,
): Promise<{ usuario: UserDto; pendiente: number | null }> {
  const idCliente = scopedClient(auth, body.id_cliente);
  if (idCliente === undefined)
    throw badRequest('VALIDATION', MSG.debesSeleccionarCliente, { id_cliente: MSG.debesSeleccionarCliente });
  let id: number;
  let pending: number | null = null;
  try {
    id = await deps.db.transaction(async (tx) => {
      const [client] = await tx.select().from(clients).where(eq(clients.id, idCliente)).limit(1);
      if (!client) throw notFound(MSG.clienteNoEncontrado, 'CLIENT_NOT_FOUND');
      checkRol(auth, body.rol, client);
      const asked = await resolveBudget(tx, client, body);
      const defaults: ResolvedBudget =
        client.modoPresupuesto === 'categoria'
          ? { presupuestoDefault: 0, categorias: [] }
          : { presupuestoDefault: client.presupuestoDefault };
      const { store: budget, queued } = await clientAdminBudget(
        tx,
        auth,
        client,
        { budget: asked, limite: body.limite_de_compras ?? client.limiteDeCompras },
        { budget: defaults, limite: client.limiteDeCompras },
      );
      if (await usuarioTaken(tx, body.usuario)) throw duplicate();
      const [user] = await createAccounts(
        tx,
        client,
        [
          {
            ...accountFields(body),
            activo: body.activo ?? true,
            limiteDeCompras: body.limite_de_compras ?? null,
            presupuestoDefault: budget.presupuestoDefault,
            ...textFields(body),
            ...(body.id_area ? { idArea: await userArea(tx, auth, client.id, body.id_area) } : {}),
          },
        ],
        deps.config.PUBLIC_URL,
        deps.clock.now(),
      );
      if (!user) throw duplicate();
      await storeCategoryBudgets(tx, user.id, budget);
      if (queued) {
        await queueBudgetRequest(
          tx,
          request,
          auth,
          { idCliente: client.id, userId: user.id },
          queued,
          budget,
        );
        pending = queued.presupuestoDefault;
      }
      await audit(tx, {
        userId: auth.user.id,
        eventType: 'usuario_creado',
        description: `Usuario creado: ${user.usuario} (rol ${user.rol})`,
        metadata: {
          id_usuario: user.id,
          id_cliente: client.id,
          rol: user.rol,
          correo_bienvenida: user.welcomed,
          ...requestMeta(request),
        },
      });
      return user.id;
    });
  } catch (err) {
    if (isUniqueViolation(err, 'users_usuario_unique')) throw duplicate();
    throw err;
  }
  void deps.mailer.flush();
  return { usuario: (await userDetail(deps.db, id))!, pendiente: pending };
}

/** The answer's message when a budget waits for the distributor (decision 0122). */
export async function pendingBudgetMessage(
  db: Tx | Deps['db'],
  idCliente: number,
  centavos: number,
): Promise<string> {
  const [client] = await db
    .select({ tope: clients.topePresupuesto })
    .from(clients)
    .where(eq(clients.id, idCliente));
  return MSG.presupuestoPendienteTope(formatCentavos(centavos), formatCentavos(client?.tope ?? 0));
}

/**
 * PUT /api/usuarios/{id}. The client of a user never changes; deactivating ends its sessions. A change of
 * the e-mail, the username or the active flag retires every pending link of the account; an active
 * account that never set its password then gets a new welcome link at its current address.
 */
export async function updateUser(
  deps: Deps,
  request: FastifyRequest,
  auth: AuthContext,
  id: number,
  body: UserBody,
): Promise<UserUpdateResponse> {
  let idCliente: number;
  let welcomed = false;
  let pending: number | null = null;
  try {
    idCliente = await deps.db.transaction(async (tx) => {
      const found = await findClientUser(tx, id, true);
      if (!found || !userInScope(auth, found.user)) throw userNotFound();
      const before = found.user;
      if (body.id_cliente !== undefined && body.id_cliente !== before.idCliente) {
        throw badRequest('VALIDATION', MSG.cambioClienteNoPermitido, {
          id_cliente: MSG.cambioClienteNoPermitido,
        });
      }
      const [client] = await tx.select().from(clients).where(eq(clients.id, before.idCliente!)).limit(1);
      checkRol(auth, body.rol, client!);
      const asked = await resolveBudget(tx, client!, body, before);
      const {
        store: budget,
        queued,
        changedNow,
      } = await clientAdminBudget(
        tx,
        auth,
        client!,
        { budget: asked, limite: body.limite_de_compras ?? before.limiteDeCompras },
        {
          budget: {
            presupuestoDefault: before.presupuestoDefault,
            categorias: isClientAdmin(auth) ? await currentCategories(tx, id) : undefined,
          },
          limite: before.limiteDeCompras,
        },
      );
      if (await usuarioTaken(tx, body.usuario, id)) throw duplicate();
      const values = {
        ...accountFields(body),
        activo: body.activo ?? before.activo,
        limiteDeCompras: body.limite_de_compras ?? before.limiteDeCompras,
        presupuestoDefault: budget.presupuestoDefault,
        ...textFields(body),
        idArea:
          body.id_area === undefined || body.id_area === before.idArea
            ? before.idArea
            : await userArea(tx, auth, before.idCliente!, body.id_area),
      };
      await tx
        .update(users)
        .set({ ...values, updatedAt: deps.clock.now() })
        .where(eq(users.id, id));
      await storeCategoryBudgets(tx, id, queued ? { presupuestoDefault: budget.presupuestoDefault } : budget);
      // A budget its client administrator sets at once replaces the one it asked the distributor for.
      if (changedNow) await replacePendingBudgetRequest(tx, id);
      if (queued) {
        await queueBudgetRequest(
          tx,
          request,
          auth,
          { idCliente: before.idCliente!, userId: id },
          queued,
          budget,
        );
        pending = queued.presupuestoDefault;
      }
      // The log keeps naming the e-mail field `userId`, as stored entries always have.
      const changed: string[] = (Object.keys(values) as (keyof typeof values)[])
        .filter((k) => values[k] !== before[k])
        .map((k) => (k === 'email' ? 'userId' : k));
      if (budget.categorias && !queued) changed.push('categorias');
      const deactivated = before.activo && !values.activo;
      if (deactivated) await deps.sessions.endSessionsOfUsers([id], tx);
      if (
        values.email !== before.email ||
        values.usuario !== before.usuario ||
        values.activo !== before.activo
      ) {
        await retireAllLinks(tx, id, deps.clock.now());
        if (values.activo && before.passwordHash === null)
          welcomed = await sendWelcomeLink(tx, { id, ...values }, deps.config.PUBLIC_URL, deps.clock.now());
      }
      const what = deactivated ? 'desactivado' : !before.activo && values.activo ? 'activado' : 'modificado';
      await audit(tx, {
        userId: auth.user.id,
        eventType: 'usuario_actualizado',
        description: `Usuario ${what}: ${values.usuario}`,
        metadata: {
          id_usuario: id,
          id_cliente: before.idCliente,
          campos: changed,
          activo: values.activo,
          ...(welcomed ? { correo_bienvenida: true } : {}),
          ...requestMeta(request),
        },
      });
      return before.idCliente!;
    });
  } catch (err) {
    if (isUniqueViolation(err, 'users_usuario_unique')) throw duplicate();
    throw err;
  }
  if (welcomed) void deps.mailer.flush();
  const usuario = (await userDetail(deps.db, id))!;
  const list = await listUsers(deps.db, { id_cliente: idCliente, page: 1 });
  const msg =
    pending === null ? MSG.modificadoCorrectamente : await pendingBudgetMessage(deps.db, idCliente, pending);
  return {
    status: 'ok',
    msg,
    usuario,
    ...list,
    presupuesto_pendiente: pending === null ? null : pending / 100,
  };
}

/**
 * POST /api/usuarios/desactivar_lote: the users of one client (never administrators) deactivated at once,
 * in one transaction, as a single deactivation does each (PUT /api/usuarios/{id}): their sessions end and
 * their pending links are retired. Any id missing, of an administrator or of another client than the
 * first's answers 404 and nothing changes. Users already inactive are left as they are. With
 * `vista_previa` nothing changes: the answer gives the counts the confirmation shows. One log entry with
 * the counts.
 */
export async function deactivateUsers(
  deps: Deps,
  request: FastifyRequest,
  auth: AuthContext,
  body: BulkDeactivateBody,
): Promise<BulkDeactivateResponse> {
  const ids = [...new Set(body.ids)].sort((a, b) => a - b);
  const preview = body.vista_previa === true;
  const result = await deps.db.transaction(async (tx) => {
    const q = tx
      .select({ id: users.id, idCliente: users.idCliente, rol: users.rol, activo: users.activo })
      .from(users)
      .where(inArray(users.id, ids))
      .orderBy(asc(users.id));
    const rows = preview ? await q : await q.for('update');
    const idCliente = rows[0]?.idCliente ?? null;
    if (
      rows.length !== ids.length ||
      idCliente === null ||
      rows.some((r) => !userInScope(auth, r) || r.idCliente !== idCliente)
    )
      throw userNotFound();
    const active = rows.filter((r) => r.activo).map((r) => r.id);
    const open = await deps.sessions.countOpenSessions(active, tx);
    if (!preview && active.length > 0) {
      await tx
        .update(users)
        .set({ activo: false, updatedAt: deps.clock.now() })
        .where(inArray(users.id, active));
      await deps.sessions.endSessionsOfUsers(active, tx);
      await retireAllLinks(tx, active, deps.clock.now());
      await audit(tx, {
        userId: auth.user.id,
        eventType: 'usuarios_desactivados_lote',
        description: `Usuarios desactivados en lote: ${active.length}; sesiones cerradas: ${open}`,
        metadata: {
          id_cliente: idCliente,
          usuarios: active.length,
          ya_inactivos: rows.length - active.length,
          sesiones_cerradas: open,
          ids_usuarios: active,
          ...requestMeta(request),
        },
      });
    }
    return {
      desactivados: active.length,
      ya_inactivos: rows.length - active.length,
      sesiones_cerradas: open,
    };
  });
  return {
    status: 'ok',
    msg: preview
      ? MSG.desactivarLote(result.desactivados, result.sesiones_cerradas)
      : MSG.usuariosDesactivados(result.desactivados, result.sesiones_cerradas),
    vista_previa: preview,
    ...result,
  };
}

/**
 * POST /api/recuperar/password/{id}: a random temporary password, e-mailed (docs/domain.md's one exception),
 * that must be changed at the next sign-in; pending links are retired and the user's sessions end.
 */
export async function adminResetPassword(
  deps: Deps,
  request: FastifyRequest,
  auth: AuthContext,
  id: number,
): Promise<void> {
  const found = await findClientUser(deps.db, id);
  if (!found || !userInScope(auth, found.user)) throw userNotFound();
  const to = addressOf(found.user);
  if (!to) throw new AppError(422, 'NO_EMAIL', MSG.usuarioSinCorreo);
  const password = temporaryPassword();
  const hash = await hashPassword(password);
  await deps.db.transaction(async (tx) => {
    const locked = await findClientUser(tx, id, true);
    if (!locked) throw userNotFound();
    await setPassword(tx, id, hash, true, deps.clock.now());
    await retireAllLinks(tx, id, deps.clock.now());
    await deps.sessions.endSessionsOfUsers([id], tx);
    await enqueueEmail(
      tx,
      temporaryPasswordEmail(
        to,
        locked.user.nombre,
        locked.user.usuario,
        password,
        `${deps.config.PUBLIC_URL}/login`,
      ),
    );
    await audit(tx, {
      userId: auth.user.id,
      eventType: 'password_reset_admin',
      description: `Contraseña restablecida por el administrador: ${locked.user.usuario}`,
      metadata: { id_usuario: id, id_cliente: locked.user.idCliente, ...requestMeta(request) },
    });
  });
  void deps.mailer.flush();
}
