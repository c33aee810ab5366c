/**
 * A client's fiscal data (issue 42 item 1, decision 0128, docs/domain.md "Fiscal data"): its RFC, razón
 * social, régimen fiscal, uso de CFDI, código postal fiscal and billing e-mails — what a CFDI 4.0 names as
 * its receptor. Every part is optional; what is given is checked here, once, for the form and the server.
 *
 * The RFC's length and shape are checked here, where the forms check them as they are filled in (3 letters
 * for a persona moral, 4 for a persona física, six digits AAMMDD, a homoclave of 2 letters or digits and a
 * check digit 'A' or a digit); the generic RFCs (público en general, extranjeros) are refused. Its date and
 * check digit are checked by the server with @nodecfdi/rfc 2.0.6 (apps/server/src/modules/clients/rfc.ts),
 * which brings a date library the browser need not load (decision 0128).
 *
 * The catalogues are the SAT's CFDI 4.0 c_RegimenFiscal and c_UsoCFDI (catCFDI), as the public repository
 * phpcfdi/resources-sat-catalogs publishes them (database/data/cfdi_40_regimenes_fiscales.sql and
 * cfdi_40_usos_cfdi.sql, unchanged since its commit ad0f28a of 2023-07-05; read at 675be01 of 2026-08-06):
 * every code in force since 2022-01-01 with no end date, its text as the SAT writes it (without the final
 * period), its columns "Física" and "Moral", and for each uso the column "Régimen Fiscal Receptor".
 * Nothing is added or left out.
 */
import { isEmailAddress } from './email.ts';

/** Who an RFC belongs to: 13 characters, a persona física; 12, a persona moral. */
export type TipoPersona = 'fisica' | 'moral';

export const TIPO_PERSONA_NOMBRES: Record<TipoPersona, string> = {
  fisica: 'persona física',
  moral: 'persona moral',
};

export interface RegimenFiscal {
  clave: string;
  nombre: string;
  /** The catalogue's columns: the régimen applies to personas físicas, to personas morales. */
  fisica: boolean;
  moral: boolean;
}

/** c_RegimenFiscal (CFDI 4.0), in the catalogue's order. */
export const REGIMENES_FISCALES: readonly RegimenFiscal[] = [
  { clave: '601', nombre: 'General de Ley Personas Morales', fisica: false, moral: true },
  { clave: '603', nombre: 'Personas Morales con Fines no Lucrativos', fisica: false, moral: true },
  { clave: '605', nombre: 'Sueldos y Salarios e Ingresos Asimilados a Salarios', fisica: true, moral: false },
  { clave: '606', nombre: 'Arrendamiento', fisica: true, moral: false },
  { clave: '607', nombre: 'Régimen de Enajenación o Adquisición de Bienes', fisica: true, moral: false },
  { clave: '608', nombre: 'Demás ingresos', fisica: true, moral: false },
  {
    clave: '610',
    nombre: 'Residentes en el Extranjero sin Establecimiento Permanente en México',
    fisica: true,
    moral: true,
  },
  { clave: '611', nombre: 'Ingresos por Dividendos (socios y accionistas)', fisica: true, moral: false },
  {
    clave: '612',
    nombre: 'Personas Físicas con Actividades Empresariales y Profesionales',
    fisica: true,
    moral: false,
  },
  { clave: '614', nombre: 'Ingresos por intereses', fisica: true, moral: false },
  { clave: '615', nombre: 'Régimen de los ingresos por obtención de premios', fisica: true, moral: false },
  { clave: '616', nombre: 'Sin obligaciones fiscales', fisica: true, moral: false },
  {
    clave: '620',
    nombre: 'Sociedades Cooperativas de Producción que optan por diferir sus ingresos',
    fisica: false,
    moral: true,
  },
  { clave: '621', nombre: 'Incorporación Fiscal', fisica: true, moral: false },
  {
    clave: '622',
    nombre: 'Actividades Agrícolas, Ganaderas, Silvícolas y Pesqueras',
    fisica: false,
    moral: true,
  },
  { clave: '623', nombre: 'Opcional para Grupos de Sociedades', fisica: false, moral: true },
  { clave: '624', nombre: 'Coordinados', fisica: false, moral: true },
  {
    clave: '625',
    nombre: 'Régimen de las Actividades Empresariales con ingresos a través de Plataformas Tecnológicas',
    fisica: true,
    moral: false,
  },
  { clave: '626', nombre: 'Régimen Simplificado de Confianza', fisica: true, moral: true },
];

