import { MSG } from '../messages.ts';

export const PASSWORD_MIN_LENGTH = 8;

/** A temporary password (an administrator's reset) opens the account for this long after it was set. */
export const TEMPORARY_PASSWORD_TTL_HOURS = 72;

/** True when the account's password is a temporary one set 72 hours ago or more (or at an unknown time). */
export function temporaryPasswordExpired(
  account: { passwordTemporary: boolean; passwordChangedAt: Date | null },
  now: Date,
): boolean {
  if (!account.passwordTemporary) return false;
  if (!account.passwordChangedAt) return true;
  return now.getTime() - account.passwordChangedAt.getTime() >= TEMPORARY_PASSWORD_TTL_HOURS * 3_600_000;
}

export type PasswordRule = 'longitud' | 'mayuscula' | 'numero' | 'simbolo';

/** The policy's rules one by one, in the order the screens list them (docs/domain.md "Passwords"). */
export const PASSWORD_RULES: readonly {
  regla: PasswordRule;
  texto: string;
  cumple: (p: string) => boolean;
}[] = [
  {
    regla: 'longitud',
    texto: MSG.reglaPasswordLongitud,
    cumple: (p) => p.length >= PASSWORD_MIN_LENGTH,
  },
  { regla: 'mayuscula', texto: MSG.reglaPasswordMayuscula, cumple: (p) => /[A-ZÁÉÍÓÚÑÜ]/.test(p) },
  { regla: 'numero', texto: MSG.reglaPasswordNumero, cumple: (p) => /\d/.test(p) },
  {
    regla: 'simbolo',
    texto: MSG.reglaPasswordSimbolo,
    cumple: (p) => /[^A-Za-z0-9ÁÉÍÓÚÑÜáéíóúñü\s]/.test(p),
  },
];

/** Each rule of the policy and whether the password meets it (the live checklist of every password form). */
export function passwordRuleChecks(
  password: string,
): { regla: PasswordRule; texto: string; cumple: boolean }[] {
  return PASSWORD_RULES.map(({ regla, texto, cumple }) => ({ regla, texto, cumple: cumple(password) }));
}

/** True when the password meets the policy: 8+ characters, an uppercase letter, a digit and a symbol. */
export function passwordMeetsPolicy(password: string): boolean {
  return PASSWORD_RULES.every(({ cumple }) => cumple(password));
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
