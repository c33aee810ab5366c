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
import type { Deps } from '../../lib/deps.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { readMultipart } from '../../lib/multipart.ts';
import { MSG } from '../../messages.ts';
import type { AuthContext } from '../../plugins/auth-guard.ts';
import { retireAllLinks } from '../auth/auth.repository.ts';
import { readCsvFile } from '../imports/csv-read.ts';
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

/** POST /api/cliente/sincronizar (multipart: `archivo`, `vista_previa`, `id_cliente` for rol 4). */
export async function syncRoster(
  deps: Deps,
  request: FastifyRequest,
  auth: AuthContext,
): Promise<RosterSyncResponse> {
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

  let welcomed = false;
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
    const byName = new Map(known.map((u) => [u.usuario.toLowerCase(), u]));
    const listed = new Set<number>();
    const altas: (ListedPerson & { rol: number })[] = [];
    const cambios: { person: ListedPerson; id: number; campos: string[]; rol: number }[] = [];
    const reactivados: { person: ListedPerson; id: number }[] = [];
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
      if (!account.activo) reactivados.push({ person, id: account.id });
      if (campos.length > 0) cambios.push({ person, id: account.id, campos, rol });
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
    const counts = {
      altas: altas.length,
      cambios: cambios.length,
      reactivados: reactivados.length,
      bajas: bajas.length,
      sin_cambio: sinCambio,
    };
    const detalle = {
      altas: altas
        .slice(0, ROSTER_SHOWN)
        .map((p) => ({ usuario: p.usuario, nombre: p.nombre, correo: p.correo, rol: p.rol })),
      cambios: cambios.slice(0, ROSTER_SHOWN).map((c) => ({
        id: c.id,
        usuario: c.person.usuario,
        nombre: c.person.nombre,
        correo: c.person.correo,
        campos: c.campos,
      })),
      reactivados: reactivados.slice(0, ROSTER_SHOWN).map((r) => ({
        id: r.id,
        usuario: r.person.usuario,
        nombre: r.person.nombre,
        correo: r.person.correo,
      })),
      bajas: bajas
        .slice(0, ROSTER_SHOWN)
        .map((u) => ({ id: u.id, usuario: u.usuario, nombre: u.nombre, correo: u.email, rol: u.rol })),
    };
    if (preview || errors.length > 0) return { counts, detalle, errors, retirados: 0 };

    const now = deps.clock.now();
    await createAccounts(
      tx,
      client,
      altas.map((p) => ({
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
    welcomed = altas.length > 0;
    const back = new Set(reactivados.map((r) => r.id));
    for (const change of cambios)
      await tx
        .update(users)
        .set({ nombre: change.person.nombre, email: change.person.correo, rol: change.rol, updatedAt: now })
        .where(eq(users.id, change.id));
    for (const returning of reactivados) {
      await tx.update(users).set({ activo: true, updatedAt: now }).where(eq(users.id, returning.id));
      await retireAllLinks(tx, returning.id, now);
      const account = known.find((u) => u.id === returning.id)!;
      if (account.passwordHash === null)
        welcomed =
          (await sendWelcomeLink(
            tx,
            {
              id: account.id,
              usuario: account.usuario,
              nombre: returning.person.nombre,
              email: returning.person.correo,
            },
            deps.config.PUBLIC_URL,
            now,
          )) || welcomed;
    }
    // A changed address retires the links sent to the old one.
    for (const change of cambios)
      if (change.campos.includes('correo') && !back.has(change.id)) await retireAllLinks(tx, change.id, now);
    let retirados = 0;
    if (bajas.length > 0) {
      await tx
        .update(users)
        .set({ activo: false, updatedAt: now })
        .where(
          and(
            eq(users.idCliente, idCliente),
            inArray(
              users.id,
              bajas.map((u) => u.id),
            ),
          ),
        );
      await retireAllLinks(
        tx,
        bajas.map((u) => u.id),
        now,
      );
      for (const leaver of bajas)
        retirados += (
          await withdrawLeaver(tx, deps, leaver.id, {
            how: '(lista de personal)',
            metadata: { origen: 'lista_de_personal' },
          })
        ).length;
    }
    await audit(tx, {
      userId: auth.user.id,
      eventType: 'usuarios_sincronizados',
      description: `Lista de personal aplicada: ${counts.altas} altas, ${counts.cambios} cambios, ${counts.reactivados} reactivados, ${counts.bajas} bajas`,
      metadata: {
        id_cliente: idCliente,
        ...counts,
        pedidos_retirados: retirados,
        ...(bajas.length <= 50 ? { ids_bajas: bajas.map((u) => u.id) } : {}),
        por_administrador_de_cliente: isClientAdmin(auth),
        ...requestMeta(request),
      },
    });
    return { counts, detalle, errors, retirados };
  });
  if (welcomed) void deps.mailer.flush();
  const { counts, detalle, errors, retirados } = result;
  // A list with errors changes nothing: the refusal names the first rows to fix (the preview lists them all).
  if (errors.length > 0 && !preview)
    throw badRequest(
      'ROSTER_ERRORS',
      MSG.sincronizarConErrores(errors.length),
      Object.fromEntries(errors.slice(0, 50).map((e) => [`fila ${e.fila} ${e.campo}`, e.motivo])),
    );
  return {
    status: 'ok',
    msg: preview
      ? MSG.sincronizarVistaPrevia(counts.altas, counts.cambios + counts.reactivados, counts.bajas)
      : MSG.sincronizado(counts.altas, counts.cambios + counts.reactivados, counts.bajas, retirados),
    vista_previa: preview,
    ...counts,
    pedidos_retirados: retirados,
    detalle,
    errores: errors.slice(0, ROSTER_SHOWN),
  };
}
