import { WeeksPage } from '../../../features/admin/weeks/weeks-page';

export function Semanas() {
  return <WeeksPage />;
}
