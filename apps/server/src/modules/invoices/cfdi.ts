/**
 * Reads and checks a stamped CFDI 4.0 (issue 42 item 2, decision 0131): the XML text as the ERP or the
 * operator sent it becomes a `Cfdi` with every amount in centavos, or a Spanish 400 naming the field.
 *
 * Hostile XML is refused before any parser sees it: more than INVOICE_XML_MAX_BYTES, a DOCTYPE or an ENTITY
 * declaration anywhere (no DTD, so no external entity and no entity expansion: XXE and "billion laughs" are
 * refused as text), and elements nested deeper than INVOICE_XML_MAX_DEPTH (a linear scan, so the recursive
 * import below never meets a deep document). Only then does @nodecfdi/cfdi-core's parser (@xmldom/xmldom,
 * stopping at the first error) read it into nodes. Nothing here touches the database: the receptor's RFC, the
 * UUID's uniqueness and the related invoices are the service's checks.
 */

import { nodeFromXmlString } from '@nodecfdi/cfdi-core';
import { Comprobante40 } from '@nodecfdi/cfdi-expresiones';
import {
  CFDI_UUID,
  cfdiCentavos,
  INVOICE_CURRENCY,
  INVOICE_TYPES,
  INVOICE_XML_MAX_BYTES,
  INVOICE_XML_MAX_DEPTH,
  type InvoiceType,
} from '@portal/shared/domain/invoices';
import type { Centavos } from '@portal/shared/domain/money';
import { AppError } from '../../lib/errors.ts';
import { MSG } from '../../messages.ts';

const CFDI_NS = 'http://www.sat.gob.mx/cfd/4';

/** A node of the document, as the library reads it. */
type XmlNodeInterface = ReturnType<typeof nodeFromXmlString>;

export interface CfdiConcept {
  claveProdServ: string;
  noIdentificacion: string | null;
  /** As written (up to 6 decimals). */
  cantidad: string;
  claveUnidad: string;
  unidad: string | null;
  descripcion: string;
  /** As written (up to 6 decimals), and in centavos rounded the CFDI way. */
  valorUnitario: string;
  valorUnitarioCentavos: Centavos;
  importe: Centavos;
  descuento: Centavos;
}

/** One pago20:DoctoRelacionado: the invoice a payment names and what it pays of it. */
export interface CfdiPaidDocument {
  uuid: string;
  impSaldoAnt: Centavos;
  impPagado: Centavos;
  impSaldoInsoluto: Centavos;
}

export interface Cfdi {
  uuid: string;
  tipo: InvoiceType;
  serie: string | null;
  folio: string | null;
  /** Comprobante@Fecha as written (local time of the issuer, no zone). */
  fecha: string;
  /** TimbreFiscalDigital@FechaTimbrado as written. */
  fechaTimbrado: string;
  emisor: { rfc: string; nombre: string; regimenFiscal: string };
  receptor: { rfc: string; nombre: string; usoCfdi: string };
  subtotal: Centavos;
  descuento: Centavos;
  traslados: Centavos;
  retenciones: Centavos;
  /** The comprobante's Total; for a payment complement (whose Total is 0), the sum of what it pays (ImpPagado). */
  total: Centavos;
  moneda: typeof INVOICE_CURRENCY;
  metodoPago: string | null;
  formaPago: string | null;
  conceptos: CfdiConcept[];
  /** cfdi:CfdiRelacionados: each TipoRelacion with the UUIDs it relates. */
  relacionados: { tipoRelacion: string; uuids: string[] }[];
  /** pago20:DoctoRelacionado of every pago20:Pago (type P only). */
  pagados: CfdiPaidDocument[];
  /** The SAT's verification link (`satVerificationUrl`, decision 0133). */
  verificacion: string;
}

/** The expression of a CFDI 4.0 the SAT's verifier reads (Anexo 20: id, re, rr, tt, fe), as written in it. */
export interface CfdiExpression {
  id: string;
  re: string;
  rr: string;
  tt: string;
  /** The whole Sello: the expression keeps its last 8 characters. */
  fe: string;
}

