/**
 * A server refusal on a form's fields. A 400 answers `{code, msg, errors}` where `errors` maps a field of
 * the body (a dotted path for nested ones, '_' for the body itself) to its Spanish message; the API client
 * keeps that map on ApiError.errors.
 */
import type { ReactNode } from 'react';
import { errorMessage, isApiError } from './api';

/** The per-field messages of a 400, or an empty object (any other error, or a 400 without fields). */
export function serverFieldErrors(error: unknown): Record<string, string> {
  return isApiError(error) && error.status === 400 && error.errors ? error.errors : {};
}

/** What applyFieldErrors needs of a @mantine/form form. */
export interface FieldErrorTarget {
  values: object;
  setErrors: (errors: Record<string, string>) => void;
}

/**
 * Shows a 400's per-field messages under the form's fields: those whose name is a field of the form replace
 * the form's errors. Returns the messages of the fields the form does not have (for the caller to show
 * elsewhere, or to ignore); nothing happens for other errors.
 */
export function applyFieldErrors(form: FieldErrorTarget, error: unknown): Record<string, string> {
  const placed: Record<string, string> = {};
  const rest: Record<string, string> = {};
  for (const [field, message] of Object.entries(serverFieldErrors(error))) {
    if (field in form.values) placed[field] = message;
    else rest[field] = message;
  }
  if (Object.keys(placed).length > 0) form.setErrors(placed);
  return rest;
}

/**
 * A dialog's refusal: a 400 whose every field message went under the form's fields says nothing more;
 * anything else is the message to show above the dialog's buttons (null: none).
 */
export function dialogRefusal(form: FieldErrorTarget, error: unknown): string | null {
  const rest = applyFieldErrors(form, error);
  const onFields = isApiError(error) && error.status === 400 && error.errors && !Object.keys(rest).length;
  return onFields ? null : errorMessage(error);
}

/** The text under each empty required field of the administration forms. */
export const REQUIRED_FIELD = 'Este campo es obligatorio.';

/**
 * The administration forms' schemas give every missing required field one message (`required`, e.g.
 * 'Todos los campos obligatorios deben ser completados'). While any is missing the form shows only those,
 * each as REQUIRED_FIELD; the other refusals come once the required fields are filled.
 */
export function missingFirst(errors: Record<string, ReactNode>, required: string): Record<string, ReactNode> {
  const missing = Object.keys(errors).filter((field) => errors[field] === required);
  if (missing.length === 0) return errors;
  return Object.fromEntries(missing.map((field) => [field, REQUIRED_FIELD]));
}

/**
 * The message under a refused form: what is missing (`required`, followed by the missing fields' names
 * when `labels` names them: "Falta: Nombre, Presupuesto mensual."), else the first refusal.
 */
export function formErrorSummary(
  errors: Record<string, ReactNode>,
  required: string,
  labels: Record<string, string> = {},
): { title: string; text: ReactNode } {
  const messages = Object.values(errors);
  if (messages.includes(REQUIRED_FIELD)) {
    const named = Object.keys(errors)
      .filter((field) => errors[field] === REQUIRED_FIELD && labels[field])
      .map((field) => labels[field]);
    return {
      title: 'Faltan datos',
      text: named.length ? `${required} Falta: ${named.join(', ')}.` : required,
    };
  }
  return { title: 'Revisa los datos', text: messages[0] };
}
