import type { NotificationKind } from '@portal/shared/domain/notifications';
import { PUSH_PATH_MAX, PUSH_TEXT_MAX, PUSH_TITLE_MAX } from '@portal/shared/domain/push';
import type { PushPayload } from '@portal/shared/schemas/push';
import { MSG } from '../../messages.ts';

/** A money figure as the portal writes it (`$1,160.00 MXN`, `-$5.00`). */
const AMOUNT = /-?\$\s?\d[\d,]*(?:\.\d+)?(?:\s?MXN)?/g;

const cut = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

/** A bell item, as the push sender reads it. */
export interface PushedItem {
  id: number;
  tipo: string;
  titulo: string;
  texto: string;
  ruta: string;
}

/**
 * What a push of a bell item carries (decision 0117), and nothing more: its title, a short text and the path
 * it opens, and its id. Unless the person chose to see amounts on the phone (`importes_en_telefono`), the
 * text is what tapping does («Toca para revisarlo.») instead of the item's sentence, which names amounts, and
 * any amount in the title is taken out (the titles carry none today: «Pedido #00123 por revisar»). The path
 * is one of the portal's (`/…`), never another site's. Cut to lengths that keep the payload far under Web
 * Push's 4 KB.
 */
export function pushPayload(item: PushedItem, importes: boolean): PushPayload {
  const titulo = importes
    ? item.titulo
    : item.titulo
        .replace(AMOUNT, '')
        .replace(/\s{2,}/g, ' ')
        .replace(/\s+([,.:;])/g, '$1')
        .trim();
  const texto = importes
    ? item.texto
    : (MSG.avisoTelefonoTexto[item.tipo as NotificationKind] ?? MSG.avisoTelefonoTextoGenerico);
  const ruta = /^\/(?![/\\])/.test(item.ruta) && item.ruta.length <= PUSH_PATH_MAX ? item.ruta : '/';
  return { titulo: cut(titulo, PUSH_TITLE_MAX), texto: cut(texto, PUSH_TEXT_MAX), ruta, id: item.id };
}
