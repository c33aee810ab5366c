import { AuthLayout } from '../../../components/layouts/auth-layout';
import { ForcedTwoFactorEnrolment } from '../../../features/auth/components/forced-two-factor-enrolment';

/** The forced two-factor enrolment, in the auth shell without its public navigation. */
export function Component() {
  return (
    <AuthLayout withNav={false}>
      <ForcedTwoFactorEnrolment />
    </AuthLayout>
  );
}