/**
 * The SAT's verification link of a CFDI 4.0 (https://verificacfdi.facturaelectronica.sat.gob.mx/default.aspx
 * ?id=…&re=…&rr=…&tt=…&fe=…), built by @nodecfdi/cfdi-expresiones (its Comprobante40's format: the RFCs
 * XML-escaped, the total without trailing zeros, the seal's last 8 characters).
 */
export function satVerificationUrl(values: CfdiExpression): string {
  return new Comprobante40().format({ ...values });
}

/** A refused CFDI: 400 with the message under `xml` (the field the ERP sent it in). */
export function cfdiRefused(msg: string, code = 'CFDI_INVALID'): AppError {
  return new AppError(400, code, msg, { xml: msg });
}

/**
 * Why the text cannot be a CFDI before parsing it (null when it may be): too big, a DTD or entity
 * declaration, or nesting deeper than the limit. One pass over the text; comments, CDATA and processing
 * instructions are skipped, quoted attribute values are stepped over (a `>` may stand in them).
 */
export function xmlShapeProblem(text: string): string | null {
  if (Buffer.byteLength(text, 'utf8') > INVOICE_XML_MAX_BYTES) return MSG.cfdiXmlGrande;
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) return MSG.cfdiXmlDtd;
  let depth = 0;
  let at = text.indexOf('<');
  while (at !== -1) {
    const rest = (s: string) => text.startsWith(s, at + 1);
    if (rest('!--')) at = text.indexOf('-->', at + 4);
    else if (rest('![CDATA[')) at = text.indexOf(']]>', at + 9);
    else if (rest('?')) at = text.indexOf('?>', at + 2);
    else if (rest('/')) {
      depth--;
      at = text.indexOf('>', at + 2);
    } else {
      depth++;
      if (depth > INVOICE_XML_MAX_DEPTH) return MSG.cfdiXmlProfundo;
      let quote: string | null = null;
      let i = at + 1;
      for (; i < text.length; i++) {
        const ch = text[i];
        if (quote) {
          if (ch === quote) quote = null;
        } else if (ch === '"' || ch === "'") quote = ch;
        else if (ch === '>') break;
      }
      if (text[i - 1] === '/') depth--;
      at = i;
    }
    if (at === -1 || at >= text.length) break;
    at = text.indexOf('<', at);
  }
  return null;
}

/** A required attribute's value, trimmed; 400 naming the attribute and the node when missing or blank. */
function required(node: XmlNodeInterface, attr: string): string {
  const value = node.hasAttribute(attr) ? node.getAttribute(attr).trim() : '';
  if (value === '') throw cfdiRefused(MSG.cfdiFaltaAtributo(attr, node.name()));
  return value;
}

function optional(node: XmlNodeInterface, attr: string): string | null {
  const value = node.hasAttribute(attr) ? node.getAttribute(attr).trim() : '';
  return value === '' ? null : value;
}

function amount(node: XmlNodeInterface, attr: string, needed = true): Centavos {
  const text = needed ? required(node, attr) : optional(node, attr);
  if (text === null) return 0;
  const centavos = cfdiCentavos(text);
  if (centavos === null || centavos < 0) throw cfdiRefused(MSG.cfdiImporteInvalido(attr, node.name(), text));
  return centavos;
}

function child(node: XmlNodeInterface, name: string): XmlNodeInterface {
  const found = node.searchNode(name);
  if (!found) throw cfdiRefused(MSG.cfdiFaltaNodo(name, node.name()));
  return found;
}

function uuidOf(node: XmlNodeInterface, attr: string): string {
  const value = required(node, attr).toUpperCase();
  if (!CFDI_UUID.test(value)) throw cfdiRefused(MSG.cfdiUuidInvalido(attr, node.name(), value));
  return value;
}

/** The document as nodes: 400 for text that is not well-formed XML. */
function parse(xml: string): XmlNodeInterface {
  const problem = xmlShapeProblem(xml);
  if (problem) throw cfdiRefused(problem, 'CFDI_XML');
  if (xml.trim() === '') throw cfdiRefused(MSG.cfdiXmlVacio, 'CFDI_XML');
  try {
    return nodeFromXmlString(xml);
  } catch {
    throw cfdiRefused(MSG.cfdiXmlMalFormado, 'CFDI_XML');
  }
}

