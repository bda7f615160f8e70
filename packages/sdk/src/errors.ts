/** An error answered by the server (`{error:{code,message,details}}`), or a transport failure. */
export class Db8Error extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'Db8Error';
  }
}

export function errorFromBody(status: number, body: unknown, fallback: string): Db8Error {
  const e = (body as { error?: { code?: unknown; message?: unknown; details?: unknown } } | null)?.error;
  if (e && typeof e.code === 'string') {
    return new Db8Error(status, e.code, typeof e.message === 'string' ? e.message : e.code, e.details);
  }
  return new Db8Error(status, `HTTP_${status}`, fallback);
}
