import { describe, expect, it } from 'vitest';
import { ClientFiscalBody } from '../schemas/fiscal.ts';
import {
  FISCAL_MSG,
  fiscalProblem,
  normalizeRfc,
  REGIMENES_FISCALES,
  regimenesPara,
  rfcProblem,
  splitCorreos,
  tipoPersona,
  USOS_CFDI,
  usosPara,
} from './fiscal.ts';

/** Real-format RFCs whose check digit is right (the SAT's test RFCs and @nodecfdi/rfc's own examples). */
const MORAL = 'EKU9003173C9';
const FISICA = 'COSC8001137NA';

describe('RFC length and shape (the date and check digit: the server, modules/clients/rfc.ts)', () => {
  it('accepts a persona moral (12) and a persona física (13) of the right shape', () => {
    for (const rfc of [MORAL, 'XIA190128J61', FISICA, 'CACX7605101P8', 'GODE561231GR8']) {
      expect(rfcProblem(rfc), rfc).toBeNull();
    }
    expect(tipoPersona(MORAL)).toBe('moral');
    expect(tipoPersona(FISICA)).toBe('fisica');
  });

  it('refuses a wrong length, a wrong shape and the generic RFCs', () => {
    expect(rfcProblem('EKU9003173C')).toBe(FISCAL_MSG.rfcLongitud);
    expect(rfcProblem('COSC8001137NAA')).toBe(FISCAL_MSG.rfcLongitud);
    expect(rfcProblem('EK19003173C9')).toBe(FISCAL_MSG.rfcForma); // a digit among the letters
    expect(rfcProblem('EKU9003173CB')).toBe(FISCAL_MSG.rfcForma); // a check digit that is neither A nor 0–9
    expect(rfcProblem('XAXX010101000')).toBe(FISCAL_MSG.rfcGenerico);
    expect(rfcProblem('XEXX010101000')).toBe(FISCAL_MSG.rfcGenerico);
    expect(tipoPersona('EK19003173C9')).toBeNull();
  });

  it('keeps an RFC upper case, without the spaces, dashes and dots typed between its parts', () => {
    expect(normalizeRfc(' eku-900317-3c9 ')).toBe(MORAL);
    expect(normalizeRfc('COSC 800113 7NA')).toBe(FISICA);
    expect(normalizeRfc('ñ&a.')).toBe('Ñ&A');
  });
});

describe('the SAT catalogues (c_RegimenFiscal, c_UsoCFDI)', () => {
  it('has each code once, and every régimen a uso names is in c_RegimenFiscal', () => {
    const regimenes = REGIMENES_FISCALES.map((r) => r.clave);
    expect(new Set(regimenes).size).toBe(19);
    expect(new Set(USOS_CFDI.map((u) => u.clave)).size).toBe(24);
    for (const uso of USOS_CFDI) for (const r of uso.regimenes) expect(regimenes, uso.clave).toContain(r);
    expect(REGIMENES_FISCALES.every((r) => r.fisica || r.moral)).toBe(true);
  });

  it('a régimen that fits the RFC and a uso the régimen allows also fit the uso’s own Física/Moral columns', () => {
    for (const tipo of ['moral', 'fisica'] as const) {
      for (const regimen of regimenesPara(tipo)) {
        for (const uso of usosPara(regimen.clave))
          expect(uso[tipo], `${regimen.clave} ${uso.clave}`).toBe(true);
      }
    }
  });

  it('narrows the régimenes by the RFC’s kind and the usos by the régimen', () => {
    expect(regimenesPara('moral').map((r) => r.clave)).toEqual([
      '601',
      '603',
      '610',
      '620',
      '622',
      '623',
      '624',
      '626',
    ]);
    expect(regimenesPara('fisica').map((r) => r.clave)).toContain('612');
    expect(regimenesPara(null)).toHaveLength(19);
    expect(usosPara('616').map((u) => u.clave)).toEqual(['G02', 'S01', 'CP01']);
    expect(usosPara('605').map((u) => u.clave)).toEqual([
      'D01',
      'D02',
      'D03',
      'D04',
      'D05',
      'D06',
      'D07',
      'D08',
      'D09',
      'D10',
      'S01',
      'CP01',
      'CN01',
    ]);
    expect(usosPara(null)).toHaveLength(24);
  });
});

