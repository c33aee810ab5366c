import { RecoverForm } from '../../../features/auth/components/recover-form';

export function Component() {
  return <RecoverForm />;
}
