import { budgetNeedsApproval } from '@portal/shared/domain/client-admin';
import { formatCentavos } from '@portal/shared/domain/money';
import { ROLES } from '@portal/shared/domain/roles';
import type { ImportRowError } from '@portal/shared/schemas/imports';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { userCategoryBudgets, users } from '../../db/schema/index.ts';
import { type CsvTable, normalizeHeader } from '../../lib/csv-read.ts';
import { MSG } from '../../messages.ts';
import { retireAllLinks } from '../auth/auth.repository.ts';
import { createAccounts, roleAllowed, sendWelcomeLink } from '../users/users.service.ts';
import { isEmailCell, parseIntCell, parsePesosCell } from './cells.ts';
import { type BatchResult, type Validated, validateRows } from './product-import.ts';

/** The user template's columns, in order (regular mode; category mode adds `presupuesto:<categoria>`). */
export const USER_COLUMNS = [
  'usuario',
  'user_id',
  'nombre',
  'rol',
  'direccion_entrega',
  'calle',
  'colonia',
  'ciudad',
  'cp',
  'estado',
  'area',
  'localidad',
  'region',
  'coordinacion',
  'active_week',
  'entrega_week',
  'limite_de_compras',
  'presupuesto_default',
] as const;

export const CATEGORY_BUDGET_PREFIX = 'presupuesto:';

export interface UserImportClient {
  id: number;
  cantidadAutorizadores: number;
  limiteDeCompras: number;
  presupuestoDefault: number;
  modoPresupuesto: string;
  /** Category mode: the client's categories (for the budget columns). */
  categorias: { id: number; nombre: string }[];
}

export interface UserImportRow {
  fila: number;
  usuario: string;
  email: string;
  nombre: string;
  rol: number;
  direccionEntrega: string;
  calle: string;
  colonia: string;
  ciudad: string;
  cp: string;
  estado: string;
  area: string;
  localidad: string;
  region: string;
  coordinacion: string;
  activeWeek: number;
  entregaWeek: number;
  /** null: keep the stored value (new users take the client's). */
  limiteDeCompras: number | null;
  presupuestoDefault: number | null;
  /** Category budgets in centavos by category id (0 removes it); absent columns or empty cells keep. */
  presupuestos: Map<number, number>;
}

/** Category budget columns the client's file may carry: normalised header → category id. */
export function categoryColumns(client: UserImportClient): Map<string, number> {
  const map = new Map<string, number>();
  if (client.modoPresupuesto !== 'categoria') return map;
  for (const c of client.categorias) map.set(normalizeHeader(`${CATEGORY_BUDGET_PREFIX}${c.nombre}`), c.id);
  return map;
}

const TEXT_LIMITS: Record<string, number> = {
  usuario: 100,
  nombre: 150,
  direccion_entrega: 300,
  calle: 200,
  colonia: 150,
  ciudad: 150,
  cp: 10,
  estado: 100,
  area: 150,
  localidad: 150,
  region: 150,
  coordinacion: 150,
};

const ROL_NAMES: Record<string, number> = {
  '1': 1,
  '2': 2,
  '3': 3,
  usuario: 1,
  autorizador: 2,
  'super autorizador': 3,
  superautorizador: 3,
};