function concepts(comprobante: XmlNodeInterface): CfdiConcept[] {
  const list = child(comprobante, 'cfdi:Conceptos').searchNodes('cfdi:Concepto');
  if (list.length === 0) throw cfdiRefused(MSG.cfdiFaltaNodo('cfdi:Concepto', 'cfdi:Conceptos'));
  return list.map((c) => {
    const valorUnitario = required(c, 'ValorUnitario');
    const valorUnitarioCentavos = cfdiCentavos(valorUnitario);
    if (valorUnitarioCentavos === null || valorUnitarioCentavos < 0)
      throw cfdiRefused(MSG.cfdiImporteInvalido('ValorUnitario', c.name(), valorUnitario));
    const cantidad = required(c, 'Cantidad');
    if (!/^\d{1,12}(\.\d{1,6})?$/.test(cantidad))
      throw cfdiRefused(MSG.cfdiImporteInvalido('Cantidad', c.name(), cantidad));
    return {
      claveProdServ: required(c, 'ClaveProdServ'),
      noIdentificacion: optional(c, 'NoIdentificacion'),
      cantidad,
      claveUnidad: required(c, 'ClaveUnidad'),
      unidad: optional(c, 'Unidad'),
      descripcion: required(c, 'Descripcion'),
      valorUnitario,
      valorUnitarioCentavos,
      importe: amount(c, 'Importe'),
      descuento: amount(c, 'Descuento', false),
    };
  });
}

function related(comprobante: XmlNodeInterface): Cfdi['relacionados'] {
  return comprobante.searchNodes('cfdi:CfdiRelacionados').map((group) => ({
    tipoRelacion: required(group, 'TipoRelacion'),
    uuids: group.searchNodes('cfdi:CfdiRelacionado').map((r) => uuidOf(r, 'UUID')),
  }));
}

/** Every pago20:DoctoRelacionado, each pago and document in MXN. */
function paidDocuments(comprobante: XmlNodeInterface): CfdiPaidDocument[] {
  const pagos = comprobante.searchNodes('cfdi:Complemento', 'pago20:Pagos', 'pago20:Pago');
  if (pagos.length === 0)
    throw cfdiRefused(MSG.cfdiFaltaNodo('pago20:Pagos/pago20:Pago', 'cfdi:Complemento'));
  const out: CfdiPaidDocument[] = [];
  for (const pago of pagos) {
    const monedaP = required(pago, 'MonedaP');
    if (monedaP !== INVOICE_CURRENCY) throw cfdiRefused(MSG.cfdiMoneda(monedaP), 'CFDI_CURRENCY');
    amount(pago, 'Monto');
    const docs = pago.searchNodes('pago20:DoctoRelacionado');
    if (docs.length === 0) throw cfdiRefused(MSG.cfdiFaltaNodo('pago20:DoctoRelacionado', 'pago20:Pago'));
    for (const d of docs) {
      const monedaDR = required(d, 'MonedaDR');
      if (monedaDR !== INVOICE_CURRENCY) throw cfdiRefused(MSG.cfdiMoneda(monedaDR), 'CFDI_CURRENCY');
      const impPagado = amount(d, 'ImpPagado');
      if (impPagado === 0) throw cfdiRefused(MSG.cfdiImporteInvalido('ImpPagado', d.name(), '0'));
      out.push({
        uuid: uuidOf(d, 'IdDocumento'),
        impSaldoAnt: amount(d, 'ImpSaldoAnt'),
        impPagado,
        impSaldoInsoluto: amount(d, 'ImpSaldoInsoluto'),
      });
    }
  }
  return out;
}

