/**
 * The rol-1 figures of the session (categories, budget, cart, totals). Every cart call and the purchase
 * answer with fresh figures; they are written into the cached session so the cards, the sidebar and the
 * cart refresh at once, without another request.
 */
import type { CartResponse, ShopperSession } from '@portal/shared/schemas/shopping';
import type { QueryClient } from '@tanstack/react-query';
import { type SessionResponse, sessionKeys } from '../../../lib/auth';
import { useSession } from '../../../lib/session';

const EMPTY: ShopperSession = {
  categorias: [],
  presupuesto: {
    tipo_presupuesto: 'regular',
    presupuesto_total: 0,
    presupuesto_utilizado: 0,
    presupuesto_restante: 0,
    presupuesto_carrito: 0,
    productos_totales: 0,
    limite_de_compras: -1,
    cantidad_de_compras: 0,
    mostrar: false,
    mes: '',
    alertas_presupuesto: [],
    ampliaciones: 0,
    area: null,
  },
  carrito: [],
  totales: { subtotal: 0, iva: 0, total: 0 },
  direccion: { direccion_entrega: '', calle: '', colonia: '', ciudad: '', cp: '' },
};

export function useShopper(): ShopperSession {
  return useSession().comprador ?? EMPTY;
}

/** Writes new shopper figures into every cached session check. */
export function applyShopper(queryClient: QueryClient, update: Partial<ShopperSession>): void {
  queryClient.setQueriesData<SessionResponse>({ queryKey: sessionKeys.all }, (old) =>
    old?.comprador ? { ...old, comprador: { ...old.comprador, ...update } } : old,
  );
}

/** The shopper figures a cart call answered with. */
export function applyCartResponse(queryClient: QueryClient, res: CartResponse): void {
  applyShopper(queryClient, {
    carrito: res.carrito,
    totales: res.totales,
    presupuesto: res.presupuesto,
    categorias: res.categorias,
  });
}
