import { cfdiCentavos } from '@portal/shared/domain/invoices';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../lib/errors.ts';
import { MSG } from '../../messages.ts';
import { cfdiXml, HOSTILE_XML } from '../../test/cfdi-documents.ts';
import { readCfdi, xmlShapeProblem } from './cfdi.ts';

const RFC = 'AAA010101AAA';

/** The refusal `readCfdi` throws for `xml` (fails when it accepts it). */
function refusal(xml: string): AppError {
  try {
    readCfdi(xml);
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).statusCode).toBe(400);
    return err as AppError;
  }
  throw new Error('accepted');
}

describe('CFDI amounts in centavos', () => {
  it('reads decimal strings and rounds half away from zero at 2 decimals, never through a float', () => {
    expect(cfdiCentavos('1160.00')).toBe(116_000);
    expect(cfdiCentavos('0')).toBe(0);
    expect(cfdiCentavos('10.005')).toBe(1001);
    expect(cfdiCentavos('10.004999')).toBe(1000);
    expect(cfdiCentavos('-10.005')).toBe(-1001);
    // 1.005 is 1.00499999… as a float: the string is what counts.
    expect(cfdiCentavos('1.005')).toBe(101);
    expect(cfdiCentavos('123456789012.34')).toBe(12_345_678_901_234);
    for (const bad of ['', '1e3', '1,000.00', '12.1234567', 'abc', '.5'])
      expect(cfdiCentavos(bad), bad).toBeNull();
  });
});

