import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client.ts';
import { storedFiles } from '../db/schema/index.ts';
import { freshDatabase } from '../test/databases.ts';
import { fixture } from '../test/fixture-files.ts';
import {
  detectFileType,
  detectPhotoType,
  FileRejectedError,
  IMAGE_MAX_BYTES,
  IMAGE_TYPE_MESSAGE,
  isSafeFileId,
  PDF_MAX_BYTES,
  PDF_TYPE_MESSAGE,
  preparePhoto,
  readFile,
  storeFile,
  storeImageWithThumb,
} from './files.ts';

let database: Database;

beforeAll(async () => {
  ({ database } = await freshDatabase('pglite'));
}, 60_000);

afterAll(async () => {
  await database?.close();
});

/** A noisy picture (so it does not compress to almost nothing). */
function pixels(width: number, height: number, seed = 1): Buffer {
  const buf = Buffer.alloc(width * height * 3);
  let x = seed;
  for (let i = 0; i < buf.length; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    buf[i] = (x >> 16) & 0xff;
  }
  return buf;
}

const makePng = (w = 200, h = 120, seed = 1) =>
  sharp(pixels(w, h, seed), { raw: { width: w, height: h, channels: 3 } })
    .png()
    .toBuffer();
const makeJpg = (w = 200, h = 120, seed = 2) =>
  sharp(pixels(w, h, seed), { raw: { width: w, height: h, channels: 3 } })
    .jpeg()
    .toBuffer();

async function rejection(promise: Promise<unknown>): Promise<FileRejectedError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(FileRejectedError);
    return err as FileRejectedError;
  }
  throw new Error('expected a FileRejectedError');
}

const imageInput = (data: Buffer) => ({
  data,
  kind: 'imagen' as const,
  idCliente: null,
  allowed: ['image' as const],
  maxBytes: IMAGE_MAX_BYTES,
});

describe('detectFileType', () => {
  it('recognises JPG, PNG and PDF by content only', async () => {
    expect(detectFileType(await makeJpg())).toEqual({ mime: 'image/jpeg', ext: 'jpg' });
    expect(detectFileType(await makePng())).toEqual({ mime: 'image/png', ext: 'png' });
    expect(detectFileType(fixture('calendario.pdf'))).toEqual({ mime: 'application/pdf', ext: 'pdf' });
    expect(detectFileType(Buffer.from('nombre,precio\nLápiz,10\n'))).toBeNull();
    expect(detectFileType(Buffer.alloc(0))).toBeNull();
    expect(detectFileType(Buffer.from([0xff, 0xd8]))).toBeNull();
  });
});

describe('photos of receipts and claims (decision 0127)', () => {
  const isoBmff = (brand: string) => {
    const box = Buffer.alloc(24);
    box.writeUInt32BE(24, 0);
    box.write(`ftyp${brand}`, 4, 'latin1');
    box.write('mif1', 16, 'latin1');
    return box;
  };

  it('recognises JPEG, PNG and every HEIC brand by content; other ISO-BMFF files are not photos', () => {
    expect(detectPhotoType(fixture('green-40x30.jpg'))?.mime).toBe('image/jpeg');
    expect(detectPhotoType(fixture('red-40x30.png'))?.mime).toBe('image/png');
    for (const brand of ['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1'])
      expect(detectPhotoType(isoBmff(brand)), brand).toEqual({ mime: 'image/heic', ext: 'heic' });
    for (const brand of ['avif', 'isom', 'qt  ', 'mp42'])
      expect(detectPhotoType(isoBmff(brand)), brand).toBeNull();
    expect(detectPhotoType(fixture('calendario.pdf'))).toBeNull();
    expect(detectPhotoType(fixture('one-pixel.gif'))).toBeNull();
  });

  it('names a photo by its content salted apart from pictures, and refuses by type and size', async () => {
    const photo = await preparePhoto(fixture('green-40x30.jpg'), 1024 * 1024);
    const picture = await storeFile(database.db, {
      data: fixture('green-40x30.jpg'),
      kind: 'imagen',
      idCliente: null,
      allowed: ['image'],
      maxBytes: IMAGE_MAX_BYTES,
    });
    expect(photo.kind).toBe('foto');
    expect(photo.id).not.toBe(picture);
    expect(isSafeFileId(photo.id)).toBe(true);
    expect(isSafeFileId(`${'a'.repeat(64)}.heic`)).toBe(true);
    await expect(preparePhoto(Buffer.from('hola'), 1024)).rejects.toMatchObject({ code: 'FILE_TYPE' });
    await expect(preparePhoto(fixture('green-40x30.jpg'), 10)).rejects.toMatchObject({ code: 'FILE_SIZE' });
    // A JPEG's signature on bytes the image library cannot read is not a JPEG.
    const fake = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.from('no soy una foto')]);
    await expect(preparePhoto(fake, 1024)).rejects.toMatchObject({ code: 'FILE_TYPE' });
  });
});

