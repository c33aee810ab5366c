/**
 * The one HTTP client of the web app.
 * - Same-origin fetch with cookies (the session cookie is httpOnly).
 * - Before the first state-changing call, and again after sign-in/out, it makes sure the XSRF-TOKEN cookie
 *   exists (GET /sanctum/csrf-cookie) and sends its value in X-XSRF-TOKEN on POST/PUT/PATCH/DELETE.
 * - A 419 (token expired) refreshes the cookie once and retries.
 * - Errors arrive as `{code, msg, errors?}` and are thrown as ApiError.
 * - A 401 (except from the sign-in itself), a 403 PASSWORD_CHANGE_REQUIRED and a 403
 *   TWO_FACTOR_ENROLMENT_REQUIRED are reported to handlers the app registers (they navigate), so this module
 *   knows nothing about the router.
 */
import { MSG } from '@portal/shared/messages';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export const PASSWORD_CHANGE_REQUIRED = 'PASSWORD_CHANGE_REQUIRED';
export const TWO_FACTOR_ENROLMENT_REQUIRED = 'TWO_FACTOR_ENROLMENT_REQUIRED';
const XSRF_COOKIE = 'XSRF-TOKEN';
const XSRF_HEADER = 'X-XSRF-TOKEN';

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  /** The server's Spanish message ('' when it sent none; use errorMessage() to show one). */
  readonly msg: string;
  readonly errors: Record<string, string> | undefined;
  /** A server error's request id (`soporte` in the body, else the X-Request-Id header). */
  readonly soporte: string | undefined;

  constructor(status: number, code: string, msg: string, errors?: Record<string, string>, soporte?: string) {
    super(msg || (status >= 500 || status === 0 ? MSG.errorInterno : MSG.ocurrioUnError));
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.msg = msg;
    this.errors = errors;
    this.soporte = soporte;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

export interface RequestOptions {
  /** JSON body (or FormData for uploads). */
  body?: unknown;
  /** A body built from the current XSRF token (the sign-in envelope); rebuilt when the token is refreshed. */
  bodyFromToken?: (xsrfToken: string) => unknown;
  signal?: AbortSignal;
  /** The answer's type asked for (`Accept`); JSON unless a file is wanted in another form (text/csv). */
  accept?: string;
  /**
   * Do not report a 401 to the unauthorized handler (the caller deals with it): always, or only the 401s
   * the predicate picks (a wrong code is the form's business; a lost session is still reported).
   */
  skipUnauthorizedHandler?: boolean | ((error: ApiError) => boolean);
}

interface Handlers {
  onUnauthorized: (error: ApiError) => void;
  onPasswordChangeRequired: (error: ApiError) => void;
  onTwoFactorEnrolmentRequired: (error: ApiError) => void;
}

const handlers: Handlers = {
  onUnauthorized: () => {},
  onPasswordChangeRequired: () => {},
  onTwoFactorEnrolmentRequired: () => {},
};

/**
 * The app registers what happens on a 401, a forced password change or a due two-factor enrolment
 * (navigation).
 */
export function setApiHandlers(next: Partial<Handlers>): void {
  Object.assign(handlers, next);
}

/** The XSRF-TOKEN cookie value, URL-decoded, or null. */
export function readXsrfToken(): string | null {
  if (typeof document === 'undefined') return null;
  for (const part of document.cookie.split(';')) {
    const [rawName, ...rest] = part.trim().split('=');
    if (rawName === XSRF_COOKIE) {
      const value = rest.join('=');
      try {
        return decodeURIComponent(value);
      } catch {
        return value;
      }
    }
  }
  return null;
}

let csrfChecked = false;
let csrfInFlight: Promise<void> | null = null;

/** Asks the server for a fresh XSRF cookie (and a session cookie when there is none). */
export function refreshCsrfCookie(): Promise<void> {
  if (!csrfInFlight) {
    csrfInFlight = fetch('/sanctum/csrf-cookie', {
      credentials: 'include',
      headers: { Accept: 'application/json' },
    })
      .then((res) => {
        if (!res.ok) throw new ApiError(res.status, `HTTP_${res.status}`, MSG.servicioNoDisponible);
        csrfChecked = true;
      })
      .catch((error: unknown) => {
        if (error instanceof ApiError) throw error;
        throw new ApiError(0, 'NETWORK', MSG.servicioNoDisponible);
      })
      .finally(() => {
        csrfInFlight = null;
      });
  }
  return csrfInFlight;
}

/** Makes sure the XSRF cookie exists before a state-changing call. */
export async function ensureCsrfCookie(): Promise<string> {
  if (!csrfChecked || !readXsrfToken()) await refreshCsrfCookie();
  const token = readXsrfToken();
  if (!token) throw new ApiError(419, 'CSRF', MSG.csrfInvalido);
  return token;
}

/** After sign-in or sign-out the session (and its token) changed: check the cookie again next time. */
export function markCsrfStale(): void {
  csrfChecked = false;
}

function isStateChanging(method: HttpMethod): boolean {
  return method !== 'GET';
}

async function errorFrom(res: Response): Promise<ApiError> {
  let code = `HTTP_${res.status}`;
  let msg = '';
  let errors: Record<string, string> | undefined;
  // A server error names its request, so support can find it ('Código de soporte').
  let soporte = res.status >= 500 ? (res.headers.get('x-request-id') ?? undefined) : undefined;
  try {
    const body: unknown = await res.json();
    if (body && typeof body === 'object') {
      const b = body as Record<string, unknown>;
      if (typeof b.code === 'string') code = b.code;
      if (res.status >= 500 && typeof b.soporte === 'string' && b.soporte) soporte = b.soporte;
      if (typeof b.msg === 'string' && b.msg) msg = b.msg;
      if (b.errors && typeof b.errors === 'object') {
        errors = Object.fromEntries(
          Object.entries(b.errors as Record<string, unknown>).filter(
            (entry): entry is [string, string] => typeof entry[1] === 'string',
          ),
        );
      }
    }
  } catch {
    // Not JSON (a proxy page, an empty body): keep the generic message.
  }
  return new ApiError(res.status, code, msg, errors, soporte);
}

async function send(method: HttpMethod, path: string, options: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = { Accept: options.accept ?? 'application/json' };
  let body: BodyInit | undefined;
  let token: string | null = null;
  if (isStateChanging(method)) {
    token = await ensureCsrfCookie();
    headers[XSRF_HEADER] = token;
  }
  const payload = options.bodyFromToken
    ? options.bodyFromToken(token ?? readXsrfToken() ?? '')
    : options.body;
  if (payload instanceof FormData) {
    body = payload;
  } else if (payload !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(payload);
  }
  try {
    return await fetch(path, { method, headers, body, credentials: 'include', signal: options.signal });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'NETWORK', MSG.servicioNoDisponible);
  }
}

