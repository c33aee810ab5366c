// @vitest-environment jsdom
/**
 * The browser's object URLs are not part of jsdom: they are stood in for here, and the test checks what
 * saveBlob does with them and with the page.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { saveBlob } from './download';

const created: Blob[] = [];
const revoked: string[] = [];

beforeEach(() => {
  vi.useFakeTimers();
  created.length = 0;
  revoked.length = 0;
  URL.createObjectURL = (blob: Blob) => {
    created.push(blob);
    return `blob:http://localhost:3000/${created.length}`;
  };
  URL.revokeObjectURL = (url: string) => {
    revoked.push(url);
  };
});

afterEach(() => {
  vi.useRealTimers();
  Reflect.deleteProperty(URL, 'createObjectURL');
  Reflect.deleteProperty(URL, 'revokeObjectURL');
});

describe('saveBlob', () => {
  it('clicks a hidden download link named after the file, removes it, and frees the URL 30 s later', () => {
    const blob = new Blob(['id,total\n7,1.16\n'], { type: 'text/csv' });
    const clicks: { href: string; download: string; rel: string; display: string; attached: boolean }[] = [];
    const onClick = (event: MouseEvent) => {
      const link = event.target as HTMLAnchorElement;
      clicks.push({
        href: link.href,
        download: link.download,
        rel: link.rel,
        display: link.style.display,
        attached: document.body.contains(link),
      });
      event.preventDefault(); // jsdom does not navigate
    };
    document.addEventListener('click', onClick);
    try {
      saveBlob(blob, 'reporte-2026-03.csv');
    } finally {
      document.removeEventListener('click', onClick);
    }

    expect(created).toEqual([blob]);
    expect(clicks).toEqual([
      {
        href: 'blob:http://localhost:3000/1',
        download: 'reporte-2026-03.csv',
        rel: 'noopener',
        display: 'none',
        attached: true,
      },
    ]);
    expect(document.querySelectorAll('a')).toHaveLength(0);

    vi.advanceTimersByTime(29_999);
    expect(revoked).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(revoked).toEqual(['blob:http://localhost:3000/1']);
  });
});
