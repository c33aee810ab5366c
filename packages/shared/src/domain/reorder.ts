/**
 * Repeating an order or adding a saved list to the cart (docs/domain.md "Cart", decision 0043): every line
 * goes through the cart's own checks; this is only how much each line asks for.
 */

/**
 * The cart quantity a repeated line asks for: what the cart holds plus the line's quantity, capped at the
 * product's current `cantidad_limite`. When the cart already holds the limit, it asks for more than the
 * limit, so the cart's quantity check refuses the line with its own message.
 */
export function reorderQuantity(original: number, enCarrito: number, cantidadLimite: number): number {
  const room = cantidadLimite - enCarrito;
  return enCarrito + (room > 0 ? Math.min(original, room) : original);
}
