/**
 * The client form's values: its choices, what it holds for a new or an edited client (its files included)
 * and the multipart body it becomes.
 */

import type { ApprovalRules } from '@portal/shared/domain/approval-rules';
import { CLIENT_PERMISSIONS_DEFAULT, type ClientPermission } from '@portal/shared/domain/client-admin';
import { type CreditPolicy, DIAS_CREDITO_DEFAULT } from '@portal/shared/domain/credit';
import { fiscalProblem, normalizeRfc } from '@portal/shared/domain/fiscal';
import { pesosToCentavos } from '@portal/shared/domain/money';
import { UMBRAL_EXISTENCIA_DEFAULT } from '@portal/shared/domain/stock';
import {
  ALERTAS_PRESUPUESTO_DEFAULT,
  RECORDATORIO_HORAS_DEFAULT,
  VENTANA_REGLAS_HORAS_DEFAULT,
} from '@portal/shared/limits';
import type { ClientDto, ModoPresupuesto } from '@portal/shared/schemas/clients';
import { type FileValue, storedFile } from '../../../components/ui/file-field';

export const DEFAULT_COLOR = '#1c7ed6';
export const DEFAULT_COLOR2 = '#15aabf';

/** The colour pickers' swatches. */
export const SWATCHES = [
  '#1c7ed6',
  '#15aabf',
  '#3b5bdb',
  '#5f3dc4',
  '#c2255c',
  '#e03131',
  '#f76707',
  '#f59f00',
  '#2f9e44',
  '#0ca678',
  '#212529',
  '#868e96',
];

export const AUTORIZADORES = [
  { value: '0', label: 'Sin autorización (se aprueban al enviarse)' },
  { value: '1', label: '1 nivel (Autorizador)' },
  { value: '2', label: '2 niveles (Autorizador y Super Autorizador)' },
];

/** The client's approval levels in words: 'Sin autorización', '1 nivel de autorización', '2 niveles de autorización'. */
export function levelsLabel(n: number): string {
  if (n === 0) return 'Sin autorización';
  return n === 1 ? '1 nivel de autorización' : `${n} niveles de autorización`;
}

export const MODOS: { value: ModoPresupuesto; label: string }[] = [
  { value: 'regular', label: 'Regular (un presupuesto por usuario)' },
  { value: 'categoria', label: 'Por categoría (un presupuesto por categoría)' },
];

export interface ClientFormValues {
  nombre: string;
  color: string;
  color2: string;
  presupuesto_default: number | string;
  limite_de_compras: number | string;
  /** The limit of a new assignment made without one (≥ 1). */
  limite_por_defecto: number | string;
  cantidad_autorizadores: string;
  modo_presupuesto: ModoPresupuesto;
  mostrar_presupuesto_a_usuarios: boolean;
  requiere_2fa: boolean;
  /** Approval rules by amount, pesos; '' = off. */
  aprobacion_automatica_hasta: number | string;
  segundo_nivel_desde: number | string;
  /** Hours before the daily reminder to approvers; 0 = off. */
  recordatorio_horas: number | string;
  /** Hours an order may wait on its level before it escalates; 0 = off. */
  escalar_horas: number | string;
  /** Hours whose orders of the same buyer add up for the rules by amount; 0 = each order alone. */
  ventana_reglas_horas: number | string;
  /** Budget alert thresholds as typed ('80, 100'); the schema reads and checks them. */
  alertas_presupuesto: string;
  avisar_autorizadores: boolean;
  /** What the client's administrators (rol 5) may change (decision 0122). */
  permisos_cliente: ClientPermission[];
  /** A client administrator's budget above this (pesos) waits for approval; '' = no cap. */
  tope_presupuesto: number | string;
  /** Stock (decision 0124): approvals may go beyond the available stock; "Quedan N" threshold. */
  permitir_sobre_pedido: boolean;
  umbral_existencia: number | string;
  /** Credit (decision 0134): the limit in pesos ('' = none), the credit days and the policy. */
  limite_credito: number | string;
  dias_credito: number | string;
  politica_credito: CreditPolicy;
  /**
   * Fiscal data (decision 0128) as typed: the RFC, the razón social, the catalogue codes chosen (null: none),
   * the código postal and the billing e-mails separated by commas.
   */
  rfc: string;
  razon_social: string;
  regimen_fiscal: string | null;
  uso_cfdi: string | null;
  cp_fiscal: string;
  correos_facturacion: string;
  imagen: FileValue;
  calendario: FileValue;
  manual: FileValue;
}