/** The stamp: tfd:TimbreFiscalDigital with its UUID, date and both seals (SelloCFD is the comprobante's). */
function stamp(comprobante: XmlNodeInterface): { uuid: string; fechaTimbrado: string; sello: string } {
  const tfd = comprobante.searchNode('cfdi:Complemento', 'tfd:TimbreFiscalDigital');
  if (!tfd) throw cfdiRefused(MSG.cfdiSinTimbre, 'CFDI_NOT_STAMPED');
  const uuid = uuidOf(tfd, 'UUID');
  const fechaTimbrado = required(tfd, 'FechaTimbrado');
  const selloCfd = required(tfd, 'SelloCFD');
  required(tfd, 'SelloSAT');
  required(tfd, 'NoCertificadoSAT');
  if (selloCfd !== required(comprobante, 'Sello'))
    throw cfdiRefused(MSG.cfdiSelloDistinto, 'CFDI_NOT_STAMPED');
  return { uuid, fechaTimbrado, sello: selloCfd };
}

/** Reads and checks a stamped CFDI 4.0 (see the file's head); throws a 400 naming the field. */
export function readCfdi(xml: string): Cfdi {
  const comprobante = parse(xml);
  if (comprobante.name() !== 'cfdi:Comprobante' || comprobante.getAttribute('xmlns:cfdi') !== CFDI_NS)
    throw cfdiRefused(MSG.cfdiNoComprobante);
  const version = required(comprobante, 'Version');
  if (version !== '4.0') throw cfdiRefused(MSG.cfdiVersion(version));
  const tipo = required(comprobante, 'TipoDeComprobante') as InvoiceType;
  if (!INVOICE_TYPES.includes(tipo)) throw cfdiRefused(MSG.cfdiTipo(tipo), 'CFDI_TYPE');
  const moneda = required(comprobante, 'Moneda');
  // A payment complement's comprobante is in XXX (no currency): its payments say theirs.
  const expected = tipo === 'P' ? 'XXX' : INVOICE_CURRENCY;
  if (moneda !== expected) throw cfdiRefused(MSG.cfdiMoneda(moneda), 'CFDI_CURRENCY');
  const emisor = child(comprobante, 'cfdi:Emisor');
  const receptor = child(comprobante, 'cfdi:Receptor');
  const impuestos = comprobante.searchNode('cfdi:Impuestos');
  const { uuid, fechaTimbrado, sello } = stamp(comprobante);
  const cfdi: Cfdi = {
    uuid,
    tipo,
    serie: optional(comprobante, 'Serie'),
    folio: optional(comprobante, 'Folio'),
    fecha: required(comprobante, 'Fecha'),
    fechaTimbrado,
    emisor: {
      rfc: required(emisor, 'Rfc').toUpperCase(),
      nombre: required(emisor, 'Nombre'),
      regimenFiscal: required(emisor, 'RegimenFiscal'),
    },
    receptor: {
      rfc: required(receptor, 'Rfc').toUpperCase(),
      nombre: required(receptor, 'Nombre'),
      usoCfdi: required(receptor, 'UsoCFDI'),
    },
    subtotal: amount(comprobante, 'SubTotal'),
    descuento: amount(comprobante, 'Descuento', false),
    traslados: impuestos ? amount(impuestos, 'TotalImpuestosTrasladados', false) : 0,
    retenciones: impuestos ? amount(impuestos, 'TotalImpuestosRetenidos', false) : 0,
    total: amount(comprobante, 'Total'),
    moneda: INVOICE_CURRENCY,
    metodoPago: optional(comprobante, 'MetodoPago'),
    formaPago: optional(comprobante, 'FormaPago'),
    conceptos: concepts(comprobante),
    relacionados: related(comprobante),
    pagados: tipo === 'P' ? paidDocuments(comprobante) : [],
    verificacion: satVerificationUrl({
      id: uuid,
      re: required(emisor, 'Rfc').toUpperCase(),
      rr: required(receptor, 'Rfc').toUpperCase(),
      tt: required(comprobante, 'Total'),
      fe: sello,
    }),
  };
  const expectedTotal = cfdi.subtotal - cfdi.descuento + cfdi.traslados - cfdi.retenciones;
  if (cfdi.total !== expectedTotal) throw cfdiRefused(MSG.cfdiTotalNoCuadra(cfdi.total, expectedTotal));
  if (tipo === 'P') cfdi.total = cfdi.pagados.reduce((sum, d) => sum + d.impPagado, 0);
  return cfdi;
}
