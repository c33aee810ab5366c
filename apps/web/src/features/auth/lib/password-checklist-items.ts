import { MSG } from '@portal/shared/messages';

export interface ChecklistItem {
  key: string;
  texto: string;
  cumple: boolean;
}

/** The policy's checks, then (when the form has a confirmation) whether both entries match. */
export function checklistItems(
  checks: readonly { regla: string; texto: string; cumple: boolean }[],
  password: string,
  confirmation?: string,
): ChecklistItem[] {
  const items: ChecklistItem[] = checks.map((c) => ({ key: c.regla, texto: c.texto, cumple: c.cumple }));
  if (confirmation !== undefined) {
    items.push({
      key: 'coinciden',
      texto: MSG.reglaPasswordCoinciden,
      cumple: password.length > 0 && password === confirmation,
    });
  }
  return items;
}

/** What the live region says: all met, or how many and which are missing. */
export function checklistSummary(items: readonly ChecklistItem[]): string {
  const missing = items.filter((i) => !i.cumple);
  if (missing.length === 0) return MSG.reglasPasswordTodas;
  return MSG.reglasPasswordFaltan(
    items.length - missing.length,
    items.length,
    missing.map((i) => i.texto.toLowerCase()),
  );
}
