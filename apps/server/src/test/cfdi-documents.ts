/**
 * Test CFDI 4.0 documents (decision 0131): an ingreso, an egreso related to an ingreso, a pago 2.0 naming
 * invoices, each stamped with a TimbreFiscalDigital of a fresh UUID, in the SAT's layout (cfdv40.xsd,
 * Pagos20.xsd, TimbreFiscalDigitalv11.xsd); and the hostile documents the parser must refuse. The seals are
 * placeholders: the portal checks that the stamp is there and consistent, not the SAT's signature.
 */
import { randomUUID } from 'node:crypto';

export const ISSUER_RFC = 'EKU9003173C9';
const SELLO = 'c2VsbG8gZGUgcHJ1ZWJh';

export interface ConceptInput {
  claveProdServ?: string;
  noIdentificacion?: string;
  cantidad: string;
  valorUnitario: string;
  importe: string;
  descuento?: string;
  descripcion?: string;
}

export interface CfdiInput {
  receptorRfc: string;
  tipo?: 'I' | 'E' | 'P';
  uuid?: string;
  version?: string | null;
  serie?: string;
  folio?: string;
  moneda?: string;
  subtotal?: string;
  descuento?: string;
  /** TotalImpuestosTrasladados (omitted when null). */
  traslados?: string | null;
  retenciones?: string | null;
  total?: string;
  conceptos?: ConceptInput[];
  /** cfdi:CfdiRelacionados with TipoRelacion. */
  relacionados?: { tipoRelacion: string; uuids: string[] };
  /** pago20:DoctoRelacionado of one pago20:Pago (type P). */
  pagos?: { uuid: string; saldoAnt: string; pagado: string; monedaDR?: string }[];
  monedaP?: string;
  /** false: no TimbreFiscalDigital. */
  timbrado?: boolean;
  fecha?: string;
}

const attrs = (a: Record<string, string | null | undefined>) =>
  Object.entries(a)
    .filter(([, v]) => v !== null && v !== undefined)
    .map(([k, v]) => ` ${k}="${v}"`)
    .join('');

