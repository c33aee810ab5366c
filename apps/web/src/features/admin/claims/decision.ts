/**
 * The operator's decision on a claim (decision 0127) as pure functions: which actions the claim's state
 * allows (the shared `claimNext`) and the body sent for each, with the fields' problems.
 */
import {
  CLAIM_MSG,
  CLAIM_NOTE_MAX,
  type ClaimAction,
  type ClaimResolution,
  type ClaimState,
  claimNext,
} from '@portal/shared/domain/claims';
import { GUIA_MAX, PAQUETERIA_MAX } from '@portal/shared/domain/fulfilment';
import { MSG } from '@portal/shared/messages';
import type { ClaimDecisionBody } from '@portal/shared/schemas/claims';

const ACTIONS: readonly ClaimAction[] = ['aceptar', 'devolucion', 'rechazar'];

/** The actions a claim in this state allows, in the buttons' order. */
export function claimActions(estado: ClaimState): ClaimAction[] {
  return ACTIONS.filter((a) => claimNext(estado, a) !== null);
}

/** What the decision dialog holds. */
export interface DecisionDraft {
  resolucion: ClaimResolution;
  /** The note of an acceptance or a return; the reason of a refusal. */
  texto: string;
  guia: string;
  paqueteria: string;
}

export interface DecisionCheck {
  errors: { texto?: string; guia?: string; paqueteria?: string };
  body: ClaimDecisionBody | null;
}

const optional = (text: string) => (text.trim() ? text.trim() : undefined);

export function decisionCheck(accion: ClaimAction, d: DecisionDraft): DecisionCheck {
  const texto = d.texto.trim();
  const errors: DecisionCheck['errors'] = {};
  if (accion === 'rechazar' && (texto === '' || texto.length > CLAIM_NOTE_MAX))
    errors.texto = CLAIM_MSG.reclamoMotivoRechazo;
  else if (texto.length > CLAIM_NOTE_MAX) errors.texto = CLAIM_MSG.reclamoNotaLarga;
  if (accion === 'devolucion') {
    const guia = d.guia.trim();
    if (guia === '' || guia.length > GUIA_MAX) errors.guia = CLAIM_MSG.reclamoGuia;
    if (d.paqueteria.trim().length > PAQUETERIA_MAX) errors.paqueteria = MSG.guiasPaqueteriaLarga;
  }
  if (Object.keys(errors).length > 0) return { errors, body: null };
  const nota = optional(texto);
  const body: ClaimDecisionBody =
    accion === 'aceptar'
      ? { accion, resolucion: d.resolucion, ...(nota ? { nota } : {}) }
      : accion === 'rechazar'
        ? { accion, motivo: texto }
        : {
            accion,
            guia: d.guia.trim(),
            ...(optional(d.paqueteria) ? { paqueteria: d.paqueteria.trim() } : {}),
            ...(nota ? { nota } : {}),
          };
  return { errors, body };
}
