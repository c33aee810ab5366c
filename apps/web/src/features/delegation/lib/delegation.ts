/**
 * Out-of-office delegation's pure part (decision 0053): the current delegation in a sentence, and where a
 * refusal or the form's own check puts its message.
 */
import { delegationWindowProblem } from '@portal/shared/domain/delegation';
import { isRol, ROLE_NAMES } from '@portal/shared/domain/roles';
import { formatIsoDate } from '@portal/shared/domain/time';
import { MSG } from '@portal/shared/messages';
import type { DelegationDto } from '@portal/shared/schemas/delegation';
import { isApiError } from '../../../lib/api';

/** "Autorizador" / "Super Autorizador". */
export function roleName(rol: number): string {
  return isRol(rol) ? ROLE_NAMES[rol] : '';
}

/** "Delegas en Luis Pérez del 01/12/2026 al 05/12/2026" (or "Delega en…" for someone else's). */
export function delegationSentence(d: DelegationDto, self: boolean): string {
  const range =
    d.desde === d.hasta
      ? `el ${formatIsoDate(d.desde)}`
      : `del ${formatIsoDate(d.desde)} al ${formatIsoDate(d.hasta)}`;
  return `${self ? 'Delegas' : 'Delega'} en ${d.delegado.nombre} ${range}`;
}

/** The refusals about the delegate, and those about the window. */
const DELEGATE_MESSAGES: readonly string[] = [
  MSG.delegadoRequerido,
  MSG.delegadoNoValido,
  MSG.delegadoEsUnoMismo,
  MSG.delegadoAusente,
];
const WINDOW_MESSAGES: readonly string[] = [
  MSG.delegacionMuyLarga,
  MSG.delegacionTerminada,
  MSG.rangoFechasInvalido,
  MSG.fechaInvalida,
  MSG.fechasRequeridas,
];

/** Which field of the form a refusal belongs under: the delegate, the dates, or neither. */
export type DelegationField = 'delegado_id' | 'fechas' | null;

/**
 * The field a server refusal is about. A 400 with per-field errors names it (`desde` and `hasta` are both the
 * dates field); one without them is placed by its message (the delegate's and the window's messages).
 */
export function delegationErrorField(error: unknown): { field: DelegationField; message: string } | null {
  if (!isApiError(error) || error.status !== 400) return null;
  const errors = error.errors ?? {};
  if (errors.delegado_id) return { field: 'delegado_id', message: errors.delegado_id };
  const dates = errors.desde ?? errors.hasta;
  if (dates) return { field: 'fechas', message: dates };
  if (!error.msg) return null;
  if (DELEGATE_MESSAGES.includes(error.msg)) return { field: 'delegado_id', message: error.msg };
  if (WINDOW_MESSAGES.includes(error.msg)) return { field: 'fechas', message: error.msg };
  return null;
}

/** The form's values: the delegate's id as the select holds it, the window's ends (YYYY-MM-DD). */
export interface DelegationValues {
  delegado_id: string | null;
  desde: string | null;
  hasta: string | null;
}

/**
 * The form's own check before it is sent, on business date `today`: a delegate, both dates, and a window
 * the server would take (delegationWindowProblem). The dates' message goes under the one range field.
 */
export function delegationFormErrors(
  values: DelegationValues,
  today: string,
): Partial<Record<'delegado_id' | 'fechas', string>> {
  const errors: Partial<Record<'delegado_id' | 'fechas', string>> = {};
  if (!values.delegado_id) errors.delegado_id = MSG.delegadoRequerido;
  if (!values.desde || !values.hasta) errors.fechas = MSG.fechasRequeridas;
  else {
    const problem = delegationWindowProblem(values.desde, values.hasta, today);
    if (problem) errors.fechas = problem;
  }
  return errors;
}
