import { and, eq, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commentCountDrift } from '../../db/order-totals.ts';
import {
  emailOutbox,
  orderCommentNotices,
  orderComments,
  orderEvents,
  orders,
  systemLogs,
} from '../../db/schema/index.ts';
import { MSG } from '../../messages.ts';
import {
  assign,
  makeCategory,
  makeClient,
  makeOrder,
  makeProduct,
  makeUser,
  TEST_PASSWORD,
  uniq,
} from '../../test/factories.ts';
import { ApiClient, createTestApp, DB_KINDS, type TestApp } from '../../test/harness.ts';
import { startSmtp } from '../../test/smtp.ts';

describe.each(DB_KINDS)('comments on orders (%s)', (kind) => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp(kind, { env: { SMTP_URL: smtp.url } });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });
  const db = () => t.database.db;

  /** A client with a buyer, a second buyer, rol 2 and rol 3 signed in, and one product. */
  async function world(opts: { levels?: number; presupuesto?: number } = {}) {
    const tag = uniq('c');
    const client = await makeClient(db(), { cantidadAutorizadores: opts.levels ?? 2, limiteDeCompras: -1 });
    const category = await makeCategory(db(), client.id, 'Papelería');
    const buyer = await makeUser(db(), {
      rol: 1,
      idCliente: client.id,
      presupuestoDefault: opts.presupuesto ?? 100000,
      limiteDeCompras: -1,
      nombre: 'Beto Comprador',
      email: `${tag}-comprador@example.test`,
    });
    const buyer2 = await makeUser(db(), { rol: 1, idCliente: client.id, email: `${tag}-otro@example.test` });
    const auth2 = await makeUser(db(), {
      rol: 2,
      idCliente: client.id,
      nombre: 'Ana Autorizadora',
      email: `${tag}-autorizador@example.test`,
    });
    const auth3 = await makeUser(db(), { rol: 3, idCliente: client.id, email: `${tag}-super@example.test` });
    const product = await makeProduct(db(), {
      idCliente: client.id,
      idCategoria: category.id,
      precio: 10000,
      impuesto: false,
      nombre: 'Tóner',
    });
    await assign(db(), buyer.id, product.id, 5);
    const api = {
      buyer: await new ApiClient(t.app).loginOk(buyer.usuario, TEST_PASSWORD),
      buyer2: await new ApiClient(t.app).loginOk(buyer2.usuario, TEST_PASSWORD),
      r2: await new ApiClient(t.app).loginOk(auth2.usuario, TEST_PASSWORD),
      r3: await new ApiClient(t.app).loginOk(auth3.usuario, TEST_PASSWORD),
    };
    const order = (status: 'pendiente' | 'espera' | 'aprobado' | 'cancelado' = 'pendiente', cantidad = 1) =>
      makeOrder(db(), {
        idUser: buyer.id,
        idCliente: client.id,
        status,
        transactionDate: new Date(),
        lines: [
          {
            productId: product.id,
            nombre: product.nombre,
            precio: product.precio,
            impuesto: false,
            cantidad,
            idCategoria: category.id,
          },
        ],
      });
    return { tag, client, buyer, buyer2, auth2, auth3, product, api, order };
  }
  type World = Awaited<ReturnType<typeof world>>;

  const buyerComment = (w: World, id: number, texto: unknown) =>
    w.api.buyer.post(`/api/historial/${id}/comentarios`, { texto });
  const approverComment = (api: ApiClient, id: number, texto: unknown) =>
    api.post(`/api/pedidos/${id}/comentarios`, { texto });
  const commentRows = (orderId: number) =>
    db().select().from(orderComments).where(eq(orderComments.orderId, orderId));
  /** Comment e-mails written to the outbox for an address (delivered or not). */
  const commentMails = (to: string) =>
    db()
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.to, to), like(emailOutbox.subject, 'Nuevo comentario%')));

  it('the buyer comments on its order; both order views show the thread and both lists count it', async () => {
    const w = await world();
    const o = await w.order();
    const texto = '  ¿Pueden surtirlo antes del viernes?\r\n<b>Gracias</b>  ';
    const res = await buyerComment(w, o.id, texto);
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body.msg).toBe(MSG.comentarioAgregado);
    const expected = {
      autor: { nombre: 'Beto Comprador', rol: 1 },
      texto: '¿Pueden surtirlo antes del viernes?\n<b>Gracias</b>',
    };
    expect(body.comentario).toMatchObject(expected);
    expect(body.comentarios).toHaveLength(1);
    // Stored as plain text, exactly as typed (trimmed, \r\n as \n).
    expect((await commentRows(o.id))[0]).toMatchObject({ authorId: w.buyer.id, texto: expected.texto });

    const buyerView = (await w.api.buyer.get(`/api/historial/${o.id}`)).json();
    expect(buyerView.pedido.comentarios).toEqual([
      { id: body.comentario.id, fecha: expect.any(String), ...expected },
    ]);
    const reply = await approverComment(w.api.r2, o.id, 'Sí, sale el jueves.');
    expect(reply.statusCode, reply.body).toBe(201);
    expect(reply.json().comentarios.map((c: { texto: string }) => c.texto)).toEqual([
      expected.texto,
      'Sí, sale el jueves.',
    ]);
    const review = (await w.api.r2.get(`/api/pedidos/${o.id}`)).json();
    expect(review.pedido.comentarios).toHaveLength(2);
    expect(review.pedido.comentarios[1]).toMatchObject({
      autor: { nombre: 'Ana Autorizadora', rol: 2 },
      texto: 'Sí, sale el jueves.',
    });
    // Oldest first in both views.
    expect((await w.api.buyer.get(`/api/historial/${o.id}`)).json().pedido.comentarios[0].texto).toBe(
      expected.texto,
    );

    const history = (await w.api.buyer.get('/api/historial')).json();
    expect(history.pedidos.find((p: { id: number }) => p.id === o.id).comentarios).toBe(2);
    const list = (await w.api.r2.get('/api/pedidos?status=todos')).json();
    expect(list.pedidos.find((p: { id: number }) => p.id === o.id).comentarios).toBe(2);
    const other = await w.order();
    expect(
      (await w.api.r2.get('/api/pedidos?status=todos'))
        .json()
        .pedidos.find((p: { id: number }) => p.id === other.id).comentarios,
    ).toBe(0);

    const [log] = await db()
      .select()
      .from(systemLogs)
      .where(and(eq(systemLogs.userId, w.buyer.id), eq(systemLogs.eventType, 'pedido_comentado')));
    expect(log?.metadata).toMatchObject({ id_pedido: o.id, id_comentario: body.comentario.id });
  });

  it('1 and 1,000 characters are accepted; empty, blank, 1,001, control characters and no text are 400 in Spanish', async () => {
    const w = await world();
    const o = await w.order();
    for (const send of [
      (texto: unknown) => buyerComment(w, o.id, texto),
      (texto: unknown) => approverComment(w.api.r2, o.id, texto),
    ]) {
      expect((await send('a')).statusCode).toBe(201);
      expect((await send('x'.repeat(1000))).statusCode).toBe(201);
      for (const [texto, msg] of [
        ['', MSG.comentarioVacio],
        ['   \n ', MSG.comentarioVacio],
        ['x'.repeat(1001), MSG.comentarioLargo],
        ['hola\u0007', MSG.comentarioInvalido],
        [undefined, MSG.comentarioVacio],
        [42, MSG.comentarioVacio],
      ] as const) {
        const res = await send(texto);
        expect(res.statusCode, String(texto)).toBe(400);
        expect(res.json().errors?.texto ?? res.json().msg).toBe(msg);
      }
    }
    expect(await commentRows(o.id)).toHaveLength(4);
  });

  it('another buyer’s or another client’s order answers like a missing one; roles are kept apart', async () => {
    const w = await world();
    const o = await w.order();
    const missingBuyer = await w.api.buyer2.post('/api/historial/2147483647/comentarios', { texto: 'hola' });
    expect(missingBuyer.statusCode).toBe(404);
    const foreignBuyer = await w.api.buyer2.post(`/api/historial/${o.id}/comentarios`, { texto: 'hola' });
    expect(foreignBuyer.statusCode).toBe(404);
    expect(foreignBuyer.json()).toEqual(missingBuyer.json());
    expect(foreignBuyer.json().msg).toBe(MSG.pedidoNoEncontrado);

    const elsewhere = await world();
    const foreignApprover = await approverComment(elsewhere.api.r2, o.id, 'hola');
    const missingApprover = await approverComment(elsewhere.api.r2, 2147483647, 'hola');
    expect(foreignApprover.statusCode).toBe(404);
    expect(foreignApprover.json()).toEqual(missingApprover.json());
    // Rol 1 on the approvers' route and approvers on the buyer's route: 403.
    expect((await approverComment(w.api.buyer, o.id, 'hola')).statusCode).toBe(403);
    expect((await w.api.r2.post(`/api/historial/${o.id}/comentarios`, { texto: 'hola' })).statusCode).toBe(
      403,
    );
    // Without the XSRF token: 419.
    const noXsrf = await w.api.buyer.request(
      'POST',
      `/api/historial/${o.id}/comentarios`,
      { texto: 'hola' },
      { xsrf: null },
    );
    expect(noXsrf.statusCode).toBe(419);
    expect(await commentRows(o.id)).toHaveLength(0);
  });

  it('comments are allowed on every status, cancelled and approved included, from both sides', async () => {
    const w = await world();
    for (const status of ['pendiente', 'espera', 'aprobado', 'cancelado'] as const) {
      const o = await w.order(status);
      expect((await buyerComment(w, o.id, `Comprador en ${status}`)).statusCode, status).toBe(201);
      expect((await approverComment(w.api.r3, o.id, `Super en ${status}`)).statusCode, status).toBe(201);
      expect(await commentRows(o.id)).toHaveLength(2);
      const [row] = await db().select({ s: orders.status }).from(orders).where(eq(orders.id, o.id));
      expect(row!.s).toBe(status);
    }
  });

  it('e-mails the other side with a link to the order, once per order and recipient in 10 minutes', async () => {
    const w = await world();
    const o = await w.order('pendiente');
    const r2 = `${w.tag}-autorizador@example.test`;
    const r3 = `${w.tag}-super@example.test`;
    const comprador = `${w.tag}-comprador@example.test`;
    const secret = 'Texto privado del comentario';

    expect((await buyerComment(w, o.id, secret)).statusCode).toBe(201);
    await t.app.mailer.flush();
    const mail = await smtp.waitFor((m) => m.to.includes(r2) && m.subject.startsWith('Nuevo comentario'));
    const numero = String(o.id).padStart(5, '0');
    expect(mail.subject).toBe(`Nuevo comentario en el pedido #${numero}`);
    expect(mail.text).toContain('Beto Comprador comentó el pedido');
    expect(mail.text).toContain(`http://portal.test/autorizador/orden/${o.id}`);
    // No secrets: no password, no session or XSRF token; the text itself stays on the order page.
    for (const s of [TEST_PASSWORD, w.api.buyer.xsrf ?? 'sin-token', secret]) {
      expect(mail.text).not.toContain(s);
      expect(mail.html).not.toContain(s);
    }
    // pendiente waits for rol 2: rol 3 and the other buyer hear nothing.
    expect(await commentMails(r3)).toHaveLength(0);
    expect(await commentMails(`${w.tag}-otro@example.test`)).toHaveLength(0);

    // A second and third comment within 10 minutes: still one e-mail.
    expect((await buyerComment(w, o.id, 'Otra cosa')).statusCode).toBe(201);
    expect((await buyerComment(w, o.id, 'Y otra')).statusCode).toBe(201);
    expect(await commentMails(r2)).toHaveLength(1);
    // The window is stored: 11 minutes later (moved back in the database) the next comment e-mails again.
    await db()
      .update(orderCommentNotices)
      .set({ sentAt: sql`now() - interval '11 minutes'` })
      .where(eq(orderCommentNotices.orderId, o.id));
    expect((await buyerComment(w, o.id, 'Ya pasó un rato')).statusCode).toBe(201);
    expect(await commentMails(r2)).toHaveLength(2);
    // At 9 minutes it still holds.
    await db()
      .update(orderCommentNotices)
      .set({ sentAt: sql`now() - interval '9 minutes'` })
      .where(eq(orderCommentNotices.orderId, o.id));
    expect((await buyerComment(w, o.id, 'Casi diez')).statusCode).toBe(201);
    expect(await commentMails(r2)).toHaveLength(2);

    // The approver's reply goes to the buyer, with the buyer's link; its window is the buyer's own.
    expect((await approverComment(w.api.r2, o.id, 'Respuesta')).statusCode).toBe(201);
    expect((await approverComment(w.api.r2, o.id, 'Otra respuesta')).statusCode).toBe(201);
    await t.app.mailer.flush();
    const toBuyer = await smtp.waitFor(
      (m) => m.to.includes(comprador) && m.subject.startsWith('Nuevo comentario'),
    );
    expect(toBuyer.text).toContain(`http://portal.test/usuario/historial/${o.id}`);
    expect(toBuyer.text).toContain('Ana Autorizadora comentó el pedido');
    expect(await commentMails(comprador)).toHaveLength(1);
    // Another order has its own window.
    const o2 = await w.order('pendiente');
    expect((await buyerComment(w, o2.id, 'Sobre el otro pedido')).statusCode).toBe(201);
    expect(await commentMails(r2)).toHaveLength(3);
  });

  it('comments at once: every one is saved, the recipient is e-mailed once', async () => {
    const w = await world();
    const o = await w.order('pendiente');
    const results = await Promise.all(
      ['Uno', 'Dos', 'Tres', 'Cuatro'].map((texto) => buyerComment(w, o.id, texto)),
    );
    expect(results.map((r) => r.statusCode)).toEqual([201, 201, 201, 201]);
    expect(await commentRows(o.id)).toHaveLength(4);
    expect(await commentMails(`${w.tag}-autorizador@example.test`)).toHaveLength(1);
    // The order's stored count (decision 0085) took every one of them, and follows a deleted comment.
    const stored = async () =>
      (await db().select({ n: orders.comentarios }).from(orders).where(eq(orders.id, o.id)))[0]?.n;
    expect(await stored()).toBe(4);
    const [first] = await commentRows(o.id);
    await db().delete(orderComments).where(eq(orderComments.id, first!.id));
    expect(await stored()).toBe(3);
    // Every order of the file's database equals a recount.
    expect(await commentCountDrift(db())).toEqual([]);
  });

  /** `n` comments written directly on an order, alternating the buyer and the approver, an hour and more ago. */
  async function oldComments(w: World, orderId: number, n: number) {
    const longAgo = new Date(t.app.clock.ms() - 2 * 3_600_000);
    await db()
      .insert(orderComments)
      .values(
        Array.from({ length: n }, (_, i) => ({
          orderId,
          authorId: i % 2 === 0 ? w.buyer.id : w.auth2.id,
          texto: `Comentario ${i + 1}`,
          createdAt: new Date(longAgo.getTime() + i * 1000),
        })),
      );
  }

  it('an order answers with its latest 50 comments and their count; older ones come 50 at a time (issue 38, finding 6)', async () => {
    const w = await world();
    const o = await w.order('pendiente');
    await oldComments(w, o.id, 120);
    for (const [api, url] of [
      [w.api.buyer, `/api/historial/${o.id}`],
      [w.api.r2, `/api/pedidos/${o.id}`],
    ] as const) {
      const pedido = (await api.get(url)).json().pedido;
      expect(pedido.comentarios_total).toBe(120);
      expect(pedido.comentarios.map((c: { texto: string }) => c.texto)).toEqual(
        Array.from({ length: 50 }, (_, i) => `Comentario ${71 + i}`),
      );
      let before = pedido.comentarios[0].id as number;
      const older: string[] = [];
      for (;;) {
        const page = await api.get(`${url}/comentarios?antes=${before}`);
        expect(page.statusCode, page.body).toBe(200);
        const { comentarios, mas } = page.json();
        older.unshift(...comentarios.map((c: { texto: string }) => c.texto));
        if (!mas) break;
        before = comentarios[0].id;
      }
      expect(older).toEqual(Array.from({ length: 70 }, (_, i) => `Comentario ${i + 1}`));
    }
    // Another buyer, another client's approver: like a missing order; a bad reference is a Spanish 400.
    expect((await w.api.buyer2.get(`/api/historial/${o.id}/comentarios?antes=9`)).statusCode).toBe(404);
    const other = await world();
    expect((await other.api.r2.get(`/api/pedidos/${o.id}/comentarios?antes=9`)).statusCode).toBe(404);
    for (const antes of ['', 'x', '0', '-3', '9999999999'])
      expect(
        (await w.api.buyer.get(`/api/historial/${o.id}/comentarios?antes=${antes}`)).json().msg,
        antes,
      ).toBe(MSG.comentarioAnteriorInvalido);
  });

  it('an order takes 200 comments: the last two at once, one is saved and the other answers 409', async () => {
    const w = await world();
    const o = await w.order('pendiente');
    await oldComments(w, o.id, 198);
    expect((await buyerComment(w, o.id, 'El 199')).statusCode).toBe(201);
    const both = await Promise.all([
      buyerComment(w, o.id, 'El 200'),
      approverComment(w.api.r2, o.id, 'El 201'),
    ]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    const refused = both.find((r) => r.statusCode === 409)!;
    expect(refused.json()).toEqual({ code: 'COMMENTS_FULL', msg: MSG.comentariosLlenos });
    expect(await commentRows(o.id)).toHaveLength(200);
    const saved = both.find((r) => r.statusCode === 201)!.json();
    expect(saved.comentarios_total).toBe(200);
    expect(saved.comentarios).toHaveLength(50);
  });

  it('a person writes 30 comments an hour, on any orders: the 31st is a 429 with Retry-After, even sent at once', async () => {
    const w = await world();
    const [a, b] = [await w.order('pendiente'), await w.order('espera')];
    for (let i = 0; i < 25; i++)
      expect((await buyerComment(w, i % 2 ? a.id : b.id, `Nota ${i}`)).statusCode).toBe(201);
    const burst = await Promise.all(
      Array.from({ length: 8 }, (_, i) => buyerComment(w, a.id, `Ráfaga ${i}`)),
    );
    expect(burst.filter((r) => r.statusCode === 201)).toHaveLength(5);
    const limited = burst.filter((r) => r.statusCode === 429);
    expect(limited).toHaveLength(3);
    for (const r of limited) {
      expect(r.json()).toEqual({ code: 'COMMENTS_RATE', msg: MSG.comentariosPorHora });
      const retry = Number(r.headers['retry-after']);
      expect(retry).toBeGreaterThan(3000);
      expect(retry).toBeLessThanOrEqual(3600);
    }
    // The approver of the same orders is another person, with an hour of its own.
    expect((await approverComment(w.api.r2, a.id, 'Visto')).statusCode).toBe(201);
  });

  it('the level that holds the order hears the buyer: rol 3 on espera; the approver who acted on a final status', async () => {
    const w = await world();
    const r2 = `${w.tag}-autorizador@example.test`;
    const r3 = `${w.tag}-super@example.test`;
    const waiting = await w.order('espera');
    expect((await buyerComment(w, waiting.id, 'Hola')).statusCode).toBe(201);
    expect(await commentMails(r3)).toHaveLength(1);
    expect(await commentMails(r2)).toHaveLength(0);

    // Cancelled by rol 2: the buyer's question goes to that approver only.
    const cancelled = await w.order('pendiente');
    expect(
      (await w.api.r2.post(`/api/cancelar/compra/${cancelled.id}`, { motivo: 'Duplicado' })).statusCode,
    ).toBe(200);
    expect((await buyerComment(w, cancelled.id, '¿Por qué?')).statusCode).toBe(201);
    expect(await commentMails(r2)).toHaveLength(1);
    expect(await commentMails(r3)).toHaveLength(1);
    // Withdrawn by the buyer: nobody to tell.
    const withdrawn = await w.order('pendiente');
    expect((await w.api.buyer.post(`/api/historial/${withdrawn.id}/retirar`)).statusCode).toBe(200);
    expect((await buyerComment(w, withdrawn.id, 'Me equivoqué')).statusCode).toBe(201);
    expect(await commentMails(r2)).toHaveLength(1);
    expect(await commentMails(r3)).toHaveLength(1);
  });

  it('approve with a comment saves it in the same transaction and names it in the event and the log', async () => {
    const w = await world();
    const o = await w.order('pendiente');
    const res = await w.api.r2.post('/api/update/compra', {
      id: o.id,
      orden: [{ id: w.product.id, cantidad: 1 }],
      comentario: '  Aprobado; llega el lunes.  ',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().nuevo_estatus).toBe('espera');
    const [comment] = await commentRows(o.id);
    expect(comment).toMatchObject({ authorId: w.auth2.id, texto: 'Aprobado; llega el lunes.' });
    expect(res.json().pedido.comentarios).toEqual([
      expect.objectContaining({ id: comment!.id, texto: 'Aprobado; llega el lunes.' }),
    ]);
    const [event] = await db()
      .select()
      .from(orderEvents)
      .where(and(eq(orderEvents.orderId, o.id), eq(orderEvents.tipo, 'aprobado')));
    expect(event!.changes).toEqual({ id_comentario: comment!.id });
    const [log] = await db()
      .select()
      .from(systemLogs)
      .where(and(eq(systemLogs.userId, w.auth2.id), eq(systemLogs.eventType, 'pedido_aprobado')));
    expect(log!.metadata).toMatchObject({ id_pedido: o.id, id_comentario: comment!.id });
    // Still waiting (espera): the buyer hears of the comment.
    expect(await commentMails(`${w.tag}-comprador@example.test`)).toHaveLength(1);

    // Without a comment nothing is added; an empty or too long one is 400 with nothing changed.
    const plain = await w.order('pendiente');
    expect(
      (
        await w.api.r2.post('/api/update/compra', {
          id: plain.id,
          orden: [{ id: w.product.id, cantidad: 1 }],
        })
      ).statusCode,
    ).toBe(200);
    expect(await commentRows(plain.id)).toHaveLength(0);
    for (const comentario of ['', 'x'.repeat(1001)]) {
      const bad = await w.order('pendiente');
      const r = await w.api.r2.post('/api/update/compra', {
        id: bad.id,
        orden: [{ id: w.product.id, cantidad: 1 }],
        comentario,
      });
      expect(r.statusCode).toBe(400);
      expect(await commentRows(bad.id)).toHaveLength(0);
      const [row] = await db().select({ s: orders.status }).from(orders).where(eq(orders.id, bad.id));
      expect(row!.s).toBe('pendiente');
    }
  });

  it('a refused approval saves no comment (409 already processed, 422 over budget)', async () => {
    const w = await world({ presupuesto: 15000 });
    const done = await w.order('aprobado');
    const conflict = await w.api.r2.post('/api/update/compra', {
      id: done.id,
      orden: [{ id: w.product.id, cantidad: 1 }],
      comentario: 'No debería guardarse',
    });
    expect(conflict.statusCode).toBe(409);
    expect(await commentRows(done.id)).toHaveLength(0);

    // 2 × 100.00 against a budget of 150.00.
    const over = await w.order('pendiente', 2);
    const refused = await w.api.r2.post('/api/update/compra', {
      id: over.id,
      orden: [{ id: w.product.id, cantidad: 2 }],
      comentario: 'Tampoco esta',
    });
    expect(refused.statusCode, refused.body).toBe(422);
    expect(await commentRows(over.id)).toHaveLength(0);
    expect(await commentMails(`${w.tag}-comprador@example.test`)).toHaveLength(0);

    // Approved at the last level with a comment: the buyer gets the approval e-mail, not a second one.
    const v = await world();
    const last = await v.order('espera');
    const ok = await v.api.r3.post('/api/update/compra', {
      id: last.id,
      orden: [{ id: v.product.id, cantidad: 1 }],
      comentario: 'Listo',
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await commentRows(last.id)).toHaveLength(1);
    expect(await commentMails(`${v.tag}-comprador@example.test`)).toHaveLength(0);
  });
});
