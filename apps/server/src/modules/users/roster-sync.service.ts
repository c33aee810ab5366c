/**
 * The HR list sync (issue 40, decision 0122): a client without an identity provider sends its full list of
 * people as a CSV; the portal creates who is new, updates who changed, reactivates who came back and
 * deactivates every active account of roles 1–3 the list no longer names — as a SCIM leaver (sessions end,
 * waiting orders withdrawn, modules/users/leavers.ts). A client administrator's own account and its
 * colleagues' (rol 5) are never touched. A preview changes nothing; a list with any error changes nothing.
 */
import { isEmailAddress } from '@portal/shared/domain/email';
import { ROLES } from '@portal/shared/domain/roles';
import { ROSTER_MAX_ROWS, ROSTER_SHOWN, type RosterSyncResponse } from '@portal/shared/schemas/roster-sync';
import { and, asc, eq, inArray, or, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Tx } from '../../db/client.ts';
import { clients, users } from '../../db/schema/index.ts';
import { audit, requestMeta } from '../../lib/audit.ts';
import { isClientAdmin, scopedClient } from '../../lib/client-scope.ts';
import { readCsvFile } from '../../lib/csv-read.ts';
import type { Deps } from '../../lib/deps.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { readMultipart } from '../../lib/multipart.ts';
import { MSG } from '../../messages.ts';
import type { AuthContext } from '../../plugins/auth-guard.ts';
import { retireAllLinks } from '../auth/auth.repository.ts';
import { withdrawLeaver } from './leavers.ts';
import { createAccounts, roleAllowed, sendWelcomeLink } from './users.service.ts';

/** Largest list accepted (20,000 people is well under it). */
const ROSTER_MAX_BYTES = 5 * 1024 * 1024;

const ROLE_WORDS: Record<string, number> = {
  '1': 1,
  '2': 2,
  '3': 3,
  usuario: 1,
  autorizador: 2,
  'super autorizador': 3,
  superautorizador: 3,
};

interface ListedPerson {
  fila: number;
  usuario: string;
  correo: string;
  nombre: string;
  /** null: not given (a new account is rol 1, an existing one keeps its role). */
  rol: number | null;
}

type RosterError = RosterSyncResponse['errores'][number];

const HEADER_ALIASES: Record<string, keyof Omit<ListedPerson, 'fila'>> = {
  usuario: 'usuario',
  correo: 'correo',
  email: 'correo',
  user_id: 'correo',
  nombre: 'nombre',
  rol: 'rol',
};

/** The list's people, with a row error for each cell that is not right (and repeats). */
function readPeople(
  header: string[],
  records: { fila: number; cells: string[] }[],
  client: { cantidadAutorizadores: number },
): { people: ListedPerson[]; errors: RosterError[] } {
  const column = new Map<string, number>();
  header.forEach((h, i) => {
    const key = HEADER_ALIASES[h.trim().toLowerCase()];
    if (key && !column.has(key)) column.set(key, i);
  });
  if (!column.has('usuario') || !column.has('correo') || !column.has('nombre'))
    throw badRequest('VALIDATION', MSG.sincronizarEncabezado, { archivo: MSG.sincronizarEncabezado });
  const people: ListedPerson[] = [];
  const errors: RosterError[] = [];
  const seen = new Map<string, number>();
  for (const { fila, cells } of records) {
    const cell = (key: string) => (column.has(key) ? (cells[column.get(key)!] ?? '').trim() : '');
    const fail = (campo: string, motivo: string, valor: string) =>
      errors.push({ fila, campo, motivo, valor });
    const usuario = cell('usuario');
    const correo = cell('correo');
    const nombre = cell('nombre');
    const rolText = cell('rol');
    if (!usuario && !correo && !nombre && !rolText) continue;
    let ok = true;
    if (!usuario) ok = !fail('usuario', MSG.impObligatorio, usuario);
    else if (/\s/.test(usuario)) ok = !fail('usuario', MSG.impUsuarioEspacios, usuario);
    else if (usuario.length > 100) ok = !fail('usuario', MSG.impLargo(100), usuario);
    if (!correo) ok = !fail('correo', MSG.impObligatorio, correo);
    else if (!isEmailAddress(correo)) ok = !fail('correo', MSG.impCorreo, correo);
    if (!nombre) ok = !fail('nombre', MSG.impObligatorio, nombre);
    else if (nombre.length > 200) ok = !fail('nombre', MSG.impLargo(200), nombre);
    const rol = rolText === '' ? null : (ROLE_WORDS[rolText.toLowerCase().replace(/\s+/g, ' ')] ?? 0);
    if (rol === 0) ok = !fail('rol', MSG.impRol, rolText);
    else if (rol !== null && !roleAllowed(rol, client)) ok = !fail('rol', MSG.impRolSuper, rolText);
    const key = usuario.toLowerCase();
    if (usuario && seen.has(key)) ok = !fail('usuario', MSG.impRepetido(seen.get(key)!), usuario);
    else if (usuario) seen.set(key, fila);
    if (ok) people.push({ fila, usuario, correo, nombre, rol });
  }
  return { people, errors };
}