describe('storeFile', () => {
  it('accepts a real JPG and a real PNG with the right type', async () => {
    const jpgId = await storeFile(database.db, imageInput(await makeJpg()));
    const pngId = await storeFile(database.db, imageInput(await makePng()));
    expect(jpgId).toMatch(/^[0-9a-f]{64}\.jpg$/);
    expect(pngId).toMatch(/^[0-9a-f]{64}\.png$/);
    expect((await readFile(database.db, jpgId))?.mime).toBe('image/jpeg');
    const png = await readFile(database.db, pngId);
    expect(png?.mime).toBe('image/png');
    expect(png?.data.subarray(0, 4).toString('latin1')).toBe('\x89PNG');
    expect(png?.size).toBe(png?.data.length);
  });

  it('refuses a text file where an image is expected', async () => {
    const err = await rejection(storeFile(database.db, imageInput(Buffer.from('no soy una imagen'))));
    expect(err.code).toBe('FILE_TYPE');
    expect(err.message).toBe(IMAGE_TYPE_MESSAGE);
  });

  it('refuses a PDF where an image is expected, and an image where a PDF is expected', async () => {
    const pdf = fixture('calendario.pdf');
    const err = await rejection(storeFile(database.db, imageInput(pdf)));
    expect(err.code).toBe('FILE_TYPE');
    expect(err.message).toBe(IMAGE_TYPE_MESSAGE);

    const err2 = await rejection(
      storeFile(database.db, {
        data: await makePng(),
        kind: 'documento',
        idCliente: null,
        allowed: ['pdf'],
        maxBytes: PDF_MAX_BYTES,
      }),
    );
    expect(err2.code).toBe('FILE_TYPE');
    expect(err2.message).toBe(PDF_TYPE_MESSAGE);
  });

  it('refuses a file over the size limit with the limit in the message', async () => {
    const big = Buffer.alloc(6 * 1024 * 1024, 0);
    (await makePng()).copy(big); // a PNG header does not make it acceptable
    const err = await rejection(storeFile(database.db, imageInput(big)));
    expect(err.code).toBe('FILE_SIZE');
    expect(err.message).toBe('El archivo excede el tamaño máximo de 5 MB.');

    const err2 = await rejection(
      storeFile(database.db, {
        data: Buffer.alloc(PDF_MAX_BYTES + 1, 0x25),
        kind: 'documento',
        idCliente: null,
        allowed: ['pdf'],
        maxBytes: PDF_MAX_BYTES,
      }),
    );
    expect(err2.message).toBe('El archivo excede el tamaño máximo de 20 MB.');
  });

  it('refuses an empty file', async () => {
    const err = await rejection(storeFile(database.db, imageInput(Buffer.alloc(0))));
    expect(err.code).toBe('FILE_EMPTY');
  });

  it('refuses a truncated PNG and a corrupt JPG with the type message', async () => {
    const png = await makePng(300, 300);
    const err = await rejection(storeFile(database.db, imageInput(png.subarray(0, png.length >> 1))));
    expect(err.code).toBe('FILE_TYPE');
    expect(err.message).toBe(IMAGE_TYPE_MESSAGE);

    const jpg = await makeJpg(300, 300);
    const err2 = await rejection(storeFile(database.db, imageInput(jpg.subarray(0, jpg.length >> 1))));
    expect(err2.code).toBe('FILE_TYPE');
  });

  it('stores the same content once, under the same id', async () => {
    const png = await makePng(64, 64, 99);
    const a = await storeFile(database.db, imageInput(png));
    const b = await storeFile(database.db, imageInput(Buffer.from(png)));
    expect(a).toBe(b);
    const rows = await database.db.select().from(storedFiles).where(eq(storedFiles.id, a));
    expect(rows).toHaveLength(1);
  });

  it('accepts UTF-8 text as CSV only when CSV is allowed', async () => {
    const csv = Buffer.from('\uFEFFclave_interna,nombre\nDI-0001,Lápiz\n', 'utf8');
    const id = await storeFile(database.db, {
      data: csv,
      kind: 'importacion',
      idCliente: null,
      allowed: ['csv'],
      maxBytes: IMAGE_MAX_BYTES,
    });
    expect(id).toMatch(/^[0-9a-f]{64}\.csv$/);
    expect((await readFile(database.db, id))?.mime).toBe('text/csv');

    const err = await rejection(
      storeFile(database.db, {
        data: Buffer.from([0x00, 0x01, 0xfe, 0x41]),
        kind: 'importacion',
        idCliente: null,
        allowed: ['csv'],
        maxBytes: IMAGE_MAX_BYTES,
      }),
    );
    expect(err.code).toBe('FILE_TYPE');
  });
});

