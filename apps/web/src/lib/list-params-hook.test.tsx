// @vitest-environment jsdom
import { UsersQuery } from '@portal/shared/schemas/users';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { MemoryRouter, useLocation, useNavigate } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type ListParams, type ListValues, useListParams, usePagedSearch } from './list-params';
import { useSearchParamsUpdate } from './search-params';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const Users = UsersQuery.omit({ id_cliente: true });
type Seen = {
  list: ListParams<ListValues<typeof Users>>;
  search: ReturnType<typeof usePagedSearch>;
  url: string;
};

let root: Root | null = null;
afterEach(() => {
  act(() => root?.unmount());
  root = null;
  vi.useRealTimers();
});

/** Renders the hooks at `url`; `current()` is what the last render saw. */
function renderAt(url: string) {
  let last: Seen | null = null;
  function Probe() {
    const list = useListParams(Users);
    const search = usePagedSearch(list);
    const location = useLocation();
    last = { list, search, url: `${location.search}` };
    return null;
  }
  root = createRoot(document.createElement('div'));
  act(() =>
    root?.render(
      <MemoryRouter initialEntries={[url]}>
        <Probe />
      </MemoryRouter>,
    ),
  );
  return () => last as unknown as Seen;
}

describe('useListParams', () => {
  it('reads the URL through the schema and writes changes back, page 1 and defaults left out', () => {
    const current = renderAt('/usuarios?page=3&q=ana&rol=9&orden=nombre_desc');
    expect(current().list.values).toMatchObject({ page: 3, q: 'ana', rol: undefined, orden: 'nombre_desc' });
    act(() => current().list.set({ rol: 2, orden: 'usuario_asc' }));
    expect(current().url).toBe('?q=ana&rol=2');
    expect(current().list.values).toMatchObject({ page: 1, rol: 2, orden: 'usuario_asc' });
    act(() => current().list.set({ page: 2 }));
    expect(current().url).toBe('?q=ana&rol=2&page=2');
  });

  it('gives a text field as typed, spaces included', () => {
    const current = renderAt('/usuarios?q=ana%20');
    expect(current().list.text('q')).toBe('ana ');
    expect(current().list.values.q).toBe('ana');
  });
});

describe('usePagedSearch', () => {
  it('sends the search after a pause, and a new search starts again on page 1', () => {
    vi.useFakeTimers();
    const current = renderAt('/usuarios?page=4&q=ana');
    expect(current().search).toMatchObject({ page: 4, q: 'ana', debouncedQ: 'ana' });
    // The navbar's search writes `q` and leaves the page.
    act(() => current().list.set({ q: 'luis ', page: 4 }));
    expect(current().search).toMatchObject({ page: 4, q: 'luis ', debouncedQ: 'ana' });
    act(() => vi.advanceTimersByTime(300));
    expect(current().search).toMatchObject({ page: 1, debouncedQ: 'luis' });
    expect(current().url).toBe('?q=luis+');
  });
});

describe('useSearchParamsUpdate', () => {
  it('keeps both of two updates made before the next render (a client chosen, then a tab)', () => {
    let update: ReturnType<typeof useSearchParamsUpdate>[1] | null = null;
    let seen = '';
    function Probe() {
      const [, set] = useSearchParamsUpdate();
      update = set;
      seen = useLocation().search;
      return null;
    }
    root = createRoot(document.createElement('div'));
    act(() =>
      root?.render(
        <MemoryRouter initialEntries={['/administrador/inventario?page=2']}>
          <Probe />
        </MemoryRouter>,
      ),
    );
    act(() => {
      update?.({ cliente: '40', page: null });
      update?.({ tab: 'categorias' });
    });
    expect(seen).toBe('?cliente=40&tab=categorias');
    // After a render the next update starts from what the address holds.
    act(() => update?.({ tab: null }));
    expect(seen).toBe('?cliente=40');
  });

  it('never carries a write that no render read into another page', () => {
    let update: ReturnType<typeof useSearchParamsUpdate>[1] | null = null;
    let go: ((to: string) => void) | null = null;
    let seen = '';
    function Probe() {
      const [, set] = useSearchParamsUpdate();
      update = set;
      go = useNavigate();
      const location = useLocation();
      seen = location.pathname + location.search;
      return null;
    }
    root = createRoot(document.createElement('div'));
    act(() =>
      root?.render(
        <MemoryRouter initialEntries={['/administrador/inventario']}>
          <Probe />
        </MemoryRouter>,
      ),
    );
    act(() => {
      update?.({ cliente: '40' });
      go?.('/administrador/usuarios');
    });
    expect(seen).toBe('/administrador/usuarios');
    act(() => update?.({ q: 'luis' }));
    expect(seen).toBe('/administrador/usuarios?q=luis');
  });
});
