import type { ReorderResponse } from '@portal/shared/schemas/shopping';

export interface AddedLine {
  id: number;
  nombre: string;
  /** Units added to the cart. */
  cantidad: number;
  /** The product's maximum per order, when the cart holds it. */
  limite: number | null;
  /** Why fewer units than asked were added ('Se ajustó de 5 a 3 por tu límite.'), or null. */
  ajuste: string | null;
}

/**
 * The added lines of an answer that adds several products at once (repetir, a list's al-carrito, the quick
 * order), named from the cart the answer carries (the answer gives only ids and units).
 */
export function addedLines(
  res: Pick<ReorderResponse, 'agregados' | 'carrito'> & Partial<Pick<ReorderResponse, 'ajustados'>>,
): AddedLine[] {
  const items = new Map(res.carrito.map((item) => [item.id, item]));
  // A cut line is reported in `ajustados`, in the order of the lines: each goes to the first added line of
  // its product with the same units (a product may appear on several lines of a quick order).
  const cuts = [...(res.ajustados ?? [])];
  return res.agregados.map((a) => {
    const cut = cuts.findIndex((c) => c.id === a.id && c.agregado === a.cantidad);
    const ajuste = cut >= 0 ? cuts.splice(cut, 1)[0]!.motivo : null;
    const item = items.get(a.id);
    return {
      id: a.id,
      cantidad: a.cantidad,
      nombre: item?.nombre ?? `Producto ${a.id}`,
      limite: item?.cantidad_limite ?? null,
      ajuste,
    };
  });
}

/** The dialog's one-line summary: how many products were added and how many skipped. */
export function addResultSummary(res: Pick<ReorderResponse, 'agregados' | 'omitidos'>): string {
  const added = res.agregados.length;
  const skipped = res.omitidos.length;
  const a =
    added === 0
      ? 'No se agregó ningún producto'
      : `Se ${added === 1 ? 'agregó 1 producto' : `agregaron ${added} productos`}`;
  if (skipped === 0) return `${a} al carrito.`;
  return `${a} al carrito; ${skipped === 1 ? '1 no se pudo agregar' : `${skipped} no se pudieron agregar`}.`;
}
