import type { FastifyInstance } from 'fastify';
import { IN_PROCESS_HEADER } from '../auth/limits.ts';
import type { ErrorBody } from '../schemas/common.ts';

/**
 * The MCP tools call the REST API of the same app in-process (Fastify inject) with the MCP
 * request's own credentials. So MCP gets the REST access rules, validation, version guard and
 * error codes by construction: nothing about who may see or do what is restated here. The MCP
 * request carrying the call was metered at the door (one token per request); the calls it makes
 * in-process say so (IN_PROCESS_HEADER) and are not metered again.
 */

export type RestResult<T> =
  | { ok: true; status: number; body: T }
  | { ok: false; status: number; body: ErrorBody };

export class RestCaller {
  constructor(
    private readonly app: FastifyInstance,
    /** The `Authorization` header of the MCP request being served (null: anonymous). */
    private readonly authorization: string | null,
  ) {}

  get<T>(url: string): Promise<RestResult<T>> {
    return this.call<T>('GET', url);
  }

  post<T>(url: string, body: unknown): Promise<RestResult<T>> {
    return this.call<T>('POST', url, body);
  }

  /** A non-JSON body (the JSONL export) as text. */
  async text(url: string): Promise<RestResult<string>> {
    const res = await this.app.inject({ method: 'GET', url, headers: this.headers() });
    if (res.statusCode < 400) return { ok: true, status: res.statusCode, body: res.body };
    return { ok: false, status: res.statusCode, body: asErrorBody(res.statusCode, res.body) };
  }

  private headers(): Record<string, string> {
    return {
      [IN_PROCESS_HEADER]: this.app.db8.limits.inProcess,
      ...(this.authorization ? { authorization: this.authorization } : {}),
    };
  }

  private async call<T>(method: 'GET' | 'POST', url: string, body?: unknown): Promise<RestResult<T>> {
    const res = await this.app.inject({
      method,
      url,
      headers: { ...this.headers(), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
    });
    if (res.statusCode < 400) return { ok: true, status: res.statusCode, body: JSON.parse(res.body) as T };
    return { ok: false, status: res.statusCode, body: asErrorBody(res.statusCode, res.body) };
  }
}

function asErrorBody(status: number, text: string): ErrorBody {
  try {
    const parsed = JSON.parse(text) as ErrorBody;
    if (parsed && typeof parsed === 'object' && parsed.error && typeof parsed.error.code === 'string')
      return parsed;
  } catch {
    // fall through: not our error shape
  }
  return { error: { code: status >= 500 ? 'INTERNAL' : 'BAD_REQUEST', message: `HTTP ${status}` } };
}

/** Query string from defined values only. */
export function query(params: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}