/** The request's form: the list's table, its client (a client administrator's own) and whether to preview. */
async function readRosterForm(request: FastifyRequest, auth: AuthContext) {
  const form = await readMultipart(request);
  const file = form.files.archivo;
  if (!file || file.data.length === 0)
    throw badRequest('VALIDATION', MSG.sincronizarArchivo, { archivo: MSG.sincronizarArchivo });
  if (file.data.length > ROSTER_MAX_BYTES)
    throw badRequest('VALIDATION', MSG.csvDemasiadasFilas(ROSTER_MAX_ROWS), {
      archivo: MSG.csvDemasiadasFilas(ROSTER_MAX_ROWS),
    });
  const askedClient = form.fields.id_cliente ? Number(form.fields.id_cliente) : undefined;
  if (askedClient !== undefined && !(Number.isInteger(askedClient) && askedClient > 0))
    throw notFound(MSG.clienteNoEncontrado, 'CLIENT_NOT_FOUND');
  const idCliente = scopedClient(auth, askedClient);
  if (idCliente === undefined)
    throw badRequest('VALIDATION', MSG.debesSeleccionarCliente, { id_cliente: MSG.debesSeleccionarCliente });
  const preview = ['1', 'true', 'si', 'sí'].includes((form.fields.vista_previa ?? '').trim().toLowerCase());
  const table = await readCsvFile(file.data, ROSTER_MAX_ROWS);
  if (table.records.length === 0)
    throw badRequest('VALIDATION', MSG.csvSinRegistros, { archivo: MSG.csvSinRegistros });
  return { idCliente, preview, table };
}

type Account = typeof users.$inferSelect;

/** What the list changes: who joins, changes, returns and leaves (the accounts are locked by the caller). */
function planRoster(people: ListedPerson[], known: Account[], idCliente: number, errors: RosterError[]) {
  const byName = new Map(known.map((u) => [u.usuario.toLowerCase(), u]));
  const listed = new Set<number>();
  const altas: (ListedPerson & { rol: number })[] = [];
  const cambios: { person: ListedPerson; account: Account; campos: string[]; rol: number }[] = [];
  const reactivados: { person: ListedPerson; account: Account }[] = [];
  let sinCambio = 0;
  for (const person of people) {
    const account = byName.get(person.usuario.toLowerCase());
    if (!account) {
      altas.push({ ...person, rol: person.rol ?? ROLES.usuario });
      continue;
    }
    if (account.idCliente !== idCliente || account.rol === ROLES.administrador) {
      errors.push({
        fila: person.fila,
        campo: 'usuario',
        motivo: MSG.impUsuarioAjeno,
        valor: person.usuario,
      });
      continue;
    }
    listed.add(account.id);
    // A client administrator's account is the distributor's to change, never the list's.
    if (account.rol === ROLES.administradorCliente) {
      sinCambio++;
      continue;
    }
    const rol = person.rol ?? account.rol;
    const campos = [
      ...(account.nombre !== person.nombre ? ['nombre'] : []),
      ...(account.email !== person.correo ? ['correo'] : []),
      ...(account.rol !== rol ? ['rol'] : []),
    ];
    if (!account.activo) reactivados.push({ person, account });
    if (campos.length > 0) cambios.push({ person, account, campos, rol });
    if (account.activo && campos.length === 0) sinCambio++;
  }
  const bajas = known.filter(
    (u) =>
      u.idCliente === idCliente &&
      u.activo &&
      !listed.has(u.id) &&
      u.rol !== ROLES.administradorCliente &&
      u.rol !== ROLES.administrador,
  );
  errors.sort((a, b) => a.fila - b.fila);
  return { altas, cambios, reactivados, bajas, sinCambio };
}

type RosterPlan = ReturnType<typeof planRoster>;

function detailOf(plan: RosterPlan): RosterSyncResponse['detalle'] {
  const person = (p: { usuario: string; nombre: string; correo: string }) => ({
    usuario: p.usuario,
    nombre: p.nombre,
    correo: p.correo,
  });
  return {
    altas: plan.altas.slice(0, ROSTER_SHOWN).map((p) => ({ ...person(p), rol: p.rol })),
    cambios: plan.cambios
      .slice(0, ROSTER_SHOWN)
      .map((c) => ({ id: c.account.id, ...person(c.person), campos: c.campos })),
    reactivados: plan.reactivados
      .slice(0, ROSTER_SHOWN)
      .map((r) => ({ id: r.account.id, ...person(r.person) })),
    bajas: plan.bajas
      .slice(0, ROSTER_SHOWN)
      .map((u) => ({ id: u.id, ...person({ ...u, correo: u.email }), rol: u.rol })),
  };
}

/**
 * Applies a list without errors in the caller's transaction; returns how many waiting orders were withdrawn
 * and whether any welcome link was queued.
 */