describe('reading a stamped CFDI 4.0', () => {
  it('reads an ingreso: UUID, serie/folio, dates, amounts, currency, payment method and concepts', () => {
    const { xml, uuid } = cfdiXml({
      receptorRfc: RFC,
      descuento: '100.00',
      subtotal: '1000.00',
      total: '1044.00',
      traslados: '144.00',
    });
    const cfdi = readCfdi(xml);
    expect(cfdi).toMatchObject({
      uuid,
      tipo: 'I',
      serie: 'A',
      folio: '101',
      fecha: '2026-12-01T10:00:00',
      fechaTimbrado: '2026-12-01T10:00:00',
      emisor: { rfc: 'EKU9003173C9', nombre: 'ESCUELA KEMPER URGATE', regimenFiscal: '601' },
      receptor: { rfc: RFC, usoCfdi: 'G03' },
      subtotal: 100_000,
      descuento: 10_000,
      traslados: 14_400,
      retenciones: 0,
      total: 104_400,
      moneda: 'MXN',
      metodoPago: 'PPD',
      formaPago: '03',
    });
    expect(cfdi.conceptos).toEqual([
      {
        claveProdServ: '44121600',
        noIdentificacion: 'PAP-0001',
        cantidad: '2',
        claveUnidad: 'H87',
        unidad: 'Pieza',
        descripcion: 'Papel bond carta',
        valorUnitario: '500.00',
        valorUnitarioCentavos: 50_000,
        importe: 100_000,
        descuento: 0,
      },
    ]);
  });

  it('reads an egreso with its related invoice and a pago with its DoctoRelacionado', () => {
    const factura = cfdiXml({ receptorRfc: RFC });
    const nota = readCfdi(
      cfdiXml({
        receptorRfc: RFC,
        tipo: 'E',
        subtotal: '100.00',
        traslados: '16.00',
        total: '116.00',
        conceptos: [{ cantidad: '1', valorUnitario: '100.00', importe: '100.00' }],
        relacionados: { tipoRelacion: '01', uuids: [factura.uuid.toLowerCase()] },
      }).xml,
    );
    expect(nota.tipo).toBe('E');
    expect(nota.total).toBe(11_600);
    expect(nota.relacionados).toEqual([{ tipoRelacion: '01', uuids: [factura.uuid] }]);
    const pago = readCfdi(
      cfdiXml({
        receptorRfc: RFC,
        tipo: 'P',
        pagos: [{ uuid: factura.uuid, saldoAnt: '1160.00', pagado: '500.50' }],
      }).xml,
    );
    expect(pago.tipo).toBe('P');
    expect(pago.pagados).toEqual([
      { uuid: factura.uuid, impSaldoAnt: 116_000, impPagado: 50_050, impSaldoInsoluto: 65_950 },
    ]);
    expect(pago.total).toBe(50_050);
  });

  it('refuses what is not a stamped CFDI 4.0, naming the field', () => {
    expect(refusal(cfdiXml({ receptorRfc: RFC, version: null }).xml).message).toBe(
      'El XML no es un CFDI 4.0: falta el atributo Version en cfdi:Comprobante',
    );
    expect(refusal(cfdiXml({ receptorRfc: RFC, version: '3.3' }).xml).message).toBe(MSG.cfdiVersion('3.3'));
    expect(refusal(cfdiXml({ receptorRfc: RFC, timbrado: false }).xml).code).toBe('CFDI_NOT_STAMPED');
    const usd = refusal(cfdiXml({ receptorRfc: RFC, moneda: 'USD' }).xml);
    expect(usd.message).toBe('Moneda USD no admitida: solo MXN.');
    expect(usd.errors).toEqual({ xml: 'Moneda USD no admitida: solo MXN.' });
    expect(
      refusal(
        cfdiXml({
          receptorRfc: RFC,
          tipo: 'P',
          monedaP: 'USD',
          pagos: [{ uuid: cfdiXml({ receptorRfc: RFC }).uuid, saldoAnt: '1', pagado: '1' }],
        }).xml,
      ).message,
    ).toBe(MSG.cfdiMoneda('USD'));
    expect(refusal(cfdiXml({ receptorRfc: RFC, total: '1200.00' }).xml).message).toBe(
      MSG.cfdiTotalNoCuadra(120_000, 116_000),
    );
    expect(refusal(cfdiXml({ receptorRfc: RFC, subtotal: '1,000.00' }).xml).message).toBe(
      MSG.cfdiImporteInvalido('SubTotal', 'cfdi:Comprobante', '1,000.00'),
    );
    expect(refusal(cfdiXml({ receptorRfc: RFC, uuid: 'no-es-uuid' }).xml).message).toBe(
      MSG.cfdiUuidInvalido('UUID', 'tfd:TimbreFiscalDigital', 'NO-ES-UUID'),
    );
    expect(refusal(cfdiXml({ receptorRfc: RFC }).xml.replace(/<cfdi:Receptor[^>]*\/>/, '')).message).toBe(
      MSG.cfdiFaltaNodo('cfdi:Receptor', 'cfdi:Comprobante'),
    );
    expect(refusal('<factura/>').message).toBe(MSG.cfdiNoComprobante);
    expect(refusal('').message).toBe(MSG.cfdiXmlVacio);
    expect(refusal('no es xml').code).toBe('CFDI_XML');
  });

  it('refuses each hostile document before parsing it, quickly', () => {
    const started = Date.now();
    expect(refusal(HOSTILE_XML.xxe).message).toBe(MSG.cfdiXmlDtd);
    expect(refusal(HOSTILE_XML.externalDtd).message).toBe(MSG.cfdiXmlDtd);
    expect(refusal(HOSTILE_XML.billionLaughs).message).toBe(MSG.cfdiXmlDtd);
    expect(refusal(HOSTILE_XML.deep).message).toBe(MSG.cfdiXmlProfundo);
    expect(refusal(HOSTILE_XML.big(RFC)).message).toBe(MSG.cfdiXmlGrande);
    expect(refusal(HOSTILE_XML.malformed).message).toBe(MSG.cfdiXmlMalFormado);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('counts depth past comments, CDATA and quoted > without being fooled', () => {
    const nest = (n: number) => `${'<a b="x>y">'.repeat(n)}${'</a>'.repeat(n)}`;
    expect(xmlShapeProblem(nest(32))).toBeNull();
    expect(xmlShapeProblem(nest(33))).toBe(MSG.cfdiXmlProfundo);
    expect(xmlShapeProblem(`<r>${'<e/>'.repeat(1000)}<!-- <a><a><a> --><![CDATA[<a><a>]]></r>`)).toBeNull();
    expect(xmlShapeProblem('<r><!-- <!DOCTYPE x> --></r>')).toBe(MSG.cfdiXmlDtd);
  });
});
