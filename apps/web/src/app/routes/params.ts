import { MAX_ID } from '@portal/shared/limits';

/** A positive integer route parameter, or null. */
export function positiveId(value: string | undefined): number | null {
  if (!value || !/^\d{1,10}$/.test(value)) return null;
  const id = Number(value);
  return id > 0 && id <= MAX_ID ? id : null;
}