export function validateUserRows(
  table: CsvTable,
  index: Map<string, number>,
  client: UserImportClient,
): Promise<Validated<UserImportRow>> {
  const budgetColumns = [...categoryColumns(client)].filter(([name]) => index.has(name));
  const regular = client.modoPresupuesto !== 'categoria';

  return validateRows(table, index, ({ fila, get, fail, once, text: textCell }) => {
    const text = (name: string, required: boolean) => textCell(name, required, TEXT_LIMITS[name] ?? 200);

    const usuario = text('usuario', true);
    if (usuario && /\s/.test(usuario)) fail('usuario', MSG.impUsuarioEspacios, usuario);
    const email = get('user_id');
    if (email === '') fail('user_id', MSG.impObligatorio);
    else if (!isEmailCell(email)) fail('user_id', MSG.impCorreo, email);
    const nombre = text('nombre', true);

    const rolText = get('rol');
    const rol = ROL_NAMES[rolText.toLowerCase().replace(/\s+/g, ' ')] ?? null;
    if (rolText === '') fail('rol', MSG.impObligatorio);
    else if (rol === null) fail('rol', MSG.impRol, rolText);
    else if (!roleAllowed(rol, client)) fail('rol', MSG.impRolSuper, rolText);

    const direccionEntrega = text('direccion_entrega', true);
    const optional = {
      calle: text('calle', false),
      colonia: text('colonia', false),
      ciudad: text('ciudad', false),
      cp: text('cp', false),
      estado: text('estado', false),
      area: text('area', false),
      localidad: text('localidad', false),
      region: text('region', false),
      coordinacion: text('coordinacion', false),
    };

    const week = (name: 'active_week' | 'entrega_week'): number => {
      const v = get(name);
      const n = parseIntCell(v);
      if (v === '') fail(name, MSG.impObligatorio);
      else if (n === null || n < 1 || n > 4) fail(name, MSG.impSemana, v);
      return n ?? 1;
    };
    const activeWeek = week('active_week');
    const entregaWeek = week('entrega_week');

    const limiteText = get('limite_de_compras');
    let limiteDeCompras: number | null = null;
    if (limiteText !== '') {
      limiteDeCompras = parseIntCell(limiteText);
      if (limiteDeCompras === null || limiteDeCompras < -1)
        fail('limite_de_compras', MSG.impLimite, limiteText);
    }

    const presupuestoText = get('presupuesto_default');
    let presupuestoDefault: number | null = null;
    if (presupuestoText !== '') {
      presupuestoDefault = parsePesosCell(presupuestoText);
      if (presupuestoDefault === null || (regular && presupuestoDefault < 100)) {
        fail(
          'presupuesto_default',
          regular ? MSG.impPresupuesto : MSG.impPresupuestoCategoria,
          presupuestoText,
        );
      }
    }

    const presupuestos = new Map<number, number>();
    for (const [column, categoryId] of budgetColumns) {
      const v = get(column);
      if (v === '') continue;
      const centavos = parsePesosCell(v);
      if (centavos === null) fail(column, MSG.impPresupuestoCategoria, v);
      else presupuestos.set(categoryId, centavos);
    }

    if (usuario) once(usuario.toLowerCase(), 'usuario', usuario);

    return {
      fila,
      usuario,
      email,
      nombre,
      rol: rol ?? 1,
      direccionEntrega,
      ...optional,
      activeWeek,
      entregaWeek,
      limiteDeCompras,
      presupuestoDefault,
      presupuestos,
    };
  });
}

/**
 * What a client administrator's import may change (decision 0122); null for the distributor's, which may
 * change everything. Read when the job runs (a permission changed meanwhile applies).
 */
export interface ImportActorLimits {
  /** The client allows `presupuestos`: budgets and purchase limits. */
  presupuestos: boolean;
  /** The client's `tope_presupuesto` (centavos; null: none): a budget rising above it is refused here. */
  tope: number | null;
}

/** The first budget or limit cell a row fills (a client administrator without `presupuestos` may not). */
function budgetCell(row: UserImportRow, client: UserImportClient): string | null {
  if (row.limiteDeCompras !== null) return 'limite_de_compras';
  if (row.presupuestoDefault !== null) return 'presupuesto_default';
  const [categoryId] = row.presupuestos.keys();
  if (categoryId === undefined) return null;
  const nombre = client.categorias.find((c) => c.id === categoryId)?.nombre ?? '';
  return `${CATEGORY_BUDGET_PREFIX}${nombre}`;
}

const sum = (values: Iterable<number>) => {
  let total = 0;
  for (const v of values) total += v;
  return total;
};

