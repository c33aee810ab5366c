/**
 * Saved lists (docs/domain.md "Cart", decision 0043): the rule that makes two names the same list name.
 */

/**
 * The key that makes a list name unique per user: spaces trimmed and collapsed, lower case, accents
 * removed ("Papelería  Mensual" and "papeleria mensual" are one name).
 */
export function listNameKey(nombre: string): string {
  return nombre
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .trim()
    .replace(/\s+/g, ' ');
}
