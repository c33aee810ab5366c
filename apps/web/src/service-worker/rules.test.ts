import { describe, expect, it } from 'vitest';
import { SIGN_IN_CLEARS_CACHE } from '../features/auth/api/login';
import { DATA_CACHE, keepable, notificationFor, parsePushPayload, strategyFor } from './rules';

const ORIGIN = 'https://compras.example.mx';
const get = (path: string, mode = 'cors') => ({ method: 'GET', mode, url: `${ORIGIN}${path}` });

describe('what the service worker does with each request', () => {
  it('answers screens from the network first and the shell when it fails', () => {
    expect(strategyFor(get('/comprador/catalogo', 'navigate'), ORIGIN)).toBe('pagina');
    expect(strategyFor(get('/autorizador/orden/12?accion=aprobar', 'navigate'), ORIGIN)).toBe('pagina');
  });

  it('never answers a download or an API address opened as a page', () => {
    expect(strategyFor(get('/api/pedidos/12/pdf', 'navigate'), ORIGIN)).toBe('red');
    expect(strategyFor(get('/sanctum/csrf-cookie', 'navigate'), ORIGIN)).toBe('red');
    expect(strategyFor(get('/assets/index-abc.js', 'navigate'), ORIGIN)).toBe('red');
  });

  it('keeps the build files, whose names change with their content', () => {
    expect(strategyFor(get('/assets/index-DfzknE85.js'), ORIGIN)).toBe('recurso');
    expect(strategyFor(get('/assets/index-B838-SEH.css'), ORIGIN)).toBe('recurso');
  });

  it('keeps the catalogue page and no other API answer', () => {
    expect(strategyFor(get('/api/catalogo?pagina=2&buscar=papel'), ORIGIN)).toBe('catalogo');
    for (const path of [
      '/api/sesion',
      '/api/pedidos',
      '/api/pedidos/12',
      '/api/carrito',
      '/api/notificaciones',
      '/api/catalogo/exportar',
      '/api/catalogos',
    ]) {
      expect(strategyFor(get(path), ORIGIN), path).toBe('red');
    }
  });

  it('never touches a request that changes something, or another origin', () => {
    expect(strategyFor({ method: 'POST', mode: 'cors', url: `${ORIGIN}/api/catalogo` }, ORIGIN)).toBe('red');
    expect(strategyFor(get('/comprador/catalogo', 'navigate'), 'https://otro.example.mx')).toBe('red');
  });

  it('keeps only complete answers of this origin', () => {
    expect(keepable({ status: 200, type: 'basic' })).toBe(true);
    expect(keepable({ status: 401, type: 'basic' })).toBe(false);
    expect(keepable({ status: 206, type: 'basic' })).toBe(false);
    expect(keepable({ status: 0, type: 'opaqueredirect' })).toBe(false);
    expect(keepable({ status: 200, type: 'opaque' })).toBe(false);
  });
});

describe('the push message the worker shows', () => {
  it('reads the server payload', () => {
    expect(
      parsePushPayload(
        JSON.stringify({ id: 7, titulo: 'Pedido #12 por revisar', texto: 'Toca', ruta: '/x' }),
      ),
    ).toEqual({ id: '7', titulo: 'Pedido #12 por revisar', texto: 'Toca', ruta: '/x' });
  });

  it('never opens another site and refuses what is not ours', () => {
    expect(parsePushPayload(JSON.stringify({ titulo: 'A', ruta: 'https://malo.example' }))?.ruta).toBe('/');
    expect(parsePushPayload(JSON.stringify({ titulo: 'A', ruta: '//malo.example' }))?.ruta).toBe('/');
    expect(parsePushPayload('no es json')).toBeNull();
    expect(parsePushPayload(JSON.stringify({ texto: 'sin título' }))).toBeNull();
    expect(parsePushPayload(null)).toBeNull();
  });
});

describe('the notification a push shows', () => {
  it('carries the title, the text, a tag per notice and the path to open', () => {
    const { title, options } = notificationFor(
      parsePushPayload(
        JSON.stringify({ id: 5, titulo: 'Pedido #5 aprobado', texto: '', ruta: '/usuario/historial/5' }),
      ),
    );
    expect(title).toBe('Pedido #5 aprobado');
    expect(options).toMatchObject({
      body: 'Tienes un aviso nuevo.',
      tag: 'aviso-5',
      data: { ruta: '/usuario/historial/5' },
    });
  });

  it('shows a plain notice for a message that is not ours', () => {
    const { title, options } = notificationFor(null);
    expect(title).toBe('Portal de Compras');
    expect(options.tag).toBeUndefined();
    expect(options.data).toEqual({ ruta: '/' });
  });
});

describe('sign-in', () => {
  it('empties the cache that holds the private answer', () => {
    expect(SIGN_IN_CLEARS_CACHE).toBe(DATA_CACHE);
  });
});
