import { FISCAL_MSG } from '@portal/shared/domain/fiscal';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, systemLogs } from '../../db/schema/index.ts';
import { MSG } from '../../messages.ts';
import { integrationToken, postForm, signedInAdmin } from '../../test/admin-fixtures.ts';
import { CLIENT_NOT_FOUND, clientWithAdmin, lacks } from '../../test/client-admin.ts';
import { makeClient, uniq } from '../../test/factories.ts';
import { type ApiClient, createTestApp, DB_KINDS, type TestApp } from '../../test/harness.ts';

/** Real-format RFCs with a right check digit: the SAT's test RFCs (a persona moral and a persona física). */
const MORAL = 'EKU9003173C9';
const FISICA = 'CACX7605101P8';
const FULL = {
  rfc: MORAL,
  razon_social: 'Escuela Kemper Urgate',
  regimen_fiscal: '601',
  uso_cfdi: 'G03',
  cp_fiscal: '26015',
  correos_facturacion: ['facturas@kemper.mx', 'cuentas.por.pagar@kemper.mx'],
};

/**
 * A client's fiscal data (issue 42 item 1, decision 0128): the client form and PUT /api/clientes/{id}/
 * datos-fiscales (rol 4 for any client, rol 5 for its own with `fiscales`), the Spanish refusals of each
 * field and of the catalogue's rules between them, the log, and the v1 read.
 */