export interface UsoCfdi {
  clave: string;
  nombre: string;
  fisica: boolean;
  moral: boolean;
  /** The catalogue's "Régimen Fiscal Receptor": the régimenes a receptor may have for this uso. */
  regimenes: readonly string[];
}

/** The régimenes of the business usos (G01, G03, I01–I08) in the catalogue. */
const EMPRESARIALES = ['601', '603', '606', '612', '620', '621', '622', '623', '624', '625', '626'];
/** The régimenes of the personal deductions (D01–D10). */
const DEDUCCIONES = ['605', '606', '608', '611', '612', '614', '607', '615', '625'];
/** The régimenes of S01 and CP01: every one but 605's only use, CN01. */
const TODOS = [
  '601',
  '603',
  '605',
  '606',
  '608',
  '610',
  '611',
  '612',
  '614',
  '616',
  '620',
  '621',
  '622',
  '623',
  '624',
  '607',
  '615',
  '625',
  '626',
];

const empresarial = (clave: string, nombre: string): UsoCfdi => ({
  clave,
  nombre,
  fisica: true,
  moral: true,
  regimenes: EMPRESARIALES,
});
const deduccion = (clave: string, nombre: string): UsoCfdi => ({
  clave,
  nombre,
  fisica: true,
  moral: false,
  regimenes: DEDUCCIONES,
});

/** c_UsoCFDI (CFDI 4.0), in the catalogue's order. */
export const USOS_CFDI: readonly UsoCfdi[] = [
  empresarial('G01', 'Adquisición de mercancías'),
  {
    clave: 'G02',
    nombre: 'Devoluciones, descuentos o bonificaciones',
    fisica: true,
    moral: true,
    regimenes: ['601', '603', '606', '612', '616', '620', '621', '622', '623', '624', '625', '626'],
  },
  empresarial('G03', 'Gastos en general'),
  empresarial('I01', 'Construcciones'),
  empresarial('I02', 'Mobiliario y equipo de oficina por inversiones'),
  empresarial('I03', 'Equipo de transporte'),
  empresarial('I04', 'Equipo de computo y accesorios'),
  empresarial('I05', 'Dados, troqueles, moldes, matrices y herramental'),
  empresarial('I06', 'Comunicaciones telefónicas'),
  empresarial('I07', 'Comunicaciones satelitales'),
  empresarial('I08', 'Otra maquinaria y equipo'),
  deduccion('D01', 'Honorarios médicos, dentales y gastos hospitalarios'),
  deduccion('D02', 'Gastos médicos por incapacidad o discapacidad'),
  deduccion('D03', 'Gastos funerales'),
  deduccion('D04', 'Donativos'),
  deduccion('D05', 'Intereses reales efectivamente pagados por créditos hipotecarios (casa habitación)'),
  deduccion('D06', 'Aportaciones voluntarias al SAR'),
  deduccion('D07', 'Primas por seguros de gastos médicos'),
  deduccion('D08', 'Gastos de transportación escolar obligatoria'),
  deduccion('D09', 'Depósitos en cuentas para el ahorro, primas que tengan como base planes de pensiones'),
  deduccion('D10', 'Pagos por servicios educativos (colegiaturas)'),
  { clave: 'S01', nombre: 'Sin efectos fiscales', fisica: true, moral: true, regimenes: TODOS },
  { clave: 'CP01', nombre: 'Pagos', fisica: true, moral: true, regimenes: TODOS },
  { clave: 'CN01', nombre: 'Nómina', fisica: true, moral: false, regimenes: ['605'] },
];

