/**
 * POST /api/cliente/sincronizar (decision 0122): a client's full list of its people (CSV: usuario, correo,
 * nombre, rol optional). Who is on it and has no account gets one; who changed is updated; an active account
 * of roles 1–3 missing from it is deactivated (sessions end, waiting orders withdrawn). With `vista_previa`
 * nothing changes.
 */
import { z } from 'zod';

/** Most people one list may name. */
export const ROSTER_MAX_ROWS = 20_000;
/** Most entries each list of the answer shows (the counts are whole). */
export const ROSTER_SHOWN = 200;

const Person = z.object({ usuario: z.string(), nombre: z.string(), correo: z.string() });

export const RosterSyncResponse = z.object({
  status: z.literal('ok'),
  msg: z.string(),
  vista_previa: z.boolean(),
  altas: z.number().int(),
  cambios: z.number().int(),
  reactivados: z.number().int(),
  bajas: z.number().int(),
  sin_cambio: z.number().int(),
  /** Orders withdrawn because their buyer left (applied only). */
  pedidos_retirados: z.number().int(),
  detalle: z.object({
    altas: z.array(Person.extend({ rol: z.number().int() })),
    cambios: z.array(Person.extend({ id: z.number().int(), campos: z.array(z.string()) })),
    reactivados: z.array(Person.extend({ id: z.number().int() })),
    bajas: z.array(Person.extend({ id: z.number().int(), rol: z.number().int() })),
  }),
  errores: z.array(
    z.object({ fila: z.number().int(), campo: z.string(), motivo: z.string(), valor: z.string() }),
  ),
});
export type RosterSyncResponse = z.infer<typeof RosterSyncResponse>;