export interface UserBatchOutcome extends BatchResult {
  /** Rows refused while writing (the username belongs to another client). */
  errors: ImportRowError[];
}

const COMPARED = [
  'email',
  'nombre',
  'rol',
  'direccionEntrega',
  'calle',
  'colonia',
  'ciudad',
  'cp',
  'estado',
  'area',
  'localidad',
  'region',
  'coordinacion',
  'activeWeek',
  'entregaWeek',
  'limiteDeCompras',
  'presupuestoDefault',
] as const;

/**
 * Creates or updates one batch of users of the client by `usuario` (case-insensitive). New accounts get
 * no password: a single-use welcome link (72 h) is e-mailed through the outbox in the same transaction.
 * A changed e-mail retires every pending link of the account (and re-sends the welcome link to the new
 * address when the password was never set).
 * Unchanged rows are not written, so re-running a file changes nothing and sends nothing.
 */
export async function upsertUsers(
  tx: Tx,
  client: UserImportClient,
  rows: readonly UserImportRow[],
  publicUrl: string,
  /** Now (the app's clock): welcome links live from it; changed rows are stamped with it. */
  now: Date,
  limits: ImportActorLimits | null = null,
): Promise<UserBatchOutcome> {
  const outcome: UserBatchOutcome = { creados: 0, actualizados: 0, errors: [] };
  if (rows.length === 0) return outcome;
  const existing = await tx
    .select()
    .from(users)
    .where(
      inArray(
        sql`lower(${users.usuario})`,
        rows.map((r) => r.usuario.toLowerCase()),
      ),
    );
  const byKey = new Map(existing.map((u) => [u.usuario.toLowerCase(), u]));
  const fresh: UserImportRow[] = [];
  const known: { row: UserImportRow; current: (typeof existing)[number] }[] = [];
  const refuse = (row: UserImportRow, campo: string, motivo: string, valor: string) =>
    outcome.errors.push({ fila: row.fila, campo, motivo, valor });
  const tope = limits?.tope ?? null;
  const topeText = () => formatCentavos(tope ?? 0);
  const regular = client.modoPresupuesto !== 'categoria';
  for (const row of rows) {
    const current = byKey.get(row.usuario.toLowerCase());
    const cell = limits && !limits.presupuestos ? budgetCell(row, client) : null;
    if (current && (current.idCliente !== client.id || current.rol === ROLES.administrador)) {
      refuse(row, 'usuario', MSG.impUsuarioAjeno, row.usuario);
    } else if (current && current.rol === ROLES.administradorCliente) {
      // A client administrator's account changes on the users screen only (never demoted by a file).
      refuse(row, 'usuario', MSG.impUsuarioAdministrador, row.usuario);
    } else if (cell) {
      refuse(row, cell, MSG.impSinPermisoPresupuestos, cell);
    } else if (!current) {
      const asked = regular
        ? row.presupuestoDefault
        : row.presupuestos.size
          ? sum(row.presupuestos.values())
          : null;
      if (asked !== null && budgetNeedsApproval(tope, asked, null))
        refuse(
          row,
          regular ? 'presupuesto_default' : 'presupuestos',
          MSG.impPresupuestoTope(topeText()),
          formatCentavos(asked),
        );
      else fresh.push(row);
    } else known.push({ row, current });
  }

  const fields = (row: UserImportRow) => ({
    email: row.email,
    nombre: row.nombre,
    rol: row.rol,
    direccionEntrega: row.direccionEntrega,
    calle: row.calle,
    colonia: row.colonia,
    ciudad: row.ciudad,
    cp: row.cp,
    estado: row.estado,
    area: row.area,
    localidad: row.localidad,
    region: row.region,
    coordinacion: row.coordinacion,
    activeWeek: row.activeWeek,
    entregaWeek: row.entregaWeek,
  });

  const budgetWrites: { userId: number; categoryId: number; presupuesto: number }[] = [];
  const budgetDeletes: { userId: number; categoryId: number }[] = [];

  if (fresh.length) {
    const created = await createAccounts(
      tx,
      client,
      fresh.map((row) => ({
        ...fields(row),
        usuario: row.usuario,
        limiteDeCompras: row.limiteDeCompras,
        presupuestoDefault: row.presupuestoDefault,
      })),
      publicUrl,
      now,
    );
    outcome.creados += created.length;
    const rowOf = new Map(fresh.map((r) => [r.usuario.toLowerCase(), r]));
    for (const user of created) {
      const row = rowOf.get(user.usuario.toLowerCase());
      for (const [categoryId, presupuesto] of row?.presupuestos ?? []) {
        if (presupuesto > 0) budgetWrites.push({ userId: user.id, categoryId, presupuesto });
      }
    }
  }

  if (known.length) {
    const ids = known.map((k) => k.current.id);
    const stored = await tx
      .select()
      .from(userCategoryBudgets)
      .where(inArray(userCategoryBudgets.userId, ids));
    const storedBudget = new Map(stored.map((b) => [`${b.userId}:${b.categoryId}`, b.presupuesto]));
    for (const { row, current } of known) {
      if (tope !== null) {
        // Above the client's cap, a budget waits for the distributor: a file cannot ask, so it is refused.
        const mine = stored.filter((b) => b.userId === current.id);
        const before = regular ? current.presupuestoDefault : sum(mine.map((b) => b.presupuesto));
        const merged = new Map(mine.map((b) => [b.categoryId, b.presupuesto]));
        for (const [categoryId, presupuesto] of row.presupuestos) merged.set(categoryId, presupuesto);
        const asked = regular ? row.presupuestoDefault : row.presupuestos.size ? sum(merged.values()) : null;
        if (asked !== null && budgetNeedsApproval(tope, asked, before)) {
          refuse(
            row,
            regular ? 'presupuesto_default' : 'presupuestos',
            MSG.impPresupuestoTope(topeText()),
            formatCentavos(asked),
          );
          continue;
        }
      }
      const next = {
        ...fields(row),
        limiteDeCompras: row.limiteDeCompras ?? current.limiteDeCompras,
        presupuestoDefault: row.presupuestoDefault ?? current.presupuestoDefault,
      };
      let changed = COMPARED.some((k) => next[k] !== current[k]);
      if (changed) {
        await tx
          .update(users)
          .set({ ...next, updatedAt: now })
          .where(and(eq(users.id, current.id), eq(users.idCliente, client.id)));
      }
      if (next.email !== current.email) {
        // Links sent to the old address die first; an account that never set its password gets a new one.
        await retireAllLinks(tx, current.id, now);
        if (current.activo && current.passwordHash === null)
          await sendWelcomeLink(tx, { ...current, ...next }, publicUrl, now);
      }
      for (const [categoryId, presupuesto] of row.presupuestos) {
        const before = storedBudget.get(`${current.id}:${categoryId}`);
        if (presupuesto > 0 && before !== presupuesto) {
          budgetWrites.push({ userId: current.id, categoryId, presupuesto });
          changed = true;
        } else if (presupuesto === 0 && before !== undefined) {
          budgetDeletes.push({ userId: current.id, categoryId });
          changed = true;
        }
      }
      if (changed) outcome.actualizados++;
    }
  }

  if (budgetWrites.length) {
    await tx
      .insert(userCategoryBudgets)
      .values(budgetWrites)
      .onConflictDoUpdate({
        target: [userCategoryBudgets.userId, userCategoryBudgets.categoryId],
        set: { presupuesto: sql`excluded.presupuesto` },
      });
  }
  for (const d of budgetDeletes) {
    await tx
      .delete(userCategoryBudgets)
      .where(and(eq(userCategoryBudgets.userId, d.userId), eq(userCategoryBudgets.categoryId, d.categoryId)));
  }
  return outcome;
}
