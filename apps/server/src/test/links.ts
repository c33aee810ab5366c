import { randomInt } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { Db } from '../db/client.ts';
import { passwordTokens } from '../db/schema/index.ts';
import { hashToken, newToken } from '../lib/tokens.ts';
import { MSG } from '../messages.ts';
import { ApiClient } from './harness.ts';

/** A link's token as it appears in an e-mail (`…/restablecer/<token>`). */
export function linkIn(text: string): string {
  const token = /\/restablecer\/([\w-]+)/.exec(text)?.[1];
  if (!token) throw new Error('el correo no trae un enlace de restablecimiento');
  return token;
}

/** One live link of each purpose for the user, stored as the server stores them (only the hash). */
export async function plantLinks(
  db: Db,
  userId: number,
  /** The server's now (its clock): the links live an hour from it. */
  now: Date = new Date(),
): Promise<{ bienvenida: string; recuperacion: string }> {
  const bienvenida = newToken();
  const recuperacion = newToken();
  const expiresAt = new Date(now.getTime() + 3_600_000);
  await db.insert(passwordTokens).values([
    { userId, tokenHash: hashToken(bienvenida), purpose: 'bienvenida', expiresAt },
    { userId, tokenHash: hashToken(recuperacion), purpose: 'recuperacion', expiresAt },
  ]);
  return { bienvenida, recuperacion };
}

/** Moves a link's expiry to an hour ago, by the database's clock. */
export async function expireLink(db: Db, token: string): Promise<void> {
  await db
    .update(passwordTokens)
    .set({ expiresAt: sql`now() - interval '1 hour'` })
    .where(eq(passwordTokens.tokenHash, hashToken(token)));
}

/** A browser of its own (its own address, so the link endpoints' per-address ceiling is never reached). */
const anyone = (app: FastifyInstance) =>
  new ApiClient(app, `10.${randomInt(100, 250)}.${randomInt(0, 256)}.${randomInt(1, 255)}`);

/** The link opens the set-password form (the check does not use it up). */
export async function expectLinkLive(app: FastifyInstance, token: string, what = 'enlace'): Promise<void> {
  const res = await anyone(app).post('/api/restablecer/verificar', { token });
  expect(res.statusCode, `${what}: ${res.body}`).toBe(200);
}

/** The link neither opens the form nor sets a password: 400 BAD_TOKEN with the Spanish message, twice. */
export async function expectLinkRefused(app: FastifyInstance, token: string, what = 'enlace'): Promise<void> {
  const check = await anyone(app).post('/api/restablecer/verificar', { token });
  expect(check.statusCode, `${what} (verificar)`).toBe(400);
  expect(check.json(), what).toMatchObject({ code: 'BAD_TOKEN', msg: MSG.enlaceInvalido });
  const set = await anyone(app).post('/api/restablecer-password', {
    token,
    newPass: 'Tomada#2026',
    confirmPass: 'Tomada#2026',
  });
  expect(set.statusCode, `${what} (restablecer)`).toBe(400);
  expect(set.json(), what).toMatchObject({ code: 'BAD_TOKEN', msg: MSG.enlaceInvalido });
}
