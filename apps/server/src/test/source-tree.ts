import { readFileSync } from 'node:fs';

/**
 * A source file's text, or '' when it is gone since its folder was listed. Some tests write a probe file
 * into the source tree for a moment (architecture.test.ts: a module that reads the machine's clock, a back
 * arrow, a cycle); the tests that read every source file run beside them and read a probe removed meanwhile
 * as empty.
 */
export function readSourceIfPresent(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw error;
  }
}
