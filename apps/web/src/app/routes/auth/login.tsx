import { LoginForm } from '../../../features/auth/components/login-form';

export function Component() {
  return <LoginForm />;
}
