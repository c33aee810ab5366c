import { IntegrationPage } from '../../../features/admin/integration/integration-page';

/** 'Integraciones': integration tokens and webhooks. */
export function Integraciones() {
  return <IntegrationPage />;
}
