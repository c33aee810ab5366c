/**
 * The multipart body of an administration form (a client, a product): the named fields that have a value,
 * as text, yes/no as 1/0. The names come from the request's schema (`Object.keys(Schema.shape)`), so a
 * DTO passed whole sends only the body's fields.
 */
export function toFormData<T extends object>(fields: T, names: readonly (keyof T & string)[]): FormData {
  const body = new FormData();
  for (const name of names) {
    const value = fields[name];
    if (value === undefined || value === null) continue;
    body.set(name, typeof value === 'boolean' ? (value ? '1' : '0') : String(value));
  }
  return body;
}