const REGIMEN_BY_CLAVE = new Map(REGIMENES_FISCALES.map((r) => [r.clave, r]));
const USO_BY_CLAVE = new Map(USOS_CFDI.map((u) => [u.clave, u]));

export const regimenFiscal = (clave: string): RegimenFiscal | undefined => REGIMEN_BY_CLAVE.get(clave);
export const usoCfdi = (clave: string): UsoCfdi | undefined => USO_BY_CLAVE.get(clave);
export const isRegimenFiscal = (clave: string): boolean => REGIMEN_BY_CLAVE.has(clave);
export const isUsoCfdi = (clave: string): boolean => USO_BY_CLAVE.has(clave);

/** "601 · General de Ley Personas Morales": how screens and answers name a code. */
export function catalogLabel(entry: { clave: string; nombre: string }): string {
  return `${entry.clave} · ${entry.nombre}`;
}

/** Most billing e-mails a client may have. */
export const CORREOS_FACTURACION_MAX = 5;
/** Longest razón social (the CFDI 4.0 receptor's Nombre is at most 254 characters). */
export const RAZON_SOCIAL_MAX = 254;

/** The Spanish texts of the fiscal data (here, not in the shared catalogue: only its screens load them). */
export const FISCAL_MSG = {
  rfcLongitud: 'El RFC debe tener 12 caracteres (persona moral) o 13 (persona física).',
  rfcForma:
    'El RFC no es válido: son 3 letras (persona moral) o 4 (persona física), la fecha AAMMDD y 3 caracteres de homoclave.',
  rfcDigito:
    'El RFC no es válido: su dígito verificador (el último carácter) no corresponde. Revisa que esté bien escrito.',
  rfcGenerico:
    'El RFC genérico (XAXX010101000 o XEXX010101000) no identifica a la empresa: escribe su RFC o deja el campo vacío.',
  razonSocialLarga: `La razón social puede tener hasta ${RAZON_SOCIAL_MAX} caracteres.`,
  regimenInvalido: 'El régimen fiscal no es una clave del catálogo del SAT: elige uno de la lista.',
  regimenNoCorresponde: (clave: string, tipo: TipoPersona) =>
    `El régimen fiscal ${clave} no es para una ${TIPO_PERSONA_NOMBRES[tipo]} (RFC de ${tipo === 'moral' ? 12 : 13} caracteres): elige uno de la lista.`,
  usoInvalido: 'El uso de CFDI no es una clave del catálogo del SAT: elige uno de la lista.',
  usoNoPermitido: (uso: string, regimen: string) =>
    `El uso de CFDI ${uso} no se permite con el régimen fiscal ${regimen}: elige uno de la lista.`,
  cpInvalido: 'El código postal fiscal debe tener 5 dígitos.',
  correoInvalido: (correo: string) => `El correo de facturación «${correo}» no es una dirección válida.`,
  correosDemasiados: `Puedes registrar hasta ${CORREOS_FACTURACION_MAX} correos de facturación.`,
  correosInvalidos: 'Escribe los correos de facturación separados por comas.',
  datosInvalidos: 'Los datos fiscales no son válidos.',
} as const;

/**
 * An RFC as typed, as it is kept: upper case, without the spaces, dashes and dots people write between
 * its parts ("abc-010101-ab1" → "ABC010101AB1").
 */
export function normalizeRfc(text: string): string {
  return text.replace(/[\s.-]/g, '').toUpperCase();
}

