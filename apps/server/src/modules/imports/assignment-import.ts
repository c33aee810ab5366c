import { ROLES } from '@portal/shared/domain/roles';
import type { ImportRowError } from '@portal/shared/schemas/imports';
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { products, userProducts, users } from '../../db/schema/index.ts';
import type { CsvTable } from '../../lib/csv-read.ts';
import { MSG } from '../../messages.ts';
import { defaultLimit } from '../assignments/assignments.service.ts';
import { parseFlagCell, parseIntCell } from './cells.ts';
import { type BatchResult, type Validated, validateRows } from './product-import.ts';

/** The assignment template's columns, in order (docs/domain.md "Imports", decision 0061). */
export const ASSIGNMENT_COLUMNS = ['usuario', 'clave_interna', 'asignado', 'cantidad_limite'] as const;

export interface AssignmentImportRow {
  fila: number;
  usuario: string;
  claveInterna: string;
  asignado: boolean;
  /** null: keep the stored limit (the client's `limite_por_defecto` for a new one), as in POST /api/productos/asignar. */
  cantidadLimite: number | null;
}

/** Checks every row on its own (no database): cells present and well formed, no pair twice. */
export function validateAssignmentRows(
  table: CsvTable,
  index: Map<string, number>,
): Promise<Validated<AssignmentImportRow>> {
  return validateRows(table, index, ({ fila, get, fail, once, text }) => {
    const usuario = text('usuario', true, 100);
    const claveInterna = text('clave_interna', true, 50);

    // Blank means habilitado, as a blank `activo` of the product file means active.
    const asignadoText = get('asignado');
    const asignado = asignadoText === '' ? true : parseFlagCell(asignadoText);
    if (asignado === null) fail('asignado', MSG.impSiNo, asignadoText);

    const limiteText = get('cantidad_limite');
    const cantidadLimite = limiteText === '' ? null : parseIntCell(limiteText);
    if (limiteText !== '' && (cantidadLimite === null || cantidadLimite < 1)) {
      fail('cantidad_limite', MSG.impCantidadLimite, limiteText);
    }

    if (usuario !== '' && claveInterna !== '') {
      once(`${usuario.toLowerCase()}\u0000${claveInterna}`, 'clave_interna', claveInterna);
    }
    return { fila, usuario, claveInterna, asignado: asignado ?? true, cantidadLimite };
  });
}

export interface AssignmentBatchOutcome extends BatchResult {
  errors: ImportRowError[];
}

/**
 * Writes one batch of assignments of the client: users by `usuario` (ignoring case; only rol 1 of this
 * client — another client's user is reported like a missing one, naming no client), products by
 * `clave_interna` within the client. A row equal to the stored assignment is not written, so re-running a
 * file changes nothing. Two statements at most (rows with and without a limit), whatever the batch size.
 */
export async function upsertAssignments(
  tx: Tx,
  idCliente: number,
  rows: readonly AssignmentImportRow[],
): Promise<AssignmentBatchOutcome> {
  const outcome: AssignmentBatchOutcome = { creados: 0, actualizados: 0, errors: [] };
  if (rows.length === 0) return outcome;
  const buyers = await tx
    .select({ id: users.id, usuario: users.usuario, rol: users.rol })
    .from(users)
    .where(
      and(
        eq(users.idCliente, idCliente),
        inArray(sql`lower(${users.usuario})`, [...new Set(rows.map((r) => r.usuario.toLowerCase()))]),
      ),
    );
  const userByKey = new Map(buyers.map((u) => [u.usuario.toLowerCase(), u]));
  const found = await tx
    .select({ id: products.id, claveInterna: products.claveInterna })
    .from(products)
    .where(
      and(
        eq(products.idCliente, idCliente),
        inArray(products.claveInterna, [...new Set(rows.map((r) => r.claveInterna))]),
      ),
    );
  const productByKey = new Map(found.map((p) => [p.claveInterna, p.id]));

  const withLimit: { userId: number; productId: number; asignado: boolean; cantidadLimite: number }[] = [];
  const keepLimit: { userId: number; productId: number; asignado: boolean; cantidadLimite: SQL<number> }[] =
    [];
  for (const row of rows) {
    const user = userByKey.get(row.usuario.toLowerCase());
    const productId = productByKey.get(row.claveInterna);
    if (!user) {
      outcome.errors.push({
        fila: row.fila,
        campo: 'usuario',
        motivo: MSG.impUsuarioNoExiste,
        valor: row.usuario,
      });
    } else if (user.rol !== ROLES.usuario) {
      outcome.errors.push({
        fila: row.fila,
        campo: 'usuario',
        motivo: MSG.impUsuarioNoComprador,
        valor: row.usuario,
      });
    } else if (productId === undefined) {
      outcome.errors.push({
        fila: row.fila,
        campo: 'clave_interna',
        motivo: MSG.impProductoNoExiste,
        valor: row.claveInterna.slice(0, 100),
      });
    } else if (row.cantidadLimite === null) {
      // A new assignment takes the client's default limit; an existing one keeps its own.
      keepLimit.push({
        userId: user.id,
        productId,
        asignado: row.asignado,
        cantidadLimite: defaultLimit(idCliente),
      });
    } else {
      withLimit.push({
        userId: user.id,
        productId,
        asignado: row.asignado,
        cantidadLimite: row.cantidadLimite,
      });
    }
  }

  const count = (written: { inserted: boolean }[]) => {
    const creados = written.filter((w) => w.inserted).length;
    outcome.creados += creados;
    outcome.actualizados += written.length - creados;
  };
  if (withLimit.length) {
    count(
      await tx
        .insert(userProducts)
        .values(withLimit)
        .onConflictDoUpdate({
          target: [userProducts.userId, userProducts.productId],
          set: {
            asignado: sql`excluded.asignado`,
            cantidadLimite: sql`excluded.cantidad_limite`,
            updatedAt: sql`now()`,
          },
          setWhere: sql`(user_products.asignado, user_products.cantidad_limite)
            is distinct from (excluded.asignado, excluded.cantidad_limite)`,
        })
        .returning({ inserted: sql<boolean>`(xmax = 0)` }),
    );
  }
  if (keepLimit.length) {
    count(
      await tx
        .insert(userProducts)
        .values(keepLimit)
        .onConflictDoUpdate({
          target: [userProducts.userId, userProducts.productId],
          set: { asignado: sql`excluded.asignado`, updatedAt: sql`now()` },
          setWhere: sql`user_products.asignado is distinct from excluded.asignado`,
        })
        .returning({ inserted: sql<boolean>`(xmax = 0)` }),
    );
  }
  return outcome;
}
