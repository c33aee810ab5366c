import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { expect } from 'vitest';
import { makeUser, TEST_PASSWORD } from './factories.ts';
import { ApiClient } from './harness.ts';

export interface FilePart {
  filename: string;
  data: Buffer;
  contentType?: string;
}

/** A multipart/form-data body built by hand (what a browser's FormData sends). */
export function multipart(
  fields: Record<string, string | number | boolean | undefined>,
  files: Record<string, FilePart> = {},
): { body: Buffer; headers: Record<string, string> } {
  const boundary = `----portal${randomBytes(12).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${String(value)}\r\n`,
      ),
    );
  }
  for (const [name, file] of Object.entries(files)) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${file.filename}"\r\n` +
          `Content-Type: ${file.contentType ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    body: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** Sends a multipart POST through an ApiClient (cookies and XSRF included). */
export function postForm(
  client: ApiClient,
  url: string,
  fields: Record<string, string | number | boolean | undefined>,
  files: Record<string, FilePart> = {},
) {
  const { body, headers } = multipart(fields, files);
  return client.post(url, body, { headers });
}

/** A real PNG of random noise just over `megabytes` (noise does not compress). */
export async function bigPng(megabytes: number): Promise<Buffer> {
  const width = 1024;
  const height = Math.ceil((megabytes * 1024 * 1024) / (width * 3)) + 8;
  return sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();
}

/** An administrator (rol 4, no client) signed in through the real endpoint. */
export async function signedInAdmin(app: FastifyInstance, db: Parameters<typeof makeUser>[0]) {
  const user = await makeUser(db, { rol: 4, idCliente: null, nombre: 'Ada Administradora' });
  const api = await new ApiClient(app).loginOk(user.usuario, TEST_PASSWORD);
  return { user, api };
}

/**
 * An integration token (decision 0059) made by a distributor's administrator through the real route; answers
 * its value, shown once. ERP, every client and 30 days unless told.
 */
export async function integrationToken(
  admin: ApiClient,
  token: { permisos: string[]; id_cliente?: number | null; nombre?: string; vigencia_dias?: number },
): Promise<string> {
  const res = await admin.post('/api/integracion/tokens', {
    nombre: 'ERP',
    id_cliente: null,
    vigencia_dias: 30,
    ...token,
  });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { valor: string }).valor;
}