/** Sends a request (retrying once after a 419) and returns the response, or throws the ApiError. */
async function checkedResponse(method: HttpMethod, path: string, options: RequestOptions): Promise<Response> {
  let res = await send(method, path, options);
  if (res.status === 419 && isStateChanging(method)) {
    await refreshCsrfCookie();
    res = await send(method, path, options);
  }
  if (!res.ok) {
    const error = await errorFrom(res);
    const skip = options.skipUnauthorizedHandler;
    if (error.status === 401 && !(typeof skip === 'function' ? skip(error) : skip))
      handlers.onUnauthorized(error);
    if (error.status === 403 && error.code === PASSWORD_CHANGE_REQUIRED)
      handlers.onPasswordChangeRequired(error);
    if (error.status === 403 && error.code === TWO_FACTOR_ENROLMENT_REQUIRED)
      handlers.onTwoFactorEnrolmentRequired(error);
    throw error;
  }
  return res;
}

/** Sends a request and returns the parsed JSON body (undefined for 204). */
export async function apiRequest<T>(
  method: HttpMethod,
  path: string,
  options: RequestOptions = {},
): Promise<T> {
  const res = await checkedResponse(method, path, options);
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** Sends a request whose answer is a file (a CSV report, a template) and returns it as a Blob. */
export async function apiBlob(method: HttpMethod, path: string, options: RequestOptions = {}): Promise<Blob> {
  const res = await checkedResponse(method, path, options);
  return res.blob();
}

/**
 * Like apiBlob, with the file name the server gives in Content-Disposition (`filename="…"`), or
 * `fallback` when it gives none.
 */
export async function apiFile(
  method: HttpMethod,
  path: string,
  fallback: string,
  options: RequestOptions = {},
): Promise<{ blob: Blob; filename: string }> {
  const res = await checkedResponse(method, path, options);
  const named = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '');
  return { blob: await res.blob(), filename: named?.[1] ?? fallback };
}

export const api = {
  get: <T>(path: string, options?: RequestOptions) => apiRequest<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    apiRequest<T>('POST', path, { ...options, body }),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    apiRequest<T>('PUT', path, { ...options, body }),
  patch: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    apiRequest<T>('PATCH', path, { ...options, body }),
  delete: <T>(path: string, options?: RequestOptions) => apiRequest<T>('DELETE', path, options),
};

/** The message to show for any thrown value: the server's, else the fallback. */
export function errorMessage(error: unknown, fallback?: string): string {
  if (error instanceof ApiError) {
    const support = error.soporte ? ` ${MSG.codigoSoporte(error.soporte)}` : '';
    if (error.msg) return `${error.msg}${support}`;
    if (error.status === 0) return MSG.servicioNoDisponible;
    if (error.status >= 500) return `${MSG.errorInterno}${support}`;
  }
  return fallback ?? MSG.ocurrioUnError;
}