/** The SAT's generic RFCs: público en general, extranjeros. */
const GENERIC_RFCS: readonly string[] = ['XAXX010101000', 'XEXX010101000'];
/** An RFC's shape: 3 or 4 letters, six digits, a homoclave of two and the check digit. */
const RFC_SHAPE = /^[A-ZÑ&]{3,4}[0-9]{6}[A-Z0-9]{2}[A0-9]$/;

/**
 * What is wrong with a normalised RFC's length or shape, as the message to show; null when they are right
 * (the server then checks its date and check digit: modules/clients/rfc.ts).
 */
export function rfcProblem(rfc: string): string | null {
  if (rfc.length !== 12 && rfc.length !== 13) return FISCAL_MSG.rfcLongitud;
  if (GENERIC_RFCS.includes(rfc)) return FISCAL_MSG.rfcGenerico;
  return RFC_SHAPE.test(rfc) ? null : FISCAL_MSG.rfcForma;
}

/** The kind of an RFC of the right shape (by its length, as @nodecfdi/rfc's isFisica/isMoral); null for none. */
export function tipoPersona(rfc: string | null | undefined): TipoPersona | null {
  if (!rfc || rfcProblem(rfc) !== null) return null;
  return rfc.length === 12 ? 'moral' : 'fisica';
}

/** The régimenes a receptor of this kind may have (all of them when the kind is not known). */
export function regimenesPara(tipo: TipoPersona | null): readonly RegimenFiscal[] {
  return tipo === null ? REGIMENES_FISCALES : REGIMENES_FISCALES.filter((r) => r[tipo]);
}

/** The usos a receptor of this régimen may give (all of them when no régimen is chosen). */
export function usosPara(regimen: string | null): readonly UsoCfdi[] {
  return regimen === null || !isRegimenFiscal(regimen)
    ? USOS_CFDI
    : USOS_CFDI.filter((u) => u.regimenes.includes(regimen));
}

/** The fields whose combination is checked: the client's after a change. */
export interface FiscalCombination {
  rfc: string | null;
  regimen_fiscal: string | null;
  uso_cfdi: string | null;
}

/**
 * The catalogue's rules between the fields, each checked when both of its sides are given: the régimen fits
 * the RFC's kind (the catalogue's "Física"/"Moral"), and the uso is one the régimen may give ("Régimen
 * Fiscal Receptor"). The field to correct and its message; null when they fit.
 */
export function fiscalProblem(values: FiscalCombination): {
  field: 'regimen_fiscal' | 'uso_cfdi';
  message: string;
} | null {
  const tipo = tipoPersona(values.rfc);
  const regimen = values.regimen_fiscal === null ? undefined : regimenFiscal(values.regimen_fiscal);
  if (tipo !== null && regimen && !regimen[tipo])
    return { field: 'regimen_fiscal', message: FISCAL_MSG.regimenNoCorresponde(regimen.clave, tipo) };
  const uso = values.uso_cfdi === null ? undefined : usoCfdi(values.uso_cfdi);
  if (regimen && uso && !uso.regimenes.includes(regimen.clave))
    return { field: 'uso_cfdi', message: FISCAL_MSG.usoNoPermitido(uso.clave, regimen.clave) };
  return null;
}

/**
 * Billing e-mails as typed ("a@x.mx, b@x.mx" or a list): split on commas, semicolons and spaces, each
 * trimmed; repeats (ignoring case) dropped, the first spelling kept.
 */
export function splitCorreos(value: string | readonly string[]): string[] {
  const parts = (typeof value === 'string' ? value.split(/[,;\s]+/) : value).map((c) => c.trim());
  const seen = new Set<string>();
  const out: string[] = [];
  for (const correo of parts) {
    const key = correo.toLowerCase();
    if (correo === '' || seen.has(key)) continue;
    seen.add(key);
    out.push(correo);
  }
  return out;
}

/** The first billing e-mail that is not an address (the project's one check, domain/email.ts). */
export function badCorreo(correos: readonly string[]): string | undefined {
  return correos.find((c) => !isEmailAddress(c));
}
