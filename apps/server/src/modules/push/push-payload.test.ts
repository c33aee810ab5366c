import { PUSH_PATH_MAX, PUSH_TEXT_MAX, PUSH_TITLE_MAX } from '@portal/shared/domain/push';
import { PushPayload } from '@portal/shared/schemas/push';
import { describe, expect, it } from 'vitest';
import { MSG } from '../../messages.ts';
import { pushPayload } from './push-payload.ts';

/** What a push carries (decision 0117): title, text, path and id; amounts only when the person chose them. */
describe('pushPayload', () => {
  const item = {
    id: 41,
    tipo: 'por_revisar',
    titulo: 'Pedido #00012 por revisar',
    texto: 'Beto envió el pedido #00012 por $1,160.00 MXN. Está pendiente de tu revisión.',
    ruta: '/autorizador/orden/12',
  };

  it('without amounts: the title, what tapping does, the path and the id, and nothing else', () => {
    const payload = pushPayload(item, false);
    expect(payload).toEqual({
      titulo: 'Pedido #00012 por revisar',
      texto: MSG.avisoTelefonoTexto.por_revisar,
      ruta: '/autorizador/orden/12',
      id: 41,
    });
    expect(Object.keys(PushPayload.parse(payload))).toEqual(['titulo', 'texto', 'ruta', 'id']);
    for (const tipo of ['pedido', 'comentario', 'presupuesto', 'envio'] as const)
      expect(pushPayload({ ...item, tipo }, false).texto).toBe(MSG.avisoTelefonoTexto[tipo]);
    expect(pushPayload({ ...item, tipo: 'otro' }, false).texto).toBe(MSG.avisoTelefonoTextoGenerico);
  });

  it('takes any amount out of a title, and keeps it when the person chose amounts', () => {
    const titulo = 'Pedido #00012 por $1,160.00 MXN, pendiente';
    expect(pushPayload({ ...item, titulo }, false).titulo).toBe('Pedido #00012 por, pendiente');
    expect(pushPayload({ ...item, titulo: 'Devolución de -$5.50' }, false).titulo).toBe('Devolución de');
    expect(pushPayload({ ...item, titulo }, true)).toMatchObject({ titulo, texto: item.texto });
  });

  it('opens only the portal’s own paths', () => {
    for (const ruta of [
      'https://otro.example/x',
      '//otro.example/x',
      '/\\otro.example',
      'javascript:alert(1)',
    ])
      expect(pushPayload({ ...item, ruta }, false).ruta).toBe('/');
    expect(pushPayload({ ...item, ruta: `/${'a'.repeat(PUSH_PATH_MAX)}` }, false).ruta).toBe('/');
    expect(pushPayload({ ...item, ruta: '/usuario/historial/3?x=1' }, false).ruta).toBe(
      '/usuario/historial/3?x=1',
    );
  });

  it('cuts long texts, so the longest payload stays far under Web Push’s 4 KB', () => {
    const long = 'ñ'.repeat(5000);
    const payload = pushPayload(
      { ...item, titulo: long, texto: long, ruta: `/${'é'.repeat(PUSH_PATH_MAX - 1)}` },
      true,
    );
    expect(payload.titulo).toHaveLength(PUSH_TITLE_MAX);
    expect(payload.titulo.endsWith('…')).toBe(true);
    expect(payload.texto).toHaveLength(PUSH_TEXT_MAX);
    expect(Buffer.byteLength(JSON.stringify(payload))).toBeLessThan(2048);
  });
});
