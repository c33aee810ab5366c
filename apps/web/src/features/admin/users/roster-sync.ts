/**
 * The HR list («Lista de personal», POST /api/cliente/sincronizar, decision 0122): the form it is sent as,
 * the template, and the server's answers read for the screen (roster-sync-page.tsx). Pure: unit-tested.
 */
import { isRol, ROLE_NAMES } from '@portal/shared/domain/roles';
import type { ImportRowError } from '@portal/shared/schemas/imports';
import { downloadCsv } from '../../../lib/csv';
import { formatCount } from '../../../lib/format';

/** The largest list the server takes (its limit; 20,000 people fit well under it). */
export const ROSTER_MAX_BYTES = 5 * 1024 * 1024;

export const ROSTER_TEMPLATE_FILENAME = 'lista-de-personal.csv';
const TEMPLATE_HEADER = ['usuario', 'correo', 'nombre', 'rol'] as const;
const TEMPLATE_ROWS = [
  ['ana.lopez', 'ana.lopez@tuempresa.mx', 'Ana López Ruiz', 'Usuario'],
  ['carlos.mendez', 'carlos.mendez@tuempresa.mx', 'Carlos Méndez Soto', 'Autorizador'],
] as const;

/** The template: the columns the server reads and two example rows. */
export function downloadRosterTemplate(): void {
  downloadCsv(ROSTER_TEMPLATE_FILENAME, TEMPLATE_HEADER, TEMPLATE_ROWS);
}

/**
 * The multipart body: the file (`archivo`), whether only to preview (`vista_previa`), and the client the
 * distributor names (a client administrator's is its own: none is sent).
 */
export function rosterFormData(file: File, preview: boolean, idCliente: number | null = null): FormData {
  const form = new FormData();
  form.set('vista_previa', preview ? '1' : '0');
  if (idCliente) form.set('id_cliente', String(idCliente));
  form.set('archivo', file, file.name);
  return form;
}

/**
 * The rows a refused list names (400 ROSTER_ERRORS: `errors` keyed 'fila 3 correo'), as the import results
 * show refused rows; any other key (the file's own refusal) as row 0.
 */
export function refusedRows(errors: Record<string, string> | undefined): ImportRowError[] {
  return Object.entries(errors ?? {}).map(([key, motivo]) => {
    const named = /^fila (\d+) (.+)$/.exec(key);
    return named
      ? { fila: Number(named[1]), campo: named[2]!, motivo, valor: '' }
      : { fila: 0, campo: key, motivo, valor: '' };
  });
}

const FIELD_NAMES: Record<string, string> = { nombre: 'nombre', correo: 'correo', rol: 'rol' };

/** What changes for a person, in words: 'nombre', 'nombre y correo', 'nombre, correo y rol'. */
export function changedFields(campos: readonly string[]): string {
  const names = campos.map((c) => FIELD_NAMES[c] ?? c);
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} y ${names.at(-1)}`;
}

/** A role's name ('Usuario'…), or 'Rol n' for one the portal does not know. */
export function roleName(rol: number): string {
  return isRol(rol) ? ROLE_NAMES[rol] : `Rol ${rol}`;
}

/** '1 usuario', '3 usuarios'. */
export function people(n: number): string {
  return n === 1 ? '1 usuario' : `${formatCount(n)} usuarios`;
}
