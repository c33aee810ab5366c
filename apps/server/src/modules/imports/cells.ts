/** Parsing of import cells shared by the product and user loaders. */

import { isEmailAddress } from '@portal/shared/domain/email';
import { isIsoDate } from '@portal/shared/domain/time';
import { parseYesNo } from '@portal/shared/schemas/form-fields';

/**
 * Pesos as people write them in a spreadsheet ("189.9", "$1,250.00", "1250", "189,90" with a decimal
 * comma) to integer centavos; null when it is not a non-negative amount with at most 2 decimals.
 */
export function parsePesosCell(text: string): number | null {
  let s = text.replace(/\s+/g, '').replace(/^\$/, '').replace(/MXN$/i, '');
  if (/^\d+,\d{1,2}$/.test(s)) s = s.replace(',', '.');
  else if (/^\d{1,3}(,\d{3})+(\.\d+)?$/.test(s)) s = s.replace(/,/g, '');
  const m = /^(\d{1,12})(?:\.(\d{0,2}))?$/.exec(s);
  if (!m) return null;
  const centavos = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
  return Number.isSafeInteger(centavos) ? centavos : null;
}

/** A yes/no cell in the one shared vocabulary (schemas/form-fields.ts); null when blank or none of them. */
export function parseFlagCell(text: string): boolean | null {
  return parseYesNo(text) ?? null;
}

/** A whole number (optionally signed); null otherwise. */
export function parseIntCell(text: string): number | null {
  const s = text.trim();
  if (!/^-?\d{1,9}$/.test(s)) return null;
  return Number(s);
}

/** An e-mail address (the shared check: length first, then a linear scan; never a backtracking pattern). */
export function isEmailCell(text: string): boolean {
  return isEmailAddress(text);
}

/**
 * A calendar date as the screens write it, dd/mm/aaaa (decision 0066; also d/m/aaaa), or as a spreadsheet
 * may export it, aaaa-mm-dd; YYYY-MM-DD, or null when it is neither or not a real date (30/02/2027).
 */
export function parseDateCell(text: string): string | null {
  const s = text.trim();
  const dmy = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(s);
  const iso = dmy ? `${dmy[3]}-${dmy[2]!.padStart(2, '0')}-${dmy[1]!.padStart(2, '0')}` : s;
  return isIsoDate(iso) ? iso : null;
}
