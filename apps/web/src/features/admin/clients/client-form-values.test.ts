import { FISCAL_MSG } from '@portal/shared/domain/fiscal';
import { ClientForm, ClientRulesBody } from '@portal/shared/schemas/clients';
import { ClientFiscalBody } from '@portal/shared/schemas/fiscal';
import { describe, expect, it } from 'vitest';
import { clientFormData } from './api';
import {
  type ClientFormValues,
  fiscalBody,
  fiscalFormErrors,
  initialValues,
  rulesBody,
  toBody,
} from './client-form-values';

/** A new client's form with what the administrator typed. */
function typed(values: Partial<ClientFormValues>): ClientFormValues {
  return {
    ...initialValues(null),
    nombre: 'Ferretera del Norte',
    presupuesto_default: 3000,
    limite_de_compras: 4,
    ...values,
  };
}

/** The multipart fields the form sends (without its files). */
function sent(values: ClientFormValues, id: number | null = null): Record<string, string> {
  const body = ClientForm.parse(toBody(values, null));
  return Object.fromEntries([...clientFormData(id, body).entries()].map(([k, v]) => [k, String(v)]));
}

describe('the client administrators’ section of the client form (decision 0122)', () => {
  it('a new client lets its administrators manage its people, with no budget cap', () => {
    const values = initialValues(null);
    expect(values.permisos_cliente).toEqual(['usuarios']);
    expect(values.tope_presupuesto).toBe('');
  });

  it('sends the permissions as comma-separated text, in the catalogue’s order, and the cap in pesos', () => {
    const fields = sent(typed({ permisos_cliente: ['presupuestos', 'usuarios'], tope_presupuesto: 5000 }));
    expect(fields.permisos_cliente).toBe('usuarios,presupuestos');
    expect(fields.tope_presupuesto).toBe('5000');
  });

  it('sends none as blank: no permission, and no cap (an absent field would keep the stored one)', () => {
    const fields = sent(typed({ permisos_cliente: [], tope_presupuesto: '' }), 12);
    expect(fields.permisos_cliente).toBe('');
    expect(fields.tope_presupuesto).toBe('');
    // The other amounts left blank are cleared the same way.
    expect(fields.aprobacion_automatica_hasta).toBe('');
    expect(fields.id).toBe('12');
  });
});

describe('a client administrator’s «Reglas de aprobación» (PUT /api/cliente/reglas)', () => {
  it('sends the rules part of the form only, as the strict body takes it', () => {
    const body = ClientRulesBody.parse(
      rulesBody(
        typed({
          cantidad_autorizadores: '2',
          aprobacion_automatica_hasta: 500,
          segundo_nivel_desde: 20000,
          recordatorio_horas: 12,
          ventana_reglas_horas: 0,
          escalar_horas: 48,
        }),
      ),
    );
    expect(body).toEqual({
      cantidad_autorizadores: 2,
      aprobacion_automatica_hasta: 500,
      segundo_nivel_desde: 20000,
      recordatorio_horas: 12,
      ventana_reglas_horas: 0,
      escalar_horas: 48,
    });
  });

  it('turns off what the levels chosen cannot have, and a blank amount is no rule (null)', () => {
    const one = ClientRulesBody.parse(
      rulesBody(
        typed({ cantidad_autorizadores: '1', aprobacion_automatica_hasta: '', segundo_nivel_desde: 900 }),
      ),
    );
    expect(one.aprobacion_automatica_hasta).toBeNull();
    expect(one.segundo_nivel_desde).toBeNull();
    const none = ClientRulesBody.parse(
      rulesBody(typed({ cantidad_autorizadores: '0', aprobacion_automatica_hasta: 300, escalar_horas: 24 })),
    );
    expect(none).toMatchObject({
      cantidad_autorizadores: 0,
      aprobacion_automatica_hasta: null,
      escalar_horas: 0,
    });
  });
});

describe('the fiscal data of the client form (decision 0128)', () => {
  const fiscal = {
    rfc: 'eku9003173c9',
    razon_social: 'Escuela Kemper Urgate',
    regimen_fiscal: '601',
    uso_cfdi: 'G03',
    cp_fiscal: '26015',
    correos_facturacion: 'facturas@kemper.mx, cxp@kemper.mx',
  };

  it('sends them normalised in the multipart form; a cleared one is sent blank', () => {
    const fields = sent(typed(fiscal), 7);
    expect(fields).toMatchObject({
      rfc: 'EKU9003173C9',
      regimen_fiscal: '601',
      cp_fiscal: '26015',
      correos_facturacion: 'facturas@kemper.mx,cxp@kemper.mx',
    });
    const cleared = sent(typed({ ...fiscal, regimen_fiscal: null, correos_facturacion: '', rfc: '' }), 7);
    expect(cleared).toMatchObject({ rfc: '', regimen_fiscal: '', correos_facturacion: '' });
  });

  it('a client administrator’s dialog sends the six fields as JSON, null for what is cleared', () => {
    expect(ClientFiscalBody.parse(fiscalBody(typed({ ...fiscal, uso_cfdi: null, cp_fiscal: '' })))).toEqual({
      rfc: 'EKU9003173C9',
      razon_social: 'Escuela Kemper Urgate',
      regimen_fiscal: '601',
      uso_cfdi: null,
      cp_fiscal: null,
      correos_facturacion: ['facturas@kemper.mx', 'cxp@kemper.mx'],
    });
  });

  it('names the field the catalogue refuses, as the server does', () => {
    expect(fiscalFormErrors(typed(fiscal))).toEqual({});
    expect(fiscalFormErrors(typed({ ...fiscal, regimen_fiscal: '612' }))).toEqual({
      regimen_fiscal: FISCAL_MSG.regimenNoCorresponde('612', 'moral'),
    });
    expect(fiscalFormErrors(typed({ ...fiscal, uso_cfdi: 'D01' }))).toEqual({
      uso_cfdi: FISCAL_MSG.usoNoPermitido('D01', '601'),
    });
    // An RFC of the wrong shape is its own field's refusal (the schema's), not a régimen's.
    expect(fiscalFormErrors(typed({ ...fiscal, rfc: 'EK19003173C9', regimen_fiscal: '612' }))).toEqual({});
  });
});
