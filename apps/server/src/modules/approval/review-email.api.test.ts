/**
 * The "por revisar" e-mail says what the approve dialog says (issue 43, item 2; decision 0112): the lines,
 * the total, what is left of the buyer's month after the order, what approving does, and two buttons that
 * open the order with the approve or cancel dialog already open — links that never act by themselves.
 */
import { businessDate } from '@portal/shared/domain/time';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailOutbox, userCategoryBudgets } from '../../db/schema/index.ts';
import {
  assign,
  makeCategory,
  makeClient,
  makeProduct,
  makeUser,
  TEST_PASSWORD,
  uniq,
} from '../../test/factories.ts';
import { ApiClient, createTestApp, DB_KINDS, type TestApp } from '../../test/harness.ts';

describe.each(DB_KINDS)('the review e-mail (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });
  const db = () => t.database.db;

  /** A client with two levels (rules and budget mode as asked), a buyer, a rol 2 and a rol 3, signed in. */
  async function world(client: Parameters<typeof makeClient>[1] = {}) {
    const tag = uniq('re');
    const c = await makeClient(db(), { cantidadAutorizadores: 2, limiteDeCompras: -1, ...client });
    const papeleria = await makeCategory(db(), c.id, 'Papelería');
    const limpieza = await makeCategory(db(), c.id, 'Limpieza');
    const buyer = await makeUser(db(), {
      rol: 1,
      idCliente: c.id,
      presupuestoDefault: 100000,
      limiteDeCompras: -1,
      nombre: 'Beto Comprador',
    });
    const r2 = await makeUser(db(), { rol: 2, idCliente: c.id, email: `${tag}-dos@example.test` });
    const r3 = await makeUser(db(), { rol: 3, idCliente: c.id, email: `${tag}-tres@example.test` });
    const toner = await makeProduct(db(), {
      idCliente: c.id,
      idCategoria: papeleria.id,
      precio: 10000,
      impuesto: true,
      nombre: 'Tóner',
    });
    const jabon = await makeProduct(db(), {
      idCliente: c.id,
      idCategoria: limpieza.id,
      precio: 2500,
      impuesto: false,
      nombre: 'Jabón',
    });
    await assign(db(), buyer.id, toner.id, 5);
    await assign(db(), buyer.id, jabon.id, 5);
    const login = (u: { usuario: string }) => new ApiClient(t.app).loginOk(u.usuario, TEST_PASSWORD);
    const api = { buyer: await login(buyer), r2: await login(r2), r3: await login(r3) };
    const purchase = async (items: [number, number][]) => {
      for (const [id, cantidad] of items)
        expect((await api.buyer.post('/api/carrito/nuevo_item', { item: { id, cantidad } })).statusCode).toBe(
          200,
        );
      const res = await api.buyer.post('/api/compra', {
        orden: items.map(([id, cantidad]) => ({ id, cantidad })),
        fecha: businessDate(new Date()),
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().pedido.id as number;
    };
    return { tag, client: c, papeleria, limpieza, buyer, r2, r3, toner, jabon, api, purchase };
  }

  const mailTo = async (to: string, id: number) => {
    const rows = await db()
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.subject, `Pedido #${String(id).padStart(5, '0')} por revisar`));
    const mail = rows.find((m) => m.to === to);
    expect(mail, `correo a ${to}`).toBeDefined();
    return mail!;
  };

  it('level 1: the lines, the total, what is left, what approving does and the two buttons', async () => {
    const w = await world();
    const id = await w.purchase([
      [w.toner.id, 2],
      [w.jabon.id, 4],
    ]);
    const mail = await mailTo(`${w.tag}-dos@example.test`, id);
    const url = `http://portal.test/autorizador/orden/${id}`;
    // 2 × $100 + 16% IVA = $232, plus 4 × $25 without IVA = $100: $332 of the buyer's $1,000.
    expect(mail.text).toContain(
      [
        `Beto Comprador envió el pedido #${String(id).padStart(5, '0')} por $332.00 MXN. Está pendiente de tu revisión.`,
        '2 × Tóner: $200.00 MXN',
        '4 × Jabón: $100.00 MXN',
        'Total con IVA: $332.00 MXN',
        'Queda después: $668.00 MXN del presupuesto del mes de Beto Comprador.',
        'El pedido pasará a Espera para la aprobación final del Super Autorizador.',
        'Los botones abren el pedido en el portal: nada se aprueba ni se cancela hasta que lo confirmes ahí.',
        '',
        `Aprobar: ${url}?accion=aprobar`,
        `Cancelar: ${url}?accion=cancelar`,
        `Revisar pedido: ${url}`,
      ].join('\n'),
    );
    expect(mail.html).toContain(`href="${url}?accion=aprobar"`);
    expect(mail.html).toContain(`href="${url}?accion=cancelar"`);
    expect(mail.html).toContain('>Aprobar</a>');
  });

  it('level 2: the approved lines after the edits, what is left, and that approving completes it', async () => {
    const w = await world();
    const id = await w.purchase([
      [w.toner.id, 3],
      [w.jabon.id, 1],
    ]);
    const approved = await w.api.r2.post('/api/update/compra', {
      id,
      orden: [{ id: w.toner.id, cantidad: 1 }],
    });
    expect(approved.json(), approved.body).toMatchObject({ nuevo_estatus: 'espera' });
    const mail = await mailTo(`${w.tag}-tres@example.test`, id);
    expect(mail.text).toContain('1 × Tóner: $100.00 MXN\nTotal con IVA: $116.00 MXN');
    expect(mail.text).not.toContain('Jabón');
    expect(mail.text).toContain('Queda después: $884.00 MXN del presupuesto del mes de Beto Comprador.');
    expect(mail.text).toContain('El pedido quedará Aprobado y se avisará a Beto Comprador por correo.');
    expect(mail.text).toContain(`?accion=aprobar`);
  });

  it('the rule by amount and budgets by category say what the dialog says', async () => {
    const w = await world({ segundoNivelDesde: 50000, modoPresupuesto: 'categoria' });
    await db()
      .insert(userCategoryBudgets)
      .values([
        { userId: w.buyer.id, categoryId: w.papeleria.id, presupuesto: 40000 },
        { userId: w.buyer.id, categoryId: w.limpieza.id, presupuesto: 30000 },
      ]);
    const id = await w.purchase([
      [w.toner.id, 1],
      [w.jabon.id, 2],
    ]);
    const mail = await mailTo(`${w.tag}-dos@example.test`, id);
    expect(mail.text).toContain(
      'Queda después en Papelería: $284.00 MXN del presupuesto del mes de Beto Comprador.',
    );
    expect(mail.text).toContain(
      'Queda después en Limpieza: $250.00 MXN del presupuesto del mes de Beto Comprador.',
    );
    expect(mail.text).toContain(
      'El pedido quedará Aprobado: su total es menor a $500.00 MXN, el monto que requiere Super Autorizador. Se avisará a Beto Comprador por correo.',
    );
  });
});
