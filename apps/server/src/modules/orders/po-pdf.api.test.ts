import { formatCentavos } from '@portal/shared/domain/money';
import { businessDate } from '@portal/shared/domain/time';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, orderEvents } from '../../db/schema/index.ts';
import { storeFile } from '../../lib/files.ts';
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
import { pdfText } from '../../test/pdf-text.ts';
import { startSmtp } from '../../test/smtp.ts';

describe.each(DB_KINDS)('purchase-order PDF (%s)', (kind) => {
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

  async function world() {
    const client = await makeClient(db(), { nombre: uniq('Ferretería Núñez'), cantidadAutorizadores: 2 });
    const category = await makeCategory(db(), client.id, 'Papelería');
    const buyer = await makeUser(db(), {
      rol: 1,
      idCliente: client.id,
      nombre: 'José Peña',
      area: 'Compras y Logística',
      direccionEntrega: 'Av. Reforma 123, Cuauhtémoc',
      entregaWeek: 3,
    });
    const otherBuyer = await makeUser(db(), { rol: 1, idCliente: client.id });
    const r2 = await makeUser(db(), { rol: 2, idCliente: client.id, nombre: 'Ana Gómez' });
    const r3 = await makeUser(db(), { rol: 3, idCliente: client.id, nombre: 'Íñigo Sáenz' });
    const delegator = await makeUser(db(), { rol: 3, idCliente: client.id, nombre: 'Raúl Martínez' });
    const products = await Promise.all(
      [
        { nombre: 'Tóner negro', precio: 123456, impuesto: true },
        { nombre: 'Cuaderno pequeño', precio: 4550, impuesto: true },
        { nombre: 'Café molido', precio: 9999, impuesto: false },
      ].map((p) => makeProduct(db(), { idCliente: client.id, idCategoria: category.id, ...p })),
    );
    const approved = await makeOrder(db(), {
      idUser: buyer.id,
      idCliente: client.id,
      status: 'aprobado',
      lines: products.map((p, i) => ({
        productId: p.id,
        nombre: p.nombre,
        precio: p.precio,
        cantidad: i + 2,
        impuesto: p.impuesto,
        idCategoria: category.id,
      })),
    });
    await db()
      .insert(orderEvents)
      .values([
        {
          orderId: approved.id,
          actorId: r2.id,
          tipo: 'aprobado',
          fromStatus: 'pendiente',
          toStatus: 'espera',
        },
        {
          orderId: approved.id,
          actorId: r3.id,
          onBehalfOfId: delegator.id,
          tipo: 'aprobado',
          fromStatus: 'espera',
          toStatus: 'aprobado',
        },
      ]);
    const pending = await makeOrder(db(), {
      idUser: buyer.id,
      idCliente: client.id,
      status: 'pendiente',
      lines: [{ productId: products[0]!.id, precio: 100, cantidad: 1, idCategoria: category.id }],
    });
    const api = {
      buyer: await new ApiClient(t.app).loginOk(buyer.usuario, TEST_PASSWORD),
      otherBuyer: await new ApiClient(t.app).loginOk(otherBuyer.usuario, TEST_PASSWORD),
      r2: await new ApiClient(t.app).loginOk(r2.usuario, TEST_PASSWORD),
      r3: await new ApiClient(t.app).loginOk(r3.usuario, TEST_PASSWORD),
    };
    return { client, category, buyer, products, approved, pending, api };
  }

  it('the buyer and the approvers download the same order: lines, totals to the centavo, approvers, accents', async () => {
    const w = await world();
    const numero = String(w.approved.id).padStart(5, '0');
    for (const [api, url] of [
      [w.api.buyer, `/api/historial/${w.approved.id}/pdf`],
      [w.api.r2, `/api/pedidos/${w.approved.id}/pdf`],
      [w.api.r3, `/api/pedidos/${w.approved.id}/pdf`],
    ] as const) {
      const res = await api.get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['content-disposition']).toBe(`attachment; filename="OC-${numero}.pdf"`);
      expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
      const { text, pages } = await pdfText(res.rawPayload);
      expect(pages).toBe(1);
      expect(text).toContain(`Orden de compra ${numero}`);
      expect(text).toContain(w.client.nombre);
      expect(text).toContain('José Peña');
      expect(text).toContain('Compras y Logística');
      expect(text).toContain('Av. Reforma 123, Cuauhtémoc');
      expect(text).toContain('Semana 3');
      // The lines' table: its header, then each line's cells in the columns' order.
      expect(text).toContain('Clave interna Clave cliente Producto Unidad Cantidad Precio unitario Importe');
      w.products.forEach((p, i) => {
        expect(text).toContain(p.nombre);
        expect(text).toContain(`CL-${p.id}`);
        expect(text).toContain(formatCentavos(p.precio, false));
        expect(text).toContain(formatCentavos(p.precio * (i + 2), false));
        expect(text).toContain(
          `CL-${p.id} — ${p.nombre} Pieza ${i + 2} ${formatCentavos(p.precio, false)} ${formatCentavos(p.precio * (i + 2), false)}`,
        );
      });
      expect(text).toContain(`Subtotal: ${formatCentavos(w.approved.subtotal)}`);
      expect(text).toContain(`IVA: ${formatCentavos(w.approved.iva)}`);
      expect(text).toContain(`Total: ${formatCentavos(w.approved.total)}`);
      expect(text).toContain('Ana Gómez');
      expect(text).toContain('Íñigo Sáenz en nombre de Raúl Martínez');
      expect(text).toContain('Página 1 de 1');
    }
    // The snapshot: 2×1,234.56 + 3×45.50 taxable, 4×99.99 not; IVA once on the taxable part.
    expect(w.approved.subtotal).toBe(246912 + 13650 + 39996);
    expect(w.approved.iva).toBe(Math.floor(((246912 + 13650) * 16 + 50) / 100));
  });

  it("the client's PNG logo is drawn; without one, no image", async () => {
    const w = await world();
    const url = `/api/historial/${w.approved.id}/pdf`;
    const hasImage = (pdf: Buffer) => pdf.toString('latin1').includes('/Subtype /Image');
    expect(hasImage((await w.api.buyer.get(url)).rawPayload)).toBe(false);
    const png = await sharp({ create: { width: 120, height: 40, channels: 3, background: '#c2255c' } })
      .png()
      .toBuffer();
    const imagen = await storeFile(db(), {
      data: png,
      kind: 'imagen',
      idCliente: w.client.id,
      allowed: ['image'],
      maxBytes: 1024 * 1024,
    });
    await db().update(clients).set({ imagen }).where(eq(clients.id, w.client.id));
    const res = await w.api.buyer.get(url);
    expect(res.statusCode).toBe(200);
    expect(hasImage(res.rawPayload)).toBe(true);
    expect((await pdfText(res.rawPayload)).text).toContain(
      `Orden de compra ${String(w.approved.id).padStart(5, '0')}`,
    );
  });

  it('a 60-line order numbers its pages', async () => {
    const w = await world();
    const p = w.products[0]!;
    const big = await makeOrder(db(), {
      idUser: w.buyer.id,
      idCliente: w.client.id,
      status: 'aprobado',
      lines: Array.from({ length: 60 }, (_, i) => ({
        productId: p.id,
        nombre: `Artículo número ${i + 1}`,
        precio: 1000 + i,
        cantidad: 1,
        idCategoria: w.category.id,
      })),
    });
    const res = await w.api.buyer.get(`/api/historial/${big.id}/pdf`);
    expect(res.statusCode).toBe(200);
    const { text, pages } = await pdfText(res.rawPayload);
    expect(pages).toBe(2);
    expect(text).toContain('Página 1 de 2');
    expect(text).toContain('Página 2 de 2');
    expect(text).toContain('Artículo número 1 ');
    expect(text).toContain('Artículo número 60');
    expect(text).toContain(`Total: ${formatCentavos(big.total)}`);
  });

  it('refusals: not approved 409, other buyer or client 404 like a missing id, wrong roles 403', async () => {
    const w = await world();
    const other = await world();
    const notApproved = await w.api.buyer.get(`/api/historial/${w.pending.id}/pdf`);
    expect(notApproved.statusCode).toBe(409);
    expect(notApproved.json().msg).toBe(MSG.soloAprobadosOrdenCompra);
    const notApproved2 = await w.api.r2.get(`/api/pedidos/${w.pending.id}/pdf`);
    expect(notApproved2.statusCode).toBe(409);
    expect(notApproved2.json().msg).toBe(MSG.soloAprobadosOrdenCompra);

    const missing = await w.api.r2.get('/api/pedidos/987654321/pdf');
    expect(missing.statusCode).toBe(404);
    const otherClient = await w.api.r2.get(`/api/pedidos/${other.approved.id}/pdf`);
    expect(otherClient.statusCode).toBe(404);
    expect(otherClient.body).toBe(missing.body);

    const missingOwn = await w.api.buyer.get('/api/historial/987654321/pdf');
    const otherBuyer = await w.api.otherBuyer.get(`/api/historial/${w.approved.id}/pdf`);
    expect(otherBuyer.statusCode).toBe(404);
    expect(otherBuyer.body).toBe(missingOwn.body);

    const admin = await makeUser(db(), { rol: 4, idCliente: null });
    const adminApi = await new ApiClient(t.app).loginOk(admin.usuario, TEST_PASSWORD);
    expect((await adminApi.get(`/api/pedidos/${w.approved.id}/pdf`)).statusCode).toBe(403);
    expect((await w.api.buyer.get(`/api/pedidos/${w.approved.id}/pdf`)).statusCode).toBe(403);
    expect((await w.api.r2.get(`/api/historial/${w.approved.id}/pdf`)).statusCode).toBe(403);
  });

  it("the buyer's 'Pedido aprobado' e-mail carries the purchase order as OC-<número>.pdf", async () => {
    const client = await makeClient(db(), { cantidadAutorizadores: 1, limiteDeCompras: -1 });
    const category = await makeCategory(db(), client.id, 'Limpieza');
    const tag = uniq('oc');
    const buyer = await makeUser(db(), {
      rol: 1,
      idCliente: client.id,
      nombre: 'María Ibáñez',
      presupuestoDefault: 100000,
      limiteDeCompras: -1,
      email: `${tag}-comprador@example.test`,
    });
    const r2 = await makeUser(db(), { rol: 2, idCliente: client.id, nombre: 'Óscar Núñez' });
    const product = await makeProduct(db(), {
      idCliente: client.id,
      idCategoria: category.id,
      precio: 3333,
      impuesto: true,
      nombre: 'Jabón líquido',
    });
    await assign(db(), buyer.id, product.id, 10);
    const buyerApi = await new ApiClient(t.app).loginOk(buyer.usuario, TEST_PASSWORD);
    const r2Api = await new ApiClient(t.app).loginOk(r2.usuario, TEST_PASSWORD);
    expect(
      (await buyerApi.post('/api/carrito/nuevo_item', { item: { id: product.id, cantidad: 3 } })).statusCode,
    ).toBe(200);
    const bought = await buyerApi.post('/api/compra', {
      orden: [{ id: product.id, cantidad: 3 }],
      fecha: businessDate(new Date()),
    });
    expect(bought.statusCode, bought.body).toBe(201);
    const id = bought.json().pedido.id as number;
    const approved = await r2Api.post('/api/update/compra', {
      id,
      orden: [{ id: product.id, cantidad: 3 }],
      fecha: businessDate(new Date()),
      total: 1,
    });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().nuevo_estatus).toBe('aprobado');

    await t.app.mailer.flush();
    const numero = String(id).padStart(5, '0');
    const mail = await smtp.waitFor(
      (m) => m.to.includes(`${tag}-comprador@`) && m.subject.includes('aprobado'),
    );
    expect(mail.attachments).toHaveLength(1);
    const [pdf] = mail.attachments;
    expect(pdf).toMatchObject({ filename: `OC-${numero}.pdf`, contentType: 'application/pdf' });
    const { text } = await pdfText(pdf!.content);
    expect(text).toContain(`Orden de compra ${numero}`);
    expect(text).toContain('Jabón líquido');
    expect(text).toContain('María Ibáñez');
    expect(text).toContain('Óscar Núñez');
    // 3 × 33.33 = 99.99; IVA 16.00 (15.9984 rounded); total 115.99.
    expect(text).toContain(`Total: ${formatCentavos(11599)}`);
  });
});
