import { Navigate, useParams } from 'react-router';
import { ResetPasswordForm } from '../../../features/auth/components/reset-password-form';

export function Component() {
  const { token } = useParams();
  if (!token) return <Navigate to="/login" replace />;
  return <ResetPasswordForm key={token} token={token} />;
}
