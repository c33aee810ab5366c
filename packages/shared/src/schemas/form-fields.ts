/**
 * The zod helpers of the administration forms (multipart or JSON bodies): what an HTML form sends
 * (numbers or numeric strings, yes/no words, blank fields) becomes typed values, and every refusal is a
 * Spanish message.
 */
import { z } from 'zod';
import { hasAtMostTwoDecimals } from '../domain/money.ts';
import { MAX_ID, MAX_PAGE, MAX_PESOS } from '../limits.ts';
import { MSG } from '../messages.ts';

/** '' (or only spaces) and null mean "not sent". */
export function blankToUndefined(value: unknown): unknown {
  if (value === null) return undefined;
  if (typeof value === 'string' && value.trim() === '') return undefined;
  return value;
}

/** Only a blank string means "not sent" (null is left for the schema: coerced ids read it as 0). */
export function blankTextToUndefined(value: unknown): unknown {
  return typeof value === 'string' && value.trim() === '' ? undefined : value;
}

/** A numeric string becomes a number; anything else is left for the schema to refuse. */
export function formNumber(value: unknown): unknown {
  const v = blankToUndefined(value);
  if (typeof v === 'string') {
    const n = Number(v.trim());
    return Number.isFinite(n) ? n : v;
  }
  return v;
}

/**
 * The one yes/no vocabulary (forms and CSV cells), compared trimmed and in any case:
 * yes = 1, true, si, sí, yes, verdadero, x; no = 0, false, no, falso. Booleans and the numbers 1/0 too.
 */
export const YES_WORDS: readonly string[] = ['1', 'true', 'si', 'sí', 'yes', 'verdadero', 'x'];
export const NO_WORDS: readonly string[] = ['0', 'false', 'no', 'falso'];

/** true/false for a yes/no value, undefined when blank (absent, null, '' or spaces), null otherwise. */
export function parseYesNo(value: unknown): boolean | null | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'boolean') return value;
  const s = String(value).trim().toLowerCase();
  if (s === '') return undefined;
  if (YES_WORDS.includes(s)) return true;
  if (NO_WORDS.includes(s)) return false;
  return null;
}

/** A yes/no value as a boolean; anything else is left for the schema to refuse. */
export function formBoolean(value: unknown): unknown {
  const parsed = parseYesNo(value);
  return parsed === null ? value : parsed;
}

/** A yes/no field that may be absent. */
export function optionalBoolean(message: string = MSG.valorSiNoInvalido) {
  return z.preprocess(formBoolean, z.boolean({ error: message }).optional());
}

/** A yes/no field that must be sent. */
export function requiredBoolean(message: string) {
  return z.preprocess(formBoolean, z.boolean({ error: message }));
}

/** A number or a boolean sent for a text field is taken as its text. */
function scalarToText(value: unknown): unknown {
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : value;
}

/** A required free-text field, trimmed; blank or absent is `required`, longer than `max` is `tooLong`. */
export function requiredText(required: string, max: number, tooLong: string = MSG.textoDemasiadoLargo) {
  return z.preprocess(
    (v) => scalarToText(blankToUndefined(v)),
    z.string({ error: required }).trim().max(max, tooLong),
  );
}

/**
 * An optional free-text field, trimmed: absent keeps the stored value (update) or is '' (create).
 * null clears the field ('') unless `nullKeeps` (then null is the same as absent).
 */
export function optionalText(max: number, opts: { tooLong?: string; nullKeeps?: boolean } = {}) {
  return z.preprocess(
    (v) => (v === null ? (opts.nullKeeps ? undefined : '') : scalarToText(v)),
    z
      .string({ error: MSG.datosInvalidos })
      .trim()
      .max(max, opts.tooLong ?? MSG.textoDemasiadoLargo)
      .optional(),
  );
}

/** A peso amount (at most 2 decimals) with a minimum. */
export function pesos(opts: { required: string; invalid: string; min: number; minMessage?: string }) {
  return z.preprocess(
    formNumber,
    z
      .number({ error: (iss) => (iss.input === undefined ? opts.required : opts.invalid) })
      .min(opts.min, opts.minMessage ?? opts.invalid)
      .max(MAX_PESOS, MSG.importeMaximo)
      .refine(hasAtMostTwoDecimals, MSG.importeDecimales),
  );
}

export function optionalPesos(opts: { invalid: string; min: number; minMessage?: string }) {
  return z.preprocess(
    formNumber,
    z
      .number({ error: opts.invalid })
      .min(opts.min, opts.minMessage ?? opts.invalid)
      .max(MAX_PESOS, MSG.importeMaximo)
      .refine(hasAtMostTwoDecimals, MSG.importeDecimales)
      .optional(),
  );
}

export function integer(opts: { required: string; invalid: string; min: number; max: number }) {
  return z.preprocess(
    formNumber,
    z
      .number({ error: (iss) => (iss.input === undefined ? opts.required : opts.invalid) })
      .int(opts.invalid)
      .min(opts.min, opts.invalid)
      .max(opts.max, opts.invalid),
  );
}

export function optionalInteger(opts: { invalid: string; min: number; max: number }) {
  return z.preprocess(
    formNumber,
    z
      .number({ error: opts.invalid })
      .int(opts.invalid)
      .min(opts.min, opts.invalid)
      .max(opts.max, opts.invalid)
      .optional(),
  );
}

const idSchema = (message: string) =>
  z.number({ error: message }).int(message).positive(message).max(MAX_ID, message);
export const idNumber = (message: string) => z.preprocess(formNumber, idSchema(message));
export const optionalIdNumber = (message: string) => z.preprocess(formNumber, idSchema(message).optional());

/** A required id coerced from any form value (blank is missing). */
export const idRequired = (message: string) =>
  z.preprocess(
    blankTextToUndefined,
    z.coerce.number({ error: message }).int(message).positive(message).max(MAX_ID, message),
  );

/** A required id in a query string. */
export const idQuery = (message: string) =>
  z.coerce.number({ error: message }).int(message).positive(message).max(MAX_ID, message);

/** An optional id in a query string. */
export const optionalIdQuery = () => z.coerce.number().int().positive().max(MAX_ID).optional();

export const PageQuery = z.coerce.number().int().min(1).max(MAX_PAGE).default(1);

/**
 * A peso amount that can be turned off: absent keeps the stored value (undefined); blank or null turns it
 * off (null); otherwise a number of at most two decimals, at least `min`.
 */
export function nullablePesos(opts: { invalid: string; min: number }) {
  return z.preprocess((v) => {
    if (v === undefined) return undefined;
    if (v === null || (typeof v === 'string' && v.trim() === '')) return null;
    return formNumber(v);
  }, z
    .number({ error: opts.invalid })
    .min(opts.min, opts.invalid)
    .max(MAX_PESOS, MSG.importeMaximo)
    .refine(hasAtMostTwoDecimals, MSG.importeDecimales)
    .nullable()
    .optional());
}
