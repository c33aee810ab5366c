import { AuthLayout } from '../../../components/layouts/auth-layout';
import { ForcedTwoFactorEnrolment } from '../../../features/auth/components/forced-two-factor-enrolment';
import { Enrolment } from '../../../features/two-factor/components/enrolment';

/** The forced two-factor enrolment, in the auth shell without its public navigation. */
export function Component() {
  return (
    <AuthLayout withNav={false}>
      <ForcedTwoFactorEnrolment
        enrolment={({ usuario, onDone }) => (
          <Enrolment usuario={usuario} onDone={onDone} size="md" fullWidth />
        )}
      />
    </AuthLayout>
  );
}
