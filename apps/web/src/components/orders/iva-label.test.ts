import { describe, expect, it } from 'vitest';
import { ivaTotalLabel } from './iva-label';

describe('ivaTotalLabel', () => {
  it('names the rate only when every line carries IVA', () => {
    expect(ivaTotalLabel([{ impuesto: true }, { impuesto: true }])).toBe('IVA (16%)');
    expect(ivaTotalLabel([{ impuesto: true }, { impuesto: false }])).toBe('IVA');
    expect(ivaTotalLabel([{ impuesto: false }])).toBe('IVA');
    expect(ivaTotalLabel([])).toBe('IVA');
  });
});