export function initialValues(client: ClientDto | null): ClientFormValues {
  const files = {
    imagen: storedFile(client?.imagen ?? null),
    calendario: storedFile(client?.calendario ?? null),
    manual: storedFile(client?.manual ?? null),
  };
  return client
    ? {
        ...files,
        nombre: client.nombre,
        color: client.color,
        color2: client.color2,
        presupuesto_default: client.presupuesto_default,
        limite_de_compras: client.limite_de_compras,
        limite_por_defecto: client.limite_por_defecto,
        cantidad_autorizadores: String(client.cantidad_autorizadores),
        modo_presupuesto: client.modo_presupuesto,
        mostrar_presupuesto_a_usuarios: client.mostrar_presupuesto_a_usuarios,
        requiere_2fa: client.requiere_2fa,
        aprobacion_automatica_hasta: client.aprobacion_automatica_hasta ?? '',
        segundo_nivel_desde: client.segundo_nivel_desde ?? '',
        recordatorio_horas: client.recordatorio_horas,
        escalar_horas: client.escalar_horas,
        ventana_reglas_horas: client.ventana_reglas_horas,
        alertas_presupuesto: client.alertas_presupuesto.join(', '),
        avisar_autorizadores: client.avisar_autorizadores,
        permisos_cliente: [...client.permisos_cliente],
        tope_presupuesto: client.tope_presupuesto ?? '',
        permitir_sobre_pedido: client.permitir_sobre_pedido,
        umbral_existencia: client.umbral_existencia,
        limite_credito: client.limite_credito ?? '',
        dias_credito: client.dias_credito,
        politica_credito: client.politica_credito,
        rfc: client.rfc ?? '',
        razon_social: client.razon_social ?? '',
        regimen_fiscal: client.regimen_fiscal,
        uso_cfdi: client.uso_cfdi,
        cp_fiscal: client.cp_fiscal ?? '',
        correos_facturacion: client.correos_facturacion.join(', '),
      }
    : {
        ...files,
        nombre: '',
        color: DEFAULT_COLOR,
        color2: DEFAULT_COLOR2,
        presupuesto_default: '',
        limite_de_compras: '',
        limite_por_defecto: 1,
        cantidad_autorizadores: '1',
        modo_presupuesto: 'regular',
        mostrar_presupuesto_a_usuarios: true,
        requiere_2fa: false,
        aprobacion_automatica_hasta: '',
        segundo_nivel_desde: '',
        recordatorio_horas: RECORDATORIO_HORAS_DEFAULT,
        escalar_horas: 0,
        ventana_reglas_horas: VENTANA_REGLAS_HORAS_DEFAULT,
        alertas_presupuesto: ALERTAS_PRESUPUESTO_DEFAULT.join(', '),
        avisar_autorizadores: false,
        permisos_cliente: [...CLIENT_PERMISSIONS_DEFAULT],
        tope_presupuesto: '',
        permitir_sobre_pedido: true,
        umbral_existencia: UMBRAL_EXISTENCIA_DEFAULT,
        limite_credito: '',
        dias_credito: DIAS_CREDITO_DEFAULT,
        politica_credito: 'avisar',
        rfc: '',
        razon_social: '',
        regimen_fiscal: null,
        uso_cfdi: null,
        cp_fiscal: '',
        correos_facturacion: '',
      };
}

/** The form's values as the fields of the multipart body, before the schema reads them. */
export function toBody(
  { imagen, calendario, manual, ...values }: ClientFormValues,
  client: ClientDto | null,
) {
  return {
    ...values,
    color: values.color || DEFAULT_COLOR,
    color2: values.color2 || DEFAULT_COLOR2,
    activo: client?.activo ?? true,
    // A rule the chosen levels cannot have is turned off (the fields are disabled then).
    aprobacion_automatica_hasta:
      values.cantidad_autorizadores === '0' ? '' : values.aprobacion_automatica_hasta,
    segundo_nivel_desde: values.cantidad_autorizadores === '2' ? values.segundo_nivel_desde : '',
    // Nothing waits without levels: no escalation.
    escalar_horas: values.cantidad_autorizadores === '0' ? 0 : values.escalar_horas,
    // As the multipart form sends it: 'usuarios,presupuestos'; blank allows nothing.
    permisos_cliente: values.permisos_cliente.join(','),
  };
}

/** The window the form holds, in whole hours (0 when blank or not a number yet), for the sentence. */
export function formWindow(values: ClientFormValues): number {
  const hours = Number(values.ventana_reglas_horas);
  return Number.isInteger(hours) && hours > 0 ? hours : 0;
}

/** The rules the form holds, in centavos (null = off), for the sentence under the fields. */
export function formRules(values: ClientFormValues): ApprovalRules {
  const centavos = (v: number | string) => (v === '' || v === null ? null : pesosToCentavos(Number(v)));
  const body = toBody(values, null);
  return {
    autoHasta: centavos(body.aprobacion_automatica_hasta),
    segundoNivelDesde: centavos(body.segundo_nivel_desde),
  };
}

/**
 * The rules part of the form (levels, rules by amount, reminder, window, escalation) as the body of
 * PUT /api/cliente/reglas, a client administrator's (decision 0122), before the schema reads it: the same
 * fields and the same rules off for the levels chosen as the client form sends.
 */
export function rulesBody(values: ClientFormValues) {
  const body = toBody(values, null);
  return {
    cantidad_autorizadores: body.cantidad_autorizadores,
    aprobacion_automatica_hasta: body.aprobacion_automatica_hasta,
    segundo_nivel_desde: body.segundo_nivel_desde,
    recordatorio_horas: body.recordatorio_horas,
    ventana_reglas_horas: body.ventana_reglas_horas,
    escalar_horas: body.escalar_horas,
  };
}

/**
 * The fiscal part of the form (decision 0128) as the body of PUT /api/clientes/{id}/datos-fiscales, before
 * the schema reads it: every field sent, a blank one clears it.
 */
export function fiscalBody(values: ClientFormValues) {
  return {
    rfc: values.rfc,
    razon_social: values.razon_social,
    regimen_fiscal: values.regimen_fiscal,
    uso_cfdi: values.uso_cfdi,
    cp_fiscal: values.cp_fiscal,
    correos_facturacion: values.correos_facturacion,
  };
}

/**
 * The catalogue's rules between the fiscal fields on what the form holds (the régimen fits the RFC's kind,
 * the uso the régimen), as the server checks them: the message under the field to correct.
 */
export function fiscalFormErrors(values: ClientFormValues): Record<string, string> {
  const problem = fiscalProblem({
    rfc: normalizeRfc(values.rfc) || null,
    regimen_fiscal: values.regimen_fiscal,
    uso_cfdi: values.uso_cfdi,
  });
  return problem ? { [problem.field]: problem.message } : {};
}
