import type { ReorderResponse } from '@portal/shared/schemas/shopping';

export interface AddedLine {
  id: number;
  nombre: string;
  /** Units added to the cart. */
  cantidad: number;
}

/**
 * The added lines of an answer that adds several products at once (repetir, a list's al-carrito, the quick
 * order), named from the cart the answer carries (the answer gives only ids and units).
 */
export function addedLines(res: Pick<ReorderResponse, 'agregados' | 'carrito'>): AddedLine[] {
  const names = new Map(res.carrito.map((item) => [item.id, item.nombre]));
  return res.agregados.map((a) => ({
    id: a.id,
    cantidad: a.cantidad,
    nombre: names.get(a.id) ?? `Producto ${a.id}`,
  }));
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
