/**
 * Áreas (cost centres), budget top-ups and transfers between áreas (decision 0123, docs/domain.md "Áreas").
 * Amounts in pesos.
 */
import { z } from 'zod';
import { MSG } from '../messages.ts';

export { AreaBudgetDto } from './area-budget.ts';

import { idNumber, optionalIdNumber, optionalText, PageQuery, pesos, requiredText } from './form-fields.ts';

/** An área's code: letters, digits, dashes and dots, up to 20 (shown in reports and the ERP's GL exports). */
const Codigo = requiredText(MSG.areaCodigoRequerido, 20, MSG.areaCodigoInvalido).pipe(
  z.string().regex(/^[\p{L}\p{N}._-]+$/u, MSG.areaCodigoInvalido),
);

/** POST /api/areas and PUT /api/areas/{id} (the client of an update is the área's own). */
export const AreaBody = z.object({
  /** The distributor names the client; a client administrator's is always its own. */
  id_cliente: optionalIdNumber(MSG.debesSeleccionarCliente),
  nombre: requiredText(MSG.areaNombreRequerido, 100),
  codigo: Codigo,
  cuenta_contable: optionalText(40),
  presupuesto: pesos({ required: MSG.areaPresupuestoInvalido, invalid: MSG.areaPresupuestoInvalido, min: 0 }),
  /** The responsible approver (rol 2 or 3 of the client); null or absent: none. */
  id_responsable: z.preprocess(
    (v) => (v === '' ? null : v),
    idNumber(MSG.areaResponsableInvalido).nullable().optional(),
  ),
});
export type AreaBody = z.infer<typeof AreaBody>;

export const AreasQuery = z.object({
  id_cliente: optionalIdNumber(MSG.debesSeleccionarCliente),
});

/** An área with this month's figures. */
export const AreaDto = z.object({
  id: z.number().int(),
  id_cliente: z.number().int(),
  nombre: z.string(),
  codigo: z.string(),
  cuenta_contable: z.string().nullable(),
  /** The monthly budget before this month's top-ups and transfers. */
  presupuesto: z.number(),
  responsable: z.object({ id: z.number().int(), nombre: z.string() }).nullable(),
  /** Active buyers in the área. */
  usuarios: z.number().int(),
  /** The business month of the figures, YYYY-MM. */
  mes: z.string(),
  /** This month's top-ups and transfers (signed), and the budget they make. */
  ampliaciones: z.number(),
  presupuesto_mes: z.number(),
  utilizado: z.number(),
  restante: z.number(),
});
export type AreaDto = z.infer<typeof AreaDto>;

export const AreasResponse = z.object({ areas: z.array(AreaDto) });
export type AreasResponse = z.infer<typeof AreasResponse>;

export const AreaResponse = z.object({ status: z.literal('ok'), msg: z.string(), area: AreaDto });
export type AreaResponse = z.infer<typeof AreaResponse>;

/** POST /api/areas/transferencias: this month's budget moved from one área to another. */
export const AreaTransferBody = z.object({
  de: idNumber(MSG.areaInvalida),
  a: idNumber(MSG.areaInvalida),
  importe: pesos({
    required: MSG.ampliacionImporteInvalido,
    invalid: MSG.ampliacionImporteInvalido,
    min: 0.01,
  }),
  motivo: optionalText(255),
});
export type AreaTransferBody = z.infer<typeof AreaTransferBody>;

export const TOPUP_STATES = ['pendiente', 'aprobada', 'rechazada'] as const;
export type TopupState = (typeof TOPUP_STATES)[number];

/** POST /api/ampliaciones: a buyer asks for more of this month's budget, their own or their área's. */
export const TopupBody = z.object({
  destino: z.enum(['usuario', 'area'], { error: MSG.datosInvalidos }),
  importe: pesos({
    required: MSG.ampliacionImporteInvalido,
    invalid: MSG.ampliacionImporteInvalido,
    min: 0.01,
  }),
  motivo: requiredText(MSG.ampliacionMotivoRequerido, 500),
  /** Category mode, the buyer's own budget: the category. */
  id_categoria: optionalIdNumber(MSG.ampliacionCategoriaRequerida),
});
export type TopupBody = z.infer<typeof TopupBody>;

/** POST /api/ampliaciones/{id}/aprobar|rechazar */
export const TopupDecisionBody = z.object({ respuesta: optionalText(255) });

export const TopupsQuery = z.object({
  estado: z.enum(TOPUP_STATES, { error: MSG.datosInvalidos }).optional(),
  /** Only this client's requests (the distributor's «Ampliaciones» of the client it chose). */
  id_cliente: optionalIdNumber(MSG.debesSeleccionarCliente),
  page: PageQuery,
});

export const TopupDto = z.object({
  id: z.number().int(),
  usuario: z.object({ id: z.number().int(), nombre: z.string(), usuario: z.string() }),
  /** The área asked for; null: the buyer's own budget. */
  area: z.object({ id: z.number().int(), nombre: z.string(), codigo: z.string() }).nullable(),
  categoria: z.object({ id: z.number().int(), nombre: z.string() }).nullable(),
  mes: z.string(),
  importe: z.number(),
  motivo: z.string(),
  estado: z.enum(TOPUP_STATES),
  respuesta: z.string().nullable(),
  decidido_por: z.string().nullable(),
  decidido_en: z.string().nullable(),
  created_at: z.string(),
  /** Whether the reader may approve or refuse it now. */
  puede_decidir: z.boolean(),
});
export type TopupDto = z.infer<typeof TopupDto>;

export const TopupsResponse = z.object({
  ampliaciones: z.array(TopupDto),
  total: z.number().int(),
  page: z.number().int(),
  per_page: z.number().int(),
});
export type TopupsResponse = z.infer<typeof TopupsResponse>;

export const TopupResponse = z.object({ status: z.literal('ok'), msg: z.string(), ampliacion: TopupDto });
export type TopupResponse = z.infer<typeof TopupResponse>;
