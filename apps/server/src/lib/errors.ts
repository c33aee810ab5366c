import { MSG } from '../messages.ts';

/** An expected refusal: a 4xx with a stable code and a Spanish message. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly errors?: Record<string, string>,
    /** Seconds until the caller may try again (a 429's Retry-After header). */
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (code: string, msg: string, errors?: Record<string, string>) =>
  new AppError(400, code, msg, errors);
export const unauthorized = (msg: string = MSG.sesionRequerida, code = 'UNAUTHENTICATED') =>
  new AppError(401, code, msg);
export const forbidden = (msg: string = MSG.sinPermiso, code = 'FORBIDDEN') => new AppError(403, code, msg);
export const notFound = (msg: string = MSG.noEncontrado, code = 'NOT_FOUND') => new AppError(404, code, msg);
export const conflict = (code: string, msg: string) => new AppError(409, code, msg);
export const unprocessable = (code: string, msg: string) => new AppError(422, code, msg);
export const tooMany = (msg: string, code = 'RATE_LIMITED', retryAfterSeconds?: number) =>
  new AppError(429, code, msg, undefined, retryAfterSeconds);
