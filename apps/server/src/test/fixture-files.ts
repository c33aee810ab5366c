import { readFileSync } from 'node:fs';

/** The committed test files in `./fixtures` (what each one is and how it was made: `fixtures/README.md`). */
export type FixtureName =
  | 'red-40x30.png'
  | 'blue-40x30.png'
  | 'green-40x30.jpg'
  | 'yellow-40x30.jpg'
  | 'sky-64x48.png'
  | 'sky-800x600.jpg'
  | 'calendario.pdf'
  | 'manual.pdf'
  | 'one-pixel.gif'
  | 'products-semicolon-bom.csv'
  | 'products-semicolon-changed-lf.csv'
  | 'products-latin1.csv'
  | 'products-utf16.csv'
  | 'products.xlsx';

/** The bytes of a committed test file (a new Buffer on every call, so a test may change it). */
export function fixture(name: FixtureName): Buffer {
  return readFileSync(new URL(`./fixtures/${name}`, import.meta.url));
}