async function applyRoster(
  tx: Tx,
  deps: Deps,
  client: typeof clients.$inferSelect,
  plan: RosterPlan,
): Promise<{ retirados: number; welcomed: boolean }> {
  const now = deps.clock.now();
  const created = await createAccounts(
    tx,
    client,
    plan.altas.map((p) => ({
      usuario: p.usuario,
      email: p.correo,
      nombre: p.nombre,
      rol: p.rol,
      activo: true,
      limiteDeCompras: null,
      presupuestoDefault: null,
    })),
    deps.config.PUBLIC_URL,
    now,
  );
  let welcomed = created.some((a) => a.welcomed);
  for (const { person, account, rol, campos } of plan.cambios) {
    await tx
      .update(users)
      .set({ nombre: person.nombre, email: person.correo, rol, updatedAt: now })
      .where(eq(users.id, account.id));
    // A changed address retires the links sent to the old one.
    if (campos.includes('correo')) await retireAllLinks(tx, account.id, now);
  }
  for (const { person, account } of plan.reactivados) {
    await tx.update(users).set({ activo: true, updatedAt: now }).where(eq(users.id, account.id));
    await retireAllLinks(tx, account.id, now);
    if (account.passwordHash === null) {
      const fresh = { id: account.id, usuario: account.usuario, nombre: person.nombre, email: person.correo };
      welcomed = (await sendWelcomeLink(tx, fresh, deps.config.PUBLIC_URL, now)) || welcomed;
    }
  }
  let retirados = 0;
  const leavers = plan.bajas.map((u) => u.id);
  if (leavers.length > 0) {
    await tx
      .update(users)
      .set({ activo: false, updatedAt: now })
      .where(and(eq(users.idCliente, client.id), inArray(users.id, leavers)));
    await retireAllLinks(tx, leavers, now);
    for (const id of leavers)
      retirados += (
        await withdrawLeaver(tx, deps, id, {
          how: '(lista de personal)',
          metadata: { origen: 'lista_de_personal' },
        })
      ).length;
  }
  return { retirados, welcomed };
}

/** POST /api/cliente/sincronizar (multipart: `archivo`, `vista_previa`, `id_cliente` for rol 4). */
export async function syncRoster(
  deps: Deps,
  request: FastifyRequest,
  auth: AuthContext,
): Promise<RosterSyncResponse> {
  const { idCliente, preview, table } = await readRosterForm(request, auth);
  const result = await deps.db.transaction(async (tx) => {
    const [client] = await tx.select().from(clients).where(eq(clients.id, idCliente)).for('update');
    if (!client) throw notFound(MSG.clienteNoEncontrado, 'CLIENT_NOT_FOUND');
    const { people, errors } = readPeople(table.header, table.records, client);
    const names = people.map((p) => p.usuario.toLowerCase());
    // The accounts the list names anywhere in the portal, and every account of the client, locked in id order.
    const known = await tx
      .select()
      .from(users)
      .where(
        names.length === 0
          ? eq(users.idCliente, idCliente)
          : or(eq(users.idCliente, idCliente), inArray(sql`lower(${users.usuario})`, names)),
      )
      .orderBy(asc(users.id))
      .for('update');
    const plan = planRoster(people, known, idCliente, errors);
    if (preview || errors.length > 0) return { plan, errors, retirados: 0, welcomed: false };
    const applied = await applyRoster(tx, deps, client, plan);
    await audit(tx, {
      userId: auth.user.id,
      eventType: 'usuarios_sincronizados',
      description: `Lista de personal aplicada: ${plan.altas.length} altas, ${plan.cambios.length} cambios, ${plan.reactivados.length} reactivados, ${plan.bajas.length} bajas`,
      metadata: {
        id_cliente: idCliente,
        altas: plan.altas.length,
        cambios: plan.cambios.length,
        reactivados: plan.reactivados.length,
        bajas: plan.bajas.length,
        pedidos_retirados: applied.retirados,
        ...(plan.bajas.length <= 50 ? { ids_bajas: plan.bajas.map((u) => u.id) } : {}),
        por_administrador_de_cliente: isClientAdmin(auth),
        ...requestMeta(request),
      },
    });
    return { plan, errors, ...applied };
  });
  if (result.welcomed) void deps.mailer.flush();
  const { plan, errors, retirados } = result;
  // A list with errors changes nothing: the refusal names the first rows to fix (the preview lists them all).
  if (errors.length > 0 && !preview)
    throw badRequest(
      'ROSTER_ERRORS',
      MSG.sincronizarConErrores(errors.length),
      Object.fromEntries(errors.slice(0, 50).map((e) => [`fila ${e.fila} ${e.campo}`, e.motivo])),
    );
  const changed = plan.cambios.length + plan.reactivados.length;
  return {
    status: 'ok',
    msg: preview
      ? MSG.sincronizarVistaPrevia(plan.altas.length, changed, plan.bajas.length)
      : MSG.sincronizado(plan.altas.length, changed, plan.bajas.length, retirados),
    vista_previa: preview,
    altas: plan.altas.length,
    cambios: plan.cambios.length,
    reactivados: plan.reactivados.length,
    bajas: plan.bajas.length,
    sin_cambio: plan.sinCambio,
    pedidos_retirados: retirados,
    detalle: detailOf(plan),
    errores: errors.slice(0, ROSTER_SHOWN),
  };
}
