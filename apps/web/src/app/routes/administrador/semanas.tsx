import { WeeksPage } from '../../../features/admin-a/components/weeks-page';

export function Semanas() {
  return <WeeksPage />;
}