describe.each(DB_KINDS)('a client’s fiscal data (%s)', (kind) => {
  let t: TestApp;
  let admin: ApiClient;
  beforeAll(async () => {
    t = await createTestApp(kind, { env: { API_RATE_LIMIT: '100' } });
    admin = (await signedInAdmin(t.app, t.database.db)).api;
  });
  afterAll(async () => {
    await t?.close();
  });
  const db = () => t.database.db;
  const url = (id: number) => `/api/clientes/${id}/datos-fiscales`;

  async function refused(
    api: ApiClient,
    id: number,
    body: Record<string, unknown>,
    field: string,
    msg: string,
  ) {
    const res = await api.put(url(id), body);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION', msg, errors: { [field]: msg } });
  }

  it('the client form creates a client with its fiscal data and changes it; blank clears, absent keeps', async () => {
    const base = { nombre: uniq('Kemper'), presupuesto_default: '1000', limite_de_compras: '-1' };
    const created = await postForm(admin, '/api/clientes', {
      ...base,
      rfc: ' eku-900317-3c9 ',
      razon_social: '  Escuela Kemper Urgate  ',
      regimen_fiscal: '601',
      uso_cfdi: 'g03',
      cp_fiscal: '26015',
      correos_facturacion: 'facturas@kemper.mx, cuentas.por.pagar@kemper.mx, FACTURAS@kemper.mx',
    });
    expect(created.statusCode, created.body).toBe(201);
    const cliente = created.json().cliente;
    expect(cliente).toMatchObject(FULL);
    const [row] = await db().select().from(clients).where(eq(clients.id, cliente.id));
    expect(row).toMatchObject({ rfc: MORAL, razonSocial: 'Escuela Kemper Urgate', cpFiscal: '26015' });

    // A persona física's RFC with a régimen of its own; the fields not sent are kept.
    const changed = await postForm(admin, `/api/clientes/update/${cliente.id}`, {
      ...base,
      rfc: FISICA,
      regimen_fiscal: '612',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().cliente).toMatchObject({ ...FULL, rfc: FISICA, regimen_fiscal: '612' });

    // Blank clears: no e-mails is an empty list on the wire and null in the table.
    const cleared = await postForm(admin, `/api/clientes/update/${cliente.id}`, {
      ...base,
      correos_facturacion: '',
      cp_fiscal: '',
    });
    expect(cleared.json().cliente).toMatchObject({ cp_fiscal: null, correos_facturacion: [] });
    const [after] = await db().select().from(clients).where(eq(clients.id, cliente.id));
    expect(after).toMatchObject({ cpFiscal: null, correosFacturacion: null });

    // The form's refusals, with the other fields' values untouched.
    const bad = await postForm(admin, `/api/clientes/update/${cliente.id}`, {
      ...base,
      rfc: 'CACX7605101P9',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ msg: FISCAL_MSG.rfcDigito, errors: { rfc: FISCAL_MSG.rfcDigito } });
    const mismatch = await postForm(admin, `/api/clientes/update/${cliente.id}`, { ...base, rfc: MORAL });
    expect(mismatch.json()).toMatchObject({
      msg: FISCAL_MSG.regimenNoCorresponde('612', 'moral'),
      errors: { regimen_fiscal: FISCAL_MSG.regimenNoCorresponde('612', 'moral') },
    });
    const [kept] = await db().select().from(clients).where(eq(clients.id, cliente.id));
    expect(kept).toMatchObject({ rfc: FISICA, regimenFiscal: '612' });
  });

  it('rol 4 sets a client’s fiscal data, of either kind of person; the log names the fields, not the e-mails', async () => {
    const client = await makeClient(db());
    const moral = await admin.put(url(client.id), FULL);
    expect(moral.statusCode, moral.body).toBe(200);
    expect(moral.json()).toMatchObject({ status: 'ok', msg: MSG.modificadoCorrectamente, cliente: FULL });

    const fisica = { rfc: FISICA, regimen_fiscal: '626', uso_cfdi: 'G01' };
    const res = await admin.put(url(client.id), fisica);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().cliente).toMatchObject({ ...FULL, ...fisica });

    const entries = await db()
      .select()
      .from(systemLogs)
      .where(and(eq(systemLogs.eventType, 'cliente_actualizado'), eq(systemLogs.idCliente, client.id)))
      .orderBy(systemLogs.id);
    expect(entries.map((e) => e.description)).toEqual([
      `Datos fiscales modificados: ${client.nombre}`,
      `Datos fiscales modificados: ${client.nombre}`,
    ]);
    expect(entries[0]!.metadata).toMatchObject({ id_cliente: client.id, campos: Object.keys(FULL) });
    expect(entries[1]!.metadata).toMatchObject({ campos: ['rfc', 'regimen_fiscal', 'uso_cfdi'] });
    expect(JSON.stringify(entries)).not.toContain('kemper.mx');

    // The same values again change nothing and write no entry; null clears one field only.
    expect((await admin.put(url(client.id), fisica)).statusCode).toBe(200);
    const none = await admin.put(url(client.id), { razon_social: null, correos_facturacion: [] });
    expect(none.json().cliente).toMatchObject({ ...fisica, razon_social: null, correos_facturacion: [] });
    const count = await db()
      .select()
      .from(systemLogs)
      .where(and(eq(systemLogs.eventType, 'cliente_actualizado'), eq(systemLogs.idCliente, client.id)));
    expect(count).toHaveLength(3);
  });

  it('refuses each bad field and what the catalogue does not allow, in Spanish, naming the field', async () => {
    const client = await makeClient(db());
    const six = ['a', 'b', 'c', 'd', 'e', 'f'].map((n) => `${n}@kemper.mx`);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ rfc: 'EKU9003173C8' }, 'rfc', FISCAL_MSG.rfcDigito],
      [{ rfc: 'EKU9003173' }, 'rfc', FISCAL_MSG.rfcLongitud],
      [{ rfc: 'CACX7605101P8X' }, 'rfc', FISCAL_MSG.rfcLongitud],
      [{ rfc: 'EKU9013173C9' }, 'rfc', FISCAL_MSG.rfcForma],
      [{ rfc: 'XAXX010101000' }, 'rfc', FISCAL_MSG.rfcGenerico],
      [{ razon_social: 'x'.repeat(255) }, 'razon_social', FISCAL_MSG.razonSocialLarga],
      [{ regimen_fiscal: '609' }, 'regimen_fiscal', FISCAL_MSG.regimenInvalido],
      [{ uso_cfdi: 'P01' }, 'uso_cfdi', FISCAL_MSG.usoInvalido],
      [{ cp_fiscal: '2601' }, 'cp_fiscal', FISCAL_MSG.cpInvalido],
      [{ cp_fiscal: '26O15' }, 'cp_fiscal', FISCAL_MSG.cpInvalido],
      [
        { correos_facturacion: ['facturas@kemper.mx', 'facturas.kemper.mx'] },
        'correos_facturacion',
        FISCAL_MSG.correoInvalido('facturas.kemper.mx'),
      ],
      [{ correos_facturacion: six }, 'correos_facturacion', FISCAL_MSG.correosDemasiados],
      // The régimen of the other kind of person; the uso the régimen may not give.
      [
        { rfc: MORAL, regimen_fiscal: '612' },
        'regimen_fiscal',
        FISCAL_MSG.regimenNoCorresponde('612', 'moral'),
      ],
      [
        { rfc: FISICA, regimen_fiscal: '601' },
        'regimen_fiscal',
        FISCAL_MSG.regimenNoCorresponde('601', 'fisica'),
      ],
      [
        { rfc: MORAL, regimen_fiscal: '601', uso_cfdi: 'D01' },
        'uso_cfdi',
        FISCAL_MSG.usoNoPermitido('D01', '601'),
      ],
    ];
    for (const [body, field, msg] of cases) await refused(admin, client.id, body, field, msg);
    // Against what the client keeps: a régimen stored, then a uso it does not allow, an RFC it does not fit.
    expect((await admin.put(url(client.id), { rfc: MORAL, regimen_fiscal: '601' })).statusCode).toBe(200);
    await refused(
      admin,
      client.id,
      { uso_cfdi: 'CN01' },
      'uso_cfdi',
      FISCAL_MSG.usoNoPermitido('CN01', '601'),
    );
    const fisica = FISCAL_MSG.regimenNoCorresponde('601', 'fisica');
    await refused(admin, client.id, { rfc: FISICA }, 'regimen_fiscal', fisica);
    const unknown = await admin.put(url(client.id), { rfc: MORAL, nombre: 'Otro' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().msg).toBe(FISCAL_MSG.datosInvalidos);
    const [row] = await db().select().from(clients).where(eq(clients.id, client.id));
    expect(row).toMatchObject({ rfc: MORAL, regimenFiscal: '601', usoCfdi: null, cpFiscal: null });

    const missing = await admin.put(url(2_000_000), FULL);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject(CLIENT_NOT_FOUND);
  });

  it('rol 5 changes its own client’s with `fiscales`; another client’s id is missing; without it, 403', async () => {
    const { client, api } = await clientWithAdmin(t, { permisosCliente: ['usuarios', 'fiscales'] });
    const saved = await api.put(url(client.id), FULL);
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await api.get('/api/cliente')).json().cliente).toMatchObject(FULL);
    await refused(api, client.id, { rfc: 'EKU9003173C1' }, 'rfc', FISCAL_MSG.rfcDigito);

    const other = await makeClient(db());
    const theirs = await api.put(url(other.id), FULL);
    const missing = await api.put(url(2_000_000), FULL);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toEqual(missing.json());
    expect(theirs.json()).toMatchObject(CLIENT_NOT_FOUND);
    const [untouched] = await db().select().from(clients).where(eq(clients.id, other.id));
    expect(untouched!.rfc).toBeNull();

    // Without the permission it reads its data on its home and cannot change it.
    const plain = await clientWithAdmin(t, { permisosCliente: ['usuarios'], rfc: MORAL });
    expect((await plain.api.get('/api/cliente')).json().cliente).toMatchObject({ rfc: MORAL });
    const denied = await plain.api.put(url(plain.client.id), { rfc: FISICA });
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toMatchObject(lacks('fiscales'));
    // Nor through the distributor's client form.
    const form = await postForm(plain.api, `/api/clientes/update/${plain.client.id}`, { nombre: 'X' });
    expect(form.statusCode).toBe(403);
  });

  it('the v1 API reads a client’s fiscal data with pedidos:leer; a client’s token only its own', async () => {
    const mine = await makeClient(db(), { nombre: uniq('Kemper'), activo: true });
    const other = await makeClient(db());
    expect((await admin.put(url(mine.id), FULL)).statusCode).toBe(200);
    const token = (body: Partial<Parameters<typeof integrationToken>[1]>) =>
      integrationToken(admin, { permisos: ['pedidos:leer'], ...body });
    const read = (value: string | null, id: number) =>
      t.app.inject({
        method: 'GET',
        url: `/api/v1/clientes/${id}/datos-fiscales`,
        headers: value === null ? {} : { authorization: `Bearer ${value}` },
      });

    const everyClient = await token({});
    const res = await read(everyClient, mine.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      id_cliente: mine.id,
      nombre: mine.nombre,
      ...FULL,
      tipo_persona: 'moral',
      regimen_fiscal_nombre: 'General de Ley Personas Morales',
      uso_cfdi_nombre: 'Gastos en general',
      completos: true,
      actualizado_en: expect.any(String),
    });
    // A client without fiscal data: nulls, not complete.
    expect((await read(everyClient, other.id)).json()).toMatchObject({
      rfc: null,
      tipo_persona: null,
      regimen_fiscal_nombre: null,
      correos_facturacion: [],
      completos: false,
    });

    const own = await token({ id_cliente: mine.id });
    expect((await read(own, mine.id)).statusCode).toBe(200);
    const theirs = await read(own, other.id);
    const missing = await read(own, 2_000_000);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toEqual(missing.json());
    expect(theirs.json()).toMatchObject(CLIENT_NOT_FOUND);

    expect((await read(null, mine.id)).statusCode).toBe(401);
    const writer = await token({ permisos: ['surtido:escribir'] });
    const denied = await read(writer, mine.id);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().msg).toBe(MSG.tokenSinPermiso);
  });
});
