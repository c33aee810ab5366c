import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ImportRowError } from '@portal/shared/schemas/imports';
import { count, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { WEB_DIST } from '../app.ts';
import { importJobs, storedFiles, users } from '../db/schema/index.ts';
import { MSG } from '../messages.ts';
import { bigPng, type FilePart, multipart } from '../test/admin-fixtures.ts';
import { makeOrder } from '../test/factories.ts';
import { fixture } from '../test/fixture-files.ts';
import { DB_KINDS } from '../test/harness.ts';
import { waitForImport } from '../test/uploads.ts';
import { type Actor, describeRefusal, useWorld, type World } from './world.ts';

const REPO_ROOT = path.resolve(path.dirname(WEB_DIST), '../..');
/** Text only files outside the stored-file table hold: none of it may ever come back. */
const OUTSIDE_MARKERS = [
  'root:x:0:0',
  '"workspaces"',
  JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')).name as string,
  '[extensions]',
];

/** RFC 4180 cells of a CSV body (BOM, quotes, CRLF). */
function csvCells(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const body = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!;
    if (quoted) {
      if (ch === '"' && body[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\r' && body[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += ch;
  }
  if (cell || row.length) rows.push([...row, cell]);
  return rows;
}

/** What a spreadsheet runs: = + - @ after any whitespace or control characters, or a leading tab or CR. */
const FORMULA_START = /^[\s\p{Cc}]*[=+\-@]|^[\t\r]/u;
const FORMULAS = [
  '=1+1',
  '+1+1',
  '-1+1',
  '@SUM(A1)',
  '\t=1+1',
  '\r=1+1',
  '=HYPERLINK("http://x","y")',
  // Issue 38, finding 5: after leading whitespace or a control character.
  ' =1+1',
  '\v=1+1',
  '\u00a0@SUM(A1)',
];

/**
 * Text after a separator inside a cell: a spreadsheet that splits on `,` `;` `|` or a control character (a
 * tab, a vertical tab: issue 38, finding 5) would start a cell there.
 */
const AFTER_SEPARATOR = [
  'x;=HYPERLINK("http://evil")',
  'x,=1+1',
  'a; @SUM(1)',
  'b,-1+1;+2',
  'x\t=1+1',
  'x|=HYPERLINK("http://evil")',
  'x\v@SUM(1)',
  'y| \t+2',
];
const SEPARATORS = [';', ',', '|', '\t', '\v'];
const NUMBER = /^-?\d+(\.\d+)?$/;

/** Cells that a spreadsheet would run: any text cell starting with = + - @ tab or CR (numbers excepted). */
function runnableCells(text: string): string[] {
  return csvCells(text)
    .flat()
    .filter((c) => FORMULA_START.test(c) && !NUMBER.test(c));
}

/**
 * What a spreadsheet splitting on any of SEPARATORS would run: each raw line cut at every separator with no
 * regard for quotes, each piece without its leading quotes, whitespace and control characters.
 */
function runnablePieces(text: string): string[] {
  const pieces: string[] = [];
  for (const line of text.replace(/^\uFEFF/, '').split('\r\n'))
    for (const sep of SEPARATORS)
      for (const piece of line.split(sep).slice(1)) {
        const start = piece.replace(/^["\s\p{Cc}]+/u, '');
        if (FORMULA_START.test(start) && !NUMBER.test(start.replace(/"$/, ''))) pieces.push(start);
      }
  return pieces;
}

describe.each(DB_KINDS)('files: uploads, traversal and CSV (%s)', (kind) => {
  const w = useWorld(kind);
  const storedCount = async () => (await w.db.select({ n: count() }).from(storedFiles))[0]!.n;

  function upload(
    w: World,
    url: string,
    fields: Record<string, string | number>,
    files: Record<string, FilePart>,
    actor: Actor = 'adm',
  ) {
    const { body, headers } = multipart(fields, files);
    return w.api[actor].post(url, body, { headers });
  }

  const productFields = (w: World, clave: string) => ({
    id_cliente: w.a.client.id,
    id_categoria: w.a.cat.id,
    clave_interna: clave,
    nombre: 'Producto con imagen',
    precio: '10',
  });
  const clientFields = { nombre: 'Cliente archivos', presupuesto_default: 1000, limite_de_compras: 2 };

  /** Every upload field of the API, what it accepts, and how to call it. */
  const targets = (w: World) =>
    [
      {
        name: 'producto imagen',
        url: '/api/productos',
        fields: productFields(w, 'ARCH-1'),
        field: 'imagen',
        type: 'image',
      },
      {
        name: 'producto actualizar imagen',
        url: `/api/productos/actualizar/${w.a.prod2.id}`,
        fields: productFields(w, w.a.prod2.claveInterna),
        field: 'imagen',
        type: 'image',
      },
      { name: 'cliente imagen', url: '/api/clientes', fields: clientFields, field: 'imagen', type: 'image' },
      {
        name: 'cliente calendario',
        url: '/api/clientes',
        fields: clientFields,
        field: 'calendario',
        type: 'pdf',
      },
      { name: 'cliente manual', url: '/api/clientes', fields: clientFields, field: 'manual', type: 'pdf' },
      {
        name: 'cliente actualizar calendario',
        url: `/api/clientes/update/${w.c.client.id}`,
        fields: clientFields,
        field: 'calendario',
        type: 'pdf',
      },
      {
        name: 'carga productos',
        url: '/api/load/productos',
        fields: { id_cliente: w.a.client.id },
        field: 'file',
        type: 'csv',
      },
      {
        name: 'carga usuarios',
        url: '/api/load/usuarios',
        fields: { id_cliente: w.a.client.id },
        field: 'file',
        type: 'csv',
      },
    ] as const;

  it('uploads are judged by their content, never by their name or declared type', async () => {
    const png = fixture('red-40x30.png');
    const pdf = fixture('calendario.pdf');
    const disguised: Record<'image' | 'pdf' | 'csv', FilePart[]> = {
      image: [
        {
          filename: 'foto.png',
          contentType: 'image/png',
          data: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'),
        },
        {
          filename: 'foto.png',
          contentType: 'image/png',
          data: Buffer.from('<html><script>alert(1)</script></html>'),
        },
        { filename: 'foto.jpg', contentType: 'image/jpeg', data: pdf },
        // PNG magic bytes, then garbage: not an image either.
        {
          filename: 'foto.png',
          contentType: 'image/png',
          data: Buffer.concat([png.subarray(0, 16), Buffer.alloc(200, 7)]),
        },
      ],
      pdf: [
        { filename: 'calendario.pdf', contentType: 'application/pdf', data: png },
        {
          filename: 'calendario.pdf',
          contentType: 'application/pdf',
          data: Buffer.from('<html>no soy pdf</html>'),
        },
      ],
      csv: [
        { filename: 'datos.csv', contentType: 'text/csv', data: png },
        { filename: 'datos.csv', contentType: 'text/csv', data: Buffer.from('a,b\r\n1,\u0000\r\n') },
        {
          filename: 'datos.csv',
          contentType: 'text/csv',
          data: Buffer.from([0x63, 0x6c, 0x61, 0xff, 0xfe, 0x0a]),
        },
      ],
    };
    const before = await storedCount();
    const failures: string[] = [];
    for (const target of targets(w)) {
      for (const file of disguised[target.type]) {
        const res = await upload(w, target.url, target.fields, { [target.field]: file });
        const problem = describeRefusal(res);
        if (problem)
          failures.push(
            `${target.name} (${file.filename}, ${file.data.subarray(0, 8).toString('hex')}): ${problem} ${res.body.slice(0, 100)}`,
          );
      }
    }
    expect(failures).toEqual([]);
    expect(await storedCount()).toBe(before);
    // The real thing is accepted, so the refusals above are about content.
    const ok = await upload(w, '/api/productos', productFields(w, 'ARCH-OK'), {
      imagen: { filename: 'sin-extension', contentType: 'application/octet-stream', data: png },
    });
    expect(ok.statusCode, ok.body).toBe(201);
    const imageUrl: string = ok.json().articulo.imagen;
    const served = await w.api.anon.get(imageUrl);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
  });

  it('uploads are limited in size: images 5 MB, PDFs 20 MB, anything over the parser limit is a 413', async () => {
    const before = await storedCount();
    const big = await bigPng(5.2);
    expect(big.length).toBeGreaterThan(5 * 1024 * 1024);
    for (const target of targets(w).filter((t) => t.type === 'image')) {
      const res = await upload(w, target.url, target.fields, {
        [target.field]: { filename: 'grande.png', data: big },
      });
      expect(res.statusCode, target.name).toBeGreaterThanOrEqual(400);
      expect(describeRefusal(res), target.name).toBeNull();
    }
    const hugePdf = Buffer.concat([fixture('calendario.pdf'), Buffer.alloc(21 * 1024 * 1024, 0x20)]);
    const pdfRes = await upload(w, '/api/clientes', clientFields, {
      calendario: { filename: 'c.pdf', data: hugePdf },
    });
    expect(pdfRes.statusCode).toBeGreaterThanOrEqual(400);
    expect(describeRefusal(pdfRes)).toBeNull();
    const overParser = Buffer.alloc(26 * 1024 * 1024, 0x61);
    const csvRes = await upload(
      w,
      '/api/load/productos',
      { id_cliente: w.a.client.id },
      { file: { filename: 'x.csv', data: overParser } },
    );
    expect(csvRes.statusCode).toBe(413);
    expect(describeRefusal(csvRes)).toBeNull();
    expect(await storedCount()).toBe(before);
    // JSON bodies have their own 1 MB ceiling.
    const json = await w.api.adm.post('/api/categorias', {
      nombre: 'x'.repeat(1_100_000),
      id_cliente: w.a.client.id,
    });
    expect(json.statusCode).toBe(413);
  });

  it('path traversal on /api/img/ and /api/resource/ never reaches a file outside: always a 4xx', async () => {
    const id = w.files.logo;
    const probes = [
      '/api/img/..%2F..%2F..%2F..%2Fetc%2Fpasswd',
      '/api/img/%2e%2e%2f%2e%2e%2fpackage.json',
      '/api/img/..%252F..%252Fpackage.json',
      '/api/img/%2Fetc%2Fpasswd',
      '/api/img/%2F%2Fetc%2Fpasswd',
      '/api/img/..%5C..%5Cpackage.json',
      '/api/img/C:%5Cwindows%5Cwin.ini',
      '/api/img/....%2F%2F....%2F%2Fetc%2Fpasswd',
      `/api/img/${id}%00.png`,
      `/api/img/${id}%2F..%2F..%2Fpackage.json`,
      '/api/img/%00',
      `/api/img/${id.replace('.png', '')}`,
      `/api/img/${w.files.calendario}`,
      '/api/img/..',
      '/api/resource/..%2F..%2Fpackage.json/calendario',
      `/api/resource/${w.a.client.id}/..%2F..%2F..%2Fpackage.json`,
      `/api/resource/${w.a.client.id}/calendario%00.pdf`,
      `/api/resource/${w.a.client.id}/%2Fetc%2Fpasswd`,
      '/api/resource/%2Fetc%2Fpasswd/calendario',
      `/api/resource/${w.a.client.id}/../../package.json`,
      `/api/resource/${w.a.client.id}/calendario/..%2F..%2F..%2Fpackage.json`,
    ];
    const failures: string[] = [];
    for (const url of probes) {
      for (const actor of ['anon', 'u1', 'adm'] as const) {
        const res: LightMyRequestResponse = await w.api[actor].get(url);
        if (res.statusCode < 400 || res.statusCode >= 500)
          failures.push(`${url} como ${actor}: ${res.statusCode}`);
        for (const marker of OUTSIDE_MARKERS)
          if (res.body.includes(marker)) failures.push(`${url} como ${actor}: devolvió "${marker}"`);
      }
    }
    expect(failures).toEqual([]);
    // Outside /api the single-page app answers: never with a file from outside the built web app.
    for (const url of [
      '/..%2Fpackage.json',
      '/assets/..%2F..%2F..%2Fpackage.json',
      '/%2e%2e/%2e%2e/package.json',
      '/..%5C..%5Cpackage.json',
    ]) {
      const res = await w.t.app.inject({ method: 'GET', url });
      for (const marker of OUTSIDE_MARKERS) expect(res.body, url).not.toContain(marker);
    }
  });

  it('CSV reports neutralise cells that start with = + - @ (after any whitespace) tab or CR, and the same after a , ; | or control character inside a cell (issue 38, finding 5)', async () => {
    await w.db
      .update(users)
      .set({ nombre: '=2+3', direccionEntrega: '@SUM(1)' })
      .where(eq(users.id, w.a.spare.id));
    await makeOrder(w.db, {
      idUser: w.a.spare.id,
      idCliente: w.a.client.id,
      status: 'aprobado',
      lines: FORMULAS.map((nombre, i) => ({
        productId: w.a.prod.id,
        nombre,
        categoria: FORMULAS[(i + 1) % FORMULAS.length],
        precio: 1000,
        cantidad: 1,
        idCategoria: w.a.cat.id,
      })),
    });
    await makeOrder(w.db, {
      idUser: w.a.spare.id,
      idCliente: w.a.client.id,
      status: 'aprobado',
      lines: AFTER_SEPARATOR.map((nombre, i) => ({
        productId: w.a.prod.id,
        nombre,
        categoria: AFTER_SEPARATOR[(i + 1) % AFTER_SEPARATOR.length],
        precio: 1000,
        cantidad: 1,
        idCategoria: w.a.cat.id,
      })),
    });
    const today = new Date().toISOString().slice(0, 10);
    for (const url of ['/api/reporte/autorizador', '/api/reporte/autorizador/productos/detalle']) {
      for (const tipo of ['general', 'detalle']) {
        const res = await w.api.u2.post(url, { tipo, fecha_inicio: '2020-01-01', fecha_fin: today });
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toContain('text/csv');
        expect(runnableCells(res.body), `${url} ${tipo}`).toEqual([]);
        expect(runnablePieces(res.body), `${url} ${tipo}, partido en , ; | y caracteres de control`).toEqual(
          [],
        );
        // The dangerous texts are there, made inert with a leading apostrophe.
        const cells = csvCells(res.body).flat();
        expect(cells).toContain("'=2+3");
        if (url.endsWith('detalle') || tipo === 'detalle')
          for (const f of FORMULAS)
            expect(
              cells.some((c) => c.startsWith("'") && c.replaceAll("'", '') === f),
              JSON.stringify(f),
            ).toBe(true);
        if (url.endsWith('detalle') || tipo === 'detalle') {
          expect(cells).toContain(`x;'=HYPERLINK("http://evil")`);
          expect(cells).toContain("x,'=1+1");
        }
      }
    }
  });

  it('the import error file neutralises the same cells', async () => {
    const [header, example] = csvCells(w.templates.productos);
    const precio = header!.indexOf('Precio');
    const clave = header!.indexOf('Clave interna');
    expect(precio).toBeGreaterThanOrEqual(0);
    const quote = (v: string) => `"${v.replace(/"/g, '""')}"`;
    // A file with a vertical tab is not text (the upload refuses it): the rest go in.
    const typed = FORMULAS.filter((f) => !f.includes('\v'));
    const rows = typed.map((f, i) => {
      const cells = [...example!];
      cells[precio] = f;
      cells[clave] = `FX-${i}`;
      return cells.map(quote).join(',');
    });
    const file = `${header!.join(',')}\r\n${rows.join('\r\n')}\r\n`;
    const res = await upload(
      w,
      '/api/load/productos',
      { id_cliente: w.a.client.id },
      { file: { filename: 'formulas.csv', data: Buffer.from(file) } },
    );
    expect(res.statusCode, res.body).toBe(202);
    const job = await waitForImport(w.db, res.json().id_importacion);
    expect(job.errorRows).toBe(typed.length);
    const report = await w.api.adm.get(`/api/importaciones/${job.id}/errores.csv`);
    expect(report.statusCode).toBe(200);
    expect(runnableCells(report.body)).toEqual([]);
    expect(csvCells(report.body).flat()).toContain("'=1+1");
  });

  it('a user import with pathological e-mail cells ends at once and /healthz keeps answering meanwhile', async () => {
    // Cells that made the former e-mail pattern backtrack quadratically (about 7 s each at 80 KB).
    const slow = [`a@${'.'.repeat(80_000)}@`, `a@${'a.'.repeat(40_000)}@`, `b@${'.'.repeat(80_000)}@`];
    // The users' template: header, legend row, example.
    const [header, , example] = csvCells(w.templates.usuarios);
    const usuario = header!.indexOf('Usuario');
    const email = header!.indexOf('Correo');
    expect(email).toBeGreaterThanOrEqual(0);
    const quote = (v: string) => `"${v.replace(/"/g, '""')}"`;
    const rows = slow.map((cell, i) => {
      const cells = [...example!];
      cells[usuario] = `redos-${i}`;
      cells[email] = cell;
      return cells.map(quote).join(',');
    });
    const file = `${header!.join(',')}\r\n${rows.join('\r\n')}\r\n`;
    const res = await upload(
      w,
      '/api/load/usuarios',
      { id_cliente: w.a.client.id },
      { file: { filename: 'correos.csv', data: Buffer.from(file) } },
    );
    expect(res.statusCode, res.body).toBe(202);
    const id: number = res.json().id_importacion;

    // Ping /healthz every 10 ms until the import has ended; the longest wait between two answers is the
    // longest the event loop was unavailable to anyone else.
    const started = performance.now();
    let last = started;
    let longest = 0;
    let job: typeof importJobs.$inferSelect | undefined;
    for (;;) {
      const health = await w.t.app.inject({ method: 'GET', url: '/healthz' });
      expect(health.statusCode).toBe(200);
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
      [job] = await w.db.select().from(importJobs).where(eq(importJobs.id, id));
      if (job?.status === 'terminado' || job?.status === 'fallido') break;
      if (now - started > 60_000) throw new Error(`la importación ${id} no terminó: ${job?.status}`);
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(job).toMatchObject({ status: 'terminado', totalRows: slow.length, errorRows: slow.length });
    const errors = job!.errors as ImportRowError[];
    expect(errors.filter((e) => e.campo === 'user_id').map((e) => e.motivo)).toEqual(
      slow.map(() => MSG.impCorreo),
    );
    expect(longest, 'la espera más larga entre dos respuestas de /healthz (ms)').toBeLessThan(1000);

    // The user form's schema uses the same check: the API refuses the same text at once.
    for (const cell of slow) {
      const start = performance.now();
      const form = await w.api.adm.post('/api/usuarios', {
        usuario: 'redos-form',
        user_id: cell,
        nombre: 'Correo patológico',
        direccion_entrega: 'Oficina',
        rol: 1,
        active_week: 1,
        entrega_week: 1,
        id_cliente: w.a.client.id,
      });
      expect(form.statusCode).toBe(400);
      expect([MSG.textoDemasiadoLargo, MSG.correoInvalido]).toContain(form.json().errors.user_id);
      expect(performance.now() - start, 'POST /api/usuarios (ms)').toBeLessThan(1000);
    }
  });
});