/** A stamped CFDI 4.0 (an ingreso of 1 concept of $1,000.00 + 16 % IVA by default). */
export function cfdiXml(input: CfdiInput): { xml: string; uuid: string } {
  const uuid = (input.uuid ?? randomUUID()).toUpperCase();
  const tipo = input.tipo ?? 'I';
  const pago = tipo === 'P';
  const conceptos = input.conceptos ?? [
    pago
      ? { claveProdServ: '84111506', cantidad: '1', valorUnitario: '0', importe: '0', descripcion: 'Pago' }
      : { cantidad: '2', valorUnitario: '500.00', importe: '1000.00', noIdentificacion: 'PAP-0001' },
  ];
  const traslados = input.traslados === undefined ? (pago ? null : '160.00') : input.traslados;
  const fecha = input.fecha ?? '2026-12-01T10:00:00';
  const pagos = input.pagos ?? [];
  const complemento = [
    pago
      ? `<pago20:Pagos Version="2.0"><pago20:Totales MontoTotalPagos="${pagos
          .reduce((s, p) => s + Number(p.pagado), 0)
          .toFixed(
            2,
          )}"/><pago20:Pago FechaPago="${fecha}" FormaDePagoP="03" MonedaP="${input.monedaP ?? 'MXN'}" TipoCambioP="1" Monto="${pagos
          .reduce((s, p) => s + Number(p.pagado), 0)
          .toFixed(2)}">${pagos
          .map(
            (p, i) =>
              `<pago20:DoctoRelacionado IdDocumento="${p.uuid}" MonedaDR="${p.monedaDR ?? 'MXN'}" EquivalenciaDR="1" NumParcialidad="${i + 1}" ImpSaldoAnt="${p.saldoAnt}" ImpPagado="${p.pagado}" ImpSaldoInsoluto="${(Number(p.saldoAnt) - Number(p.pagado)).toFixed(2)}" ObjetoImpDR="01"/>`,
          )
          .join('')}</pago20:Pago></pago20:Pagos>`
      : '',
    input.timbrado === false
      ? ''
      : `<tfd:TimbreFiscalDigital xmlns:tfd="http://www.sat.gob.mx/TimbreFiscalDigital" Version="1.1" UUID="${uuid}" FechaTimbrado="${fecha}" RfcProvCertif="SAT970701NN3" SelloCFD="${SELLO}" NoCertificadoSAT="30001000000500003456" SelloSAT="${SELLO}"/>`,
  ].join('');
  const comprobante = attrs({
    'xmlns:cfdi': 'http://www.sat.gob.mx/cfd/4',
    'xmlns:xsi': 'http://www.w3.org/2001/XMLSchema-instance',
    ...(pago ? { 'xmlns:pago20': 'http://www.sat.gob.mx/Pagos20' } : {}),
    Version: input.version === null ? null : (input.version ?? '4.0'),
    Serie: input.serie ?? (tipo === 'I' ? 'A' : tipo === 'E' ? 'NC' : 'P'),
    Folio: input.folio ?? '101',
    Fecha: fecha,
    Sello: SELLO,
    FormaPago: pago ? null : '03',
    NoCertificado: '30001000000500003416',
    Certificado: 'MIIF',
    SubTotal: input.subtotal ?? (pago ? '0' : '1000.00'),
    Descuento: input.descuento,
    Moneda: input.moneda ?? (pago ? 'XXX' : 'MXN'),
    Total: input.total ?? (pago ? '0' : '1160.00'),
    TipoDeComprobante: tipo,
    Exportacion: '01',
    MetodoPago: pago ? null : tipo === 'I' ? 'PPD' : 'PUE',
    LugarExpedicion: '26015',
  });
  const impuestos =
    traslados === null && !input.retenciones
      ? ''
      : `<cfdi:Impuestos${attrs({ TotalImpuestosRetenidos: input.retenciones, TotalImpuestosTrasladados: traslados })}>${
          traslados === null
            ? ''
            : `<cfdi:Traslados><cfdi:Traslado Base="${input.subtotal ?? '1000.00'}" Impuesto="002" TipoFactor="Tasa" TasaOCuota="0.160000" Importe="${traslados}"/></cfdi:Traslados>`
        }</cfdi:Impuestos>`;
  const relacionados = input.relacionados
    ? `<cfdi:CfdiRelacionados TipoRelacion="${input.relacionados.tipoRelacion}">${input.relacionados.uuids
        .map((u) => `<cfdi:CfdiRelacionado UUID="${u}"/>`)
        .join('')}</cfdi:CfdiRelacionados>`
    : '';
  const xml = `<?xml version="1.0" encoding="UTF-8"?>
<cfdi:Comprobante${comprobante}>${relacionados}<cfdi:Emisor Rfc="${ISSUER_RFC}" Nombre="ESCUELA KEMPER URGATE" RegimenFiscal="601"/><cfdi:Receptor Rfc="${input.receptorRfc}" Nombre="CLIENTE DE PRUEBA" DomicilioFiscalReceptor="64000" RegimenFiscalReceptor="601" UsoCFDI="${pago ? 'CP01' : 'G03'}"/><cfdi:Conceptos>${conceptos
    .map(
      (c) =>
        `<cfdi:Concepto${attrs({
          ClaveProdServ: c.claveProdServ ?? '44121600',
          NoIdentificacion: c.noIdentificacion,
          Cantidad: c.cantidad,
          ClaveUnidad: pago ? 'ACT' : 'H87',
          Unidad: pago ? null : 'Pieza',
          Descripcion: c.descripcion ?? 'Papel bond carta',
          ValorUnitario: c.valorUnitario,
          Importe: c.importe,
          Descuento: c.descuento,
          ObjetoImp: pago ? '01' : '02',
        })}/>`,
    )
    .join(
      '',
    )}</cfdi:Conceptos>${impuestos}<cfdi:Complemento>${complemento}</cfdi:Complemento></cfdi:Comprobante>`;
  return { xml, uuid };
}

/** Hostile documents: each must be a 400 with a Spanish message, never a 500 or a hang. */
export const HOSTILE_XML = {
  /** Reads a local file into an entity. */
  xxe: `<?xml version="1.0"?><!DOCTYPE cfdi:Comprobante [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><cfdi:Comprobante xmlns:cfdi="http://www.sat.gob.mx/cfd/4" Version="4.0" Serie="&xxe;"/>`,
  /** Loads an external DTD. */
  externalDtd: `<?xml version="1.0"?><!DOCTYPE cfdi:Comprobante SYSTEM "http://127.0.0.1:9/cfdi.dtd"><cfdi:Comprobante xmlns:cfdi="http://www.sat.gob.mx/cfd/4" Version="4.0"/>`,
  /** Nine levels of ten entity references: 10⁹ "lol"s if expanded. */
  billionLaughs: `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">${Array.from(
    { length: 8 },
    (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i === 0 ? '' : i};`.repeat(10)}">`,
  ).join('')}]><cfdi:Comprobante xmlns:cfdi="http://www.sat.gob.mx/cfd/4" Version="4.0" Serie="&lol8;"/>`,
  /** 100,000 nested elements. */
  deep: `<cfdi:Comprobante xmlns:cfdi="http://www.sat.gob.mx/cfd/4" Version="4.0">${'<a>'.repeat(100_000)}${'</a>'.repeat(100_000)}</cfdi:Comprobante>`,
  /** Just over 2 MB. */
  big: (receptorRfc: string) => {
    const { xml } = cfdiXml({ receptorRfc });
    return xml.replace('</cfdi:Comprobante>', `<!--${'x'.repeat(2 * 1024 * 1024)}--></cfdi:Comprobante>`);
  },
  malformed:
    '<cfdi:Comprobante xmlns:cfdi="http://www.sat.gob.mx/cfd/4" Version="4.0"><cfdi:Emisor></cfdi:Comprobante>',
};
