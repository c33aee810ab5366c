/**
 * A client's fiscal data on the wire (issue 42 item 1, decision 0128, docs/domain.md "Fiscal data"): the
 * fields of the client form (multipart) and of PUT /api/clientes/{id}/datos-fiscales (JSON), the client's
 * answer, and the v1 API's read. Each field: absent keeps the stored value (an update), blank or null clears
 * it; what is given is checked here (domain/fiscal.ts), the checks between the fields by the server on the
 * client's values after the change, and by the form as it is filled in.
 */
import { z } from 'zod';
import {
  badCorreo,
  CORREOS_FACTURACION_MAX,
  FISCAL_MSG,
  isRegimenFiscal,
  isUsoCfdi,
  normalizeRfc,
  RAZON_SOCIAL_MAX,
  rfcProblem,
  splitCorreos,
} from '../domain/fiscal.ts';

/** Absent stays undefined (keep); null or blank becomes null (clear); text is trimmed. */
function clearable(value: unknown): unknown {
  if (value === undefined) return undefined;
  if (value === null) return null;
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return value.trim() === '' ? null : value.trim();
  return value;
}

/** A text field that may be cleared: `check` says what is wrong with a given value (null when right). */
function clearableText(
  invalid: string,
  check: (text: string) => string | null,
  normalize = (t: string) => t,
) {
  return z.preprocess(
    (v) => {
      const c = clearable(v);
      return typeof c === 'string' ? normalize(c) : c;
    },
    z
      .string({ error: invalid })
      .superRefine((text, ctx) => {
        const problem = check(text);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      })
      .nullable()
      .optional(),
  );
}

const catalogCode = (invalid: string, known: (clave: string) => boolean) =>
  clearableText(
    invalid,
    (clave) => (known(clave) ? null : invalid),
    (t) => t.toUpperCase(),
  );

/**
 * Billing e-mails: a list, or text separated by commas (a form's field); blank or null clears them. Each
 * must be an address; repeats are dropped; at most five.
 */
const correosFacturacion = z.preprocess(
  (v) => {
    if (v === undefined) return undefined;
    if (v === null) return [];
    if (typeof v === 'string') return splitCorreos(v);
    if (Array.isArray(v) && v.every((c) => typeof c === 'string')) return splitCorreos(v);
    return v;
  },
  z
    .array(z.string({ error: FISCAL_MSG.correosInvalidos }), { error: FISCAL_MSG.correosInvalidos })
    .superRefine((correos, ctx) => {
      const bad = badCorreo(correos);
      if (bad !== undefined) ctx.addIssue({ code: 'custom', message: FISCAL_MSG.correoInvalido(bad) });
      else if (correos.length > CORREOS_FACTURACION_MAX)
        ctx.addIssue({ code: 'custom', message: FISCAL_MSG.correosDemasiados });
    })
    .optional(),
);

/** The six fields, as the client form and the JSON body read them. */
export const FISCAL_FIELDS = {
  /** 12 characters (persona moral) or 13 (persona física); upper case, without spaces or dashes. */
  rfc: clearableText(FISCAL_MSG.rfcForma, rfcProblem, normalizeRfc),
  /** As registered with the SAT (its case kept), at most 254 characters. */
  razon_social: clearableText(FISCAL_MSG.datosInvalidos, (t) =>
    t.length > RAZON_SOCIAL_MAX ? FISCAL_MSG.razonSocialLarga : null,
  ),
  /** A code of c_RegimenFiscal ('601'). */
  regimen_fiscal: catalogCode(FISCAL_MSG.regimenInvalido, isRegimenFiscal),
  /** A code of c_UsoCFDI ('G03'). */
  uso_cfdi: catalogCode(FISCAL_MSG.usoInvalido, isUsoCfdi),
  /** The código postal of the fiscal address: 5 digits. */
  cp_fiscal: clearableText(FISCAL_MSG.cpInvalido, (t) => (/^\d{5}$/.test(t) ? null : FISCAL_MSG.cpInvalido)),
  /** 0 to 5 addresses. */
  correos_facturacion: correosFacturacion,
};

/** PUT /api/clientes/{id}/datos-fiscales: any of the six fields (absent keeps; null or '' clears). */
export const ClientFiscalBody = z.strictObject(FISCAL_FIELDS, { error: FISCAL_MSG.datosInvalidos });
export type ClientFiscalBody = z.infer<typeof ClientFiscalBody>;

/** The fields of a client's answer (ClientDto): null (an empty list) when not given. */
export const FiscalDataDto = z.object({
  rfc: z.string().nullable(),
  razon_social: z.string().nullable(),
  regimen_fiscal: z.string().nullable(),
  uso_cfdi: z.string().nullable(),
  cp_fiscal: z.string().nullable(),
  correos_facturacion: z.array(z.string()),
});
export type FiscalDataDto = z.infer<typeof FiscalDataDto>;

/**
 * GET /api/v1/clientes/{id}/datos-fiscales: the client's fiscal data for the ERP, with the catalogue's
 * names, the RFC's kind and whether there is all a CFDI 4.0 receptor needs.
 */
export const V1ClientFiscal = FiscalDataDto.extend({
  id_cliente: z.number().int(),
  nombre: z.string(),
  /** 'moral' (RFC of 12 characters), 'fisica' (13), null without an RFC. */
  tipo_persona: z.enum(['moral', 'fisica']).nullable(),
  regimen_fiscal_nombre: z.string().nullable(),
  uso_cfdi_nombre: z.string().nullable(),
  /** RFC, razón social, régimen, uso de CFDI and código postal are all given. */
  completos: z.boolean(),
  /** When the client was last changed (any of its data), ISO 8601. */
  actualizado_en: z.string(),
});
export type V1ClientFiscal = z.infer<typeof V1ClientFiscal>;
