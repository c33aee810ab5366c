// @vitest-environment jsdom
import { act, useEffect } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useObjectUrl } from './file-field';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

// The browser's object URLs (jsdom has none): each made URL is live until revoked.
const live = new Set<string>();
let made = 0;
beforeEach(() => {
  live.clear();
  made = 0;
  vi.spyOn(URL, 'createObjectURL').mockImplementation(() => {
    const url = `blob:test/${++made}`;
    live.add(url);
    return url;
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation((url: string) => {
    live.delete(url);
  });
});

let root: Root | null = null;
afterEach(() => {
  act(() => root?.unmount());
  root = null;
  vi.restoreAllMocks();
});

/**
 * Renders the hook for each file in turn; answers every committed render's file and URL, and whether that URL
 * was still live once the commit's effects had run (the hook's cleanup included): an image given a URL its own
 * commit revokes may fail to load it.
 */
function renderFiles(files: (File | null)[]) {
  const seen: { file: File | null; url: string | null; liveAfterCommit: boolean }[] = [];
  function Probe({ file }: { file: File | null }) {
    const url = useObjectUrl(file);
    useEffect(() => {
      seen.push({ file, url, liveAfterCommit: url === null || live.has(url) });
    });
    return null;
  }
  root = createRoot(document.createElement('div'));
  for (const file of files) act(() => root?.render(<Probe file={file} />));
  return seen;
}

describe('useObjectUrl', () => {
  it('never hands out a URL of another file or one its commit revokes', () => {
    const a = new File(['a'], 'a.png', { type: 'image/png' });
    const b = new File(['b'], 'b.png', { type: 'image/png' });
    const seen = renderFiles([a, b, null, a]);
    for (const render of seen) {
      if (render.url !== null) expect(render.file).not.toBeNull();
      expect(render.liveAfterCommit).toBe(true);
    }
    // Each file's URL is shown once it is made; clearing the file answers null in that very render.
    expect(seen.filter((r) => r.file === null).every((r) => r.url === null)).toBe(true);
    expect(seen.at(-1)?.url).toBe('blob:test/3');
    // The URLs of the files no longer chosen are released.
    expect([...live]).toEqual(['blob:test/3']);
  });

  it('releases the URL when the field goes away', () => {
    const a = new File(['a'], 'a.png', { type: 'image/png' });
    renderFiles([a]);
    expect(live.size).toBe(1);
    act(() => root?.unmount());
    root = null;
    expect(live.size).toBe(0);
  });
});
