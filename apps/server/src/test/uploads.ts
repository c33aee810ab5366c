import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import type { Db } from '../db/client.ts';
import { importJobs } from '../db/schema/index.ts';

export interface UploadFile {
  data: Buffer | string;
  filename: string;
  type?: string;
}

/** A multipart/form-data body (bytes and content-type) for `app.inject`, built by the platform's FormData. */
export async function multipartBody(
  fields: Record<string, string | number | boolean>,
  files: Record<string, UploadFile> = {},
): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, String(value));
  for (const [name, file] of Object.entries(files)) {
    const bytes = typeof file.data === 'string' ? Buffer.from(file.data, 'utf8') : file.data;
    form.append(
      name,
      new Blob([new Uint8Array(bytes)], { type: file.type ?? 'application/octet-stream' }),
      file.filename,
    );
  }
  const res = new Response(form);
  const payload = Buffer.from(await res.arrayBuffer());
  return { payload, headers: { 'content-type': res.headers.get('content-type')! } };
}

/** A valid PNG of random noise, so it does not compress: about `megabytes` MB. */
export function makeNoisePng(megabytes: number): Promise<Buffer> {
  const side = Math.ceil(Math.sqrt((megabytes * 1024 * 1024) / 3));
  const raw = Buffer.alloc(side * side * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (Math.random() * 256) | 0;
  return sharp(raw, { raw: { width: side, height: side, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();
}

/** Waits until an import job has ended ('terminado' or 'fallido') and returns its row. */
export async function waitForImport(db: Db, id: number, timeoutMs = 60_000) {
  const start = Date.now();
  for (;;) {
    const [row] = await db.select().from(importJobs).where(eq(importJobs.id, id));
    if (row && (row.status === 'terminado' || row.status === 'fallido')) return row;
    if (Date.now() - start > timeoutMs) {
      throw new Error(`la importación ${id} no terminó (estado: ${row?.status ?? 'sin fila'})`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
