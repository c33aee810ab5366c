import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema/index.ts';
import { makeBuyer } from '../../test/buyer-fixtures.ts';
import { createTestApp, DB_KINDS, type TestApp } from '../../test/harness.ts';

describe.each(DB_KINDS)('the buyer’s delivery address in the session the cart reads (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => t?.close());

  it('is empty until registered, then the buyer’s own, part by part', async () => {
    const { user, api } = await makeBuyer(t);
    const other = await makeBuyer(t);
    const empty = { direccion_entrega: '', calle: '', colonia: '', ciudad: '', cp: '' };
    expect((await api.get('/api/sesion')).json().comprador.direccion).toEqual(empty);

    await t.database.db
      .update(users)
      .set({ direccionEntrega: 'Almacén central', calle: 'Av. Reforma 100', colonia: 'Juárez', cp: '06600' })
      .where(eq(users.id, user.id));
    const res = await api.get('/api/sesion');
    expect(res.statusCode).toBe(200);
    expect(res.json().comprador.direccion).toEqual({
      direccion_entrega: 'Almacén central',
      calle: 'Av. Reforma 100',
      colonia: 'Juárez',
      ciudad: '',
      cp: '06600',
    });
    // Another buyer sees only their own (empty) address.
    expect((await other.api.get('/api/sesion')).json().comprador.direccion).toEqual(empty);
  });
});
