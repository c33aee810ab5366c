import { newPasswordProblem } from '@portal/shared/domain/password';
import { MSG } from '@portal/shared/messages';

export interface PasswordValues {
  /** The current password, when the form asks for it. */
  password?: string;
  newPass: string;
  confirmPass: string;
}

export type PasswordField = keyof PasswordValues;

/**
 * The problem of a new-password form (docs/domain.md "Passwords"), placed on the field it concerns:
 * 'required' on the first empty field (the other empty ones are only outlined), the policy on the new
 * password and the mismatch on the confirmation.
 */
export function passwordFieldErrors(
  values: PasswordValues,
): Partial<Record<PasswordField, string | true>> | null {
  const asksCurrent = values.password !== undefined;
  const problem = newPasswordProblem(values, asksCurrent ? values.password : undefined);
  if (!problem) return null;
  if (problem === MSG.todosLosCampos) {
    const order: PasswordField[] = asksCurrent
      ? ['password', 'newPass', 'confirmPass']
      : ['newPass', 'confirmPass'];
    const empty = order.filter((field) => !values[field]);
    const errors: Partial<Record<PasswordField, string | true>> = {};
    empty.forEach((field, i) => {
      errors[field] = i === 0 ? problem : true;
    });
    return errors;
  }
  if (problem === MSG.passwordsNoCoinciden) return { confirmPass: problem };
  return { newPass: problem };
}