describe('storeImageWithThumb', () => {
  it('stores the original and a JPEG thumbnail at most 320 px wide', async () => {
    const png = await makePng(800, 600, 7);
    const { id, thumbId } = await storeImageWithThumb(database.db, { data: png, idCliente: null });
    expect(id).toMatch(/^[0-9a-f]{64}\.png$/);
    expect(thumbId).toBe(`${id.slice(0, 64)}_t.jpg`);
    expect(isSafeFileId(thumbId)).toBe(true);

    const thumb = await readFile(database.db, thumbId);
    expect(thumb?.mime).toBe('image/jpeg');
    const meta = await sharp(thumb!.data).metadata();
    expect(meta.format).toBe('jpeg');
    expect(meta.width).toBe(320);
    expect(meta.height).toBe(240);
  });

  it('does not enlarge small images', async () => {
    const { thumbId } = await storeImageWithThumb(database.db, {
      data: await makeJpg(100, 80, 11),
      idCliente: null,
    });
    const thumb = await readFile(database.db, thumbId);
    const meta = await sharp(thumb!.data).metadata();
    expect(meta.width).toBeLessThanOrEqual(320);
    expect(meta.width).toBe(100);
  });

  it('refuses a GIF: only JPG and PNG are stored as images', async () => {
    const err = await rejection(
      storeImageWithThumb(database.db, { data: fixture('one-pixel.gif'), idCliente: null }),
    );
    expect(err.code).toBe('FILE_TYPE');
  });
});

describe('readFile and isSafeFileId', () => {
  it('accepts only content-hash names', () => {
    const hash = 'a'.repeat(64);
    expect(isSafeFileId(`${hash}.jpg`)).toBe(true);
    expect(isSafeFileId(`${hash}_t.jpg`)).toBe(true);
    expect(isSafeFileId(`${hash}.pdf`)).toBe(true);
    expect(isSafeFileId(`${hash}.csv`)).toBe(true);
    expect(isSafeFileId(`${hash}.gif`)).toBe(false);
    expect(isSafeFileId(`${'A'.repeat(64)}.jpg`)).toBe(false);
    expect(isSafeFileId(`../${hash}.jpg`)).toBe(false);
    expect(isSafeFileId(`${hash}.jpg\n`)).toBe(false);
    expect(isSafeFileId('logo.png')).toBe(false);
  });

  it('answers null for an unknown or unsafe id', async () => {
    expect(await readFile(database.db, `${'0'.repeat(64)}.png`)).toBeNull();
    expect(await readFile(database.db, '../../etc/passwd')).toBeNull();
  });
});