describe('fiscalProblem: the checks between the fields', () => {
  const none = { rfc: null, regimen_fiscal: null, uso_cfdi: null };

  it('accepts what fits, and any field alone', () => {
    expect(fiscalProblem({ rfc: MORAL, regimen_fiscal: '601', uso_cfdi: 'G03' })).toBeNull();
    expect(fiscalProblem({ rfc: FISICA, regimen_fiscal: '626', uso_cfdi: 'G01' })).toBeNull();
    expect(fiscalProblem({ rfc: MORAL, regimen_fiscal: '626', uso_cfdi: 'I04' })).toBeNull();
    expect(fiscalProblem({ rfc: FISICA, regimen_fiscal: '612', uso_cfdi: 'D01' })).toBeNull();
    expect(fiscalProblem(none)).toBeNull();
    expect(fiscalProblem({ ...none, rfc: MORAL })).toBeNull();
    expect(fiscalProblem({ ...none, uso_cfdi: 'D01' })).toBeNull();
  });

  it('refuses a régimen of the other kind of person, naming the régimen', () => {
    expect(fiscalProblem({ ...none, rfc: MORAL, regimen_fiscal: '612' })).toEqual({
      field: 'regimen_fiscal',
      message: FISCAL_MSG.regimenNoCorresponde('612', 'moral'),
    });
    expect(fiscalProblem({ ...none, rfc: FISICA, regimen_fiscal: '601' })).toEqual({
      field: 'regimen_fiscal',
      message: FISCAL_MSG.regimenNoCorresponde('601', 'fisica'),
    });
    expect(FISCAL_MSG.regimenNoCorresponde('612', 'moral')).toBe(
      'El régimen fiscal 612 no es para una persona moral (RFC de 12 caracteres): elige uno de la lista.',
    );
  });

  it('refuses a uso the régimen may not give, with or without an RFC', () => {
    expect(fiscalProblem({ rfc: MORAL, regimen_fiscal: '601', uso_cfdi: 'D01' })).toEqual({
      field: 'uso_cfdi',
      message: FISCAL_MSG.usoNoPermitido('D01', '601'),
    });
    expect(fiscalProblem({ ...none, regimen_fiscal: '616', uso_cfdi: 'G03' })?.field).toBe('uso_cfdi');
    // The régimen is named first: the uso is checked against a régimen that fits.
    expect(fiscalProblem({ rfc: MORAL, regimen_fiscal: '605', uso_cfdi: 'G03' })?.field).toBe(
      'regimen_fiscal',
    );
  });
});

describe('billing e-mails and the body', () => {
  it('splits on commas, semicolons and spaces and drops repeats ignoring case', () => {
    expect(splitCorreos(' a@x.mx, B@x.mx;b@X.mx  c@x.mx ,')).toEqual(['a@x.mx', 'B@x.mx', 'c@x.mx']);
    expect(splitCorreos(['a@x.mx', ' a@x.mx '])).toEqual(['a@x.mx']);
  });

  it('reads each field: normalised, cleared by blank or null, kept when absent; Spanish refusals', () => {
    const ok = ClientFiscalBody.parse({
      rfc: 'eku-900317-3c9',
      razon_social: '  Escuela Kemper Urgate  ',
      regimen_fiscal: '601',
      uso_cfdi: 'g03',
      cp_fiscal: 26015,
      correos_facturacion: 'facturas@kemper.mx; cxp@kemper.mx',
    });
    expect(ok).toEqual({
      rfc: MORAL,
      razon_social: 'Escuela Kemper Urgate',
      regimen_fiscal: '601',
      uso_cfdi: 'G03',
      cp_fiscal: '26015',
      correos_facturacion: ['facturas@kemper.mx', 'cxp@kemper.mx'],
    });
    expect(ClientFiscalBody.parse({ rfc: '', cp_fiscal: null, correos_facturacion: null })).toEqual({
      rfc: null,
      cp_fiscal: null,
      correos_facturacion: [],
    });
    expect(ClientFiscalBody.parse({})).toEqual({});
    const refusal = (body: Record<string, unknown>) =>
      ClientFiscalBody.safeParse(body).error?.issues[0]?.message;
    expect(refusal({ rfc: 'EK19003173C9' })).toBe(FISCAL_MSG.rfcForma);
    expect(refusal({ razon_social: 'x'.repeat(255) })).toBe(FISCAL_MSG.razonSocialLarga);
    expect(refusal({ regimen_fiscal: '600' })).toBe(FISCAL_MSG.regimenInvalido);
    expect(refusal({ uso_cfdi: 'P01' })).toBe(FISCAL_MSG.usoInvalido);
    expect(refusal({ cp_fiscal: '2601' })).toBe(FISCAL_MSG.cpInvalido);
    expect(refusal({ correos_facturacion: 'a@x.mx, nadie' })).toBe(FISCAL_MSG.correoInvalido('nadie'));
    expect(refusal({ correos_facturacion: [1] })).toBe(FISCAL_MSG.correosInvalidos);
    const six = ['a', 'b', 'c', 'd', 'e', 'f'].map((n) => `${n}@x.mx`);
    expect(refusal({ correos_facturacion: six })).toBe(FISCAL_MSG.correosDemasiados);
    expect(refusal({ otro: 1 })).toBe(FISCAL_MSG.datosInvalidos);
  });
});
