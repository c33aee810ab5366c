import { CLIENT_PERMISSION_NAMES, type ClientPermission } from '@portal/shared/domain/client-admin';
import type { clients } from '../db/schema/index.ts';
import { MSG } from '../messages.ts';
import { makeClient, makeUser, TEST_PASSWORD } from './factories.ts';
import { ApiClient, type TestApp } from './harness.ts';
import { enrolTwoFactor } from './two-factor.ts';

let ipCounter = 1;
/** A new address per browser, so the sign-in throttle of one test never meets another's attempts. */
export const nextIp = () => `10.55.${Math.floor(ipCounter / 250)}.${(ipCounter++ % 250) + 1}`;

/** The refusals a client administrator (rol 5, decision 0122) meets. */
export const USER_NOT_FOUND = { code: 'USER_NOT_FOUND', msg: MSG.usuarioNoEncontrado };
export const CLIENT_NOT_FOUND = { code: 'CLIENT_NOT_FOUND', msg: MSG.clienteNoEncontrado };
export const FORBIDDEN = { code: 'FORBIDDEN', msg: MSG.sinPermiso };
/** A change its client does not allow. */
export const lacks = (permiso: ClientPermission) => ({
  code: 'CLIENT_PERMISSION',
  msg: MSG.permisoClienteFalta(CLIENT_PERMISSION_NAMES[permiso]),
});

/** A client (as given) with its administrator (rol 5) signed in and enrolled in two-factor sign-in. */
export async function clientWithAdmin(t: TestApp, values: Partial<typeof clients.$inferInsert> = {}) {
  const db = t.database.db;
  const client = await makeClient(db, values);
  const user = await makeUser(db, { rol: 5, idCliente: client.id, nombre: 'Clara Administradora' });
  const api = await new ApiClient(t.app, nextIp()).loginOk(user.usuario, TEST_PASSWORD);
  await enrolTwoFactor(api);
  return { client, user, api };
}
