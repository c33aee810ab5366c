import { AuthLayout } from '../../../components/layouts/auth-layout';
import { ForcedPasswordChange } from '../../../features/auth/components/forced-password-change';

/** The forced change-password screen, in the auth shell without its public navigation. */
export function Component() {
  return (
    <AuthLayout withNav={false}>
      <ForcedPasswordChange />
    </AuthLayout>
  );
}
