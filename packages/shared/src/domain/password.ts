import { MSG } from '../messages.ts';

export const PASSWORD_MIN_LENGTH = 8;

/** A temporary password (an administrator's reset) opens the account for this long after it was set. */
export const TEMPORARY_PASSWORD_TTL_HOURS = 72;

/** True when the account's password is a temporary one set 72 hours ago or more (or at an unknown time). */
export function temporaryPasswordExpired(
  account: { passwordTemporary: boolean; passwordChangedAt: Date | null },
  now: Date = new Date(),
): boolean {
  if (!account.passwordTemporary) return false;
  if (!account.passwordChangedAt) return true;
  return now.getTime() - account.passwordChangedAt.getTime() >= TEMPORARY_PASSWORD_TTL_HOURS * 3_600_000;
}

/** True when the password meets the policy: 8+ characters, an uppercase letter, a digit and a symbol. */
export function passwordMeetsPolicy(password: string): boolean {
  return (
    password.length >= PASSWORD_MIN_LENGTH &&
    /[A-ZÁÉÍÓÚÑÜ]/.test(password) &&
    /\d/.test(password) &&
    /[^A-Za-z0-9ÁÉÍÓÚÑÜáéíóúñü\s]/.test(password)
  );
}

export interface NewPasswordInput {
  newPass: string;
  confirmPass: string;
}

/** The spec's message for the first problem of a new-password form, or null when it is fine. */
export function newPasswordProblem(input: NewPasswordInput, current?: string): string | null {
  if (!input.newPass || !input.confirmPass || current === '') return MSG.todosLosCampos;
  if (!passwordMeetsPolicy(input.newPass)) return MSG.passwordPolitica;
  if (input.newPass !== input.confirmPass) return MSG.passwordsNoCoinciden;
  return null;
}
