/** POST /api/carrito/nuevo_item across many buyers (each connection over its own group). */
import type { Buyers } from './buyers.ts';
import { type BenchContext, httpScenario } from './context.ts';

export async function cartScenario(ctx: BenchContext, buyers: Buyers): Promise<void> {
  if (!ctx.only('carrito') || !ctx.buyers.length) return;
  await buyers.reset(10_000_000);
  buyers.restart();
  await httpScenario(
    ctx,
    'carrito',
    `POST /api/carrito/nuevo_item (${ctx.buyers.length} usuarios)`,
    [buyers.addItem],
    { cpu: 12 },
  );
  await buyers.reset(10_000_000);
}
