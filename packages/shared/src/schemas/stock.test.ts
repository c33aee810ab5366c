import { describe, expect, it } from 'vitest';
import { MSG } from '../messages.ts';
import { ProductForm } from './inventory.ts';
import { STOCK_MSG, V1StockBody, V1StockBulkBody } from './stock.ts';

const base = { id_cliente: '1', id_categoria: '2', clave_interna: 'A-1', nombre: 'Tóner', precio: '10' };

describe('stock fields (decision 0124)', () => {
  it('the product form: absent keeps, blank clears, whole numbers only', () => {
    expect(ProductForm.parse(base)).not.toHaveProperty('existencia');
    expect(ProductForm.parse({ ...base, existencia: '', dias_entrega: ' ' })).toMatchObject({
      existencia: null,
      dias_entrega: null,
    });
    expect(ProductForm.parse({ ...base, existencia: '12', dias_entrega: 5 })).toMatchObject({
      existencia: 12,
      dias_entrega: 5,
    });
    for (const existencia of ['-1', '2.5', 'doce', '100000001']) {
      const r = ProductForm.safeParse({ ...base, existencia });
      expect(r.success, existencia).toBe(false);
      expect(r.error?.issues[0]?.message).toBe(MSG.existenciaInvalida);
    }
    expect(ProductForm.safeParse({ ...base, dias_entrega: '3651' }).error?.issues[0]?.message).toBe(
      MSG.diasEntregaInvalidos,
    );
  });
  it('the v1 bodies', () => {
    expect(V1StockBody.parse({ existencia: null })).toEqual({ existencia: null });
    expect(V1StockBody.safeParse({ existencia: '3' }).success).toBe(false);
    expect(V1StockBody.safeParse({}).success).toBe(false);
    const repeated = V1StockBulkBody.safeParse({
      existencias: [
        { clave: 'A', existencia: 1 },
        { clave: 'A', existencia: 2 },
      ],
    });
    expect(repeated.error?.issues[0]?.message).toBe(STOCK_MSG.existenciaClaveRepetida);
  });
});
