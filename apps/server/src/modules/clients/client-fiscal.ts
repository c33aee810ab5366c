/**
 * A client's fiscal data between the wire and its columns (decision 0128): what a form or a body leaves on
 * the client, checked between the fields (domain/fiscal.ts), and how the answers show it.
 */
import { fiscalProblem } from '@portal/shared/domain/fiscal';
import type { ClientFiscalBody, FiscalDataDto } from '@portal/shared/schemas/fiscal';
import type { clients } from '../../db/schema/index.ts';
import { badRequest } from '../../lib/errors.ts';
import { rfcCheck } from './rfc.ts';

type ClientRow = typeof clients.$inferSelect;
export type FiscalColumns = Pick<
  ClientRow,
  'rfc' | 'razonSocial' | 'regimenFiscal' | 'usoCfdi' | 'cpFiscal' | 'correosFacturacion'
>;

/** Each wire field and its column. */
const COLUMNS = {
  rfc: 'rfc',
  razon_social: 'razonSocial',
  regimen_fiscal: 'regimenFiscal',
  uso_cfdi: 'usoCfdi',
  cp_fiscal: 'cpFiscal',
  correos_facturacion: 'correosFacturacion',
} as const satisfies Record<keyof FiscalDataDto, keyof FiscalColumns>;
type FiscalField = keyof typeof COLUMNS;
const FIELDS = Object.keys(COLUMNS) as FiscalField[];

const NONE: FiscalColumns = {
  rfc: null,
  razonSocial: null,
  regimenFiscal: null,
  usoCfdi: null,
  cpFiscal: null,
  correosFacturacion: null,
};

/**
 * The fiscal columns a form or a body leaves on the client: an absent field keeps `before`'s, null (or no
 * e-mails) clears it. An RFC given must be valid whole (rfc.ts), the régimen must fit the RFC's kind and the
 * uso the régimen, on the values after the change: else 400 naming the field.
 */
export function fiscalColumns(input: ClientFiscalBody, before: FiscalColumns = NONE): FiscalColumns {
  const correos = input.correos_facturacion;
  const after: FiscalColumns = {
    rfc: input.rfc === undefined ? before.rfc : input.rfc,
    razonSocial: input.razon_social === undefined ? before.razonSocial : input.razon_social,
    regimenFiscal: input.regimen_fiscal === undefined ? before.regimenFiscal : input.regimen_fiscal,
    usoCfdi: input.uso_cfdi === undefined ? before.usoCfdi : input.uso_cfdi,
    cpFiscal: input.cp_fiscal === undefined ? before.cpFiscal : input.cp_fiscal,
    correosFacturacion: correos === undefined ? before.correosFacturacion : correos.length ? correos : null,
  };
  // The RFC given: its date and check digit too (the shared schema checked its shape).
  const rfcWrong = typeof input.rfc === 'string' ? rfcCheck(input.rfc) : null;
  if (rfcWrong) throw badRequest('VALIDATION', rfcWrong, { rfc: rfcWrong });
  const problem = fiscalProblem({
    rfc: after.rfc,
    regimen_fiscal: after.regimenFiscal,
    uso_cfdi: after.usoCfdi,
  });
  if (problem) throw badRequest('VALIDATION', problem.message, { [problem.field]: problem.message });
  return after;
}

/** The wire names of the fiscal fields that differ (for the log: names only, never the values). */
export function changedFiscalFields(before: FiscalColumns, after: FiscalColumns): FiscalField[] {
  return FIELDS.filter(
    (f) => JSON.stringify(before[COLUMNS[f]] ?? null) !== JSON.stringify(after[COLUMNS[f]] ?? null),
  );
}

/** The client's fiscal data as its answers carry it: null when not given, no e-mails an empty list. */
export function fiscalDto(row: FiscalColumns): FiscalDataDto {
  return {
    rfc: row.rfc,
    razon_social: row.razonSocial,
    regimen_fiscal: row.regimenFiscal,
    uso_cfdi: row.usoCfdi,
    cp_fiscal: row.cpFiscal,
    correos_facturacion: row.correosFacturacion ?? [],
  };
}
