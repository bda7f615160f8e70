import type { FastifyServerOptions } from 'fastify';

/** Query parameters that carry secrets (WS/SSE tokens, invites) are masked in logged URLs. */
const SECRET_QUERY = /([?&](?:token|invite|api_key|access_token)=)[^&#]*/gi;

export function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY, '$1[redacted]');
}

/**
 * pino options: never log Authorization headers, cookies, API keys or tokens, wherever they appear
 * in a logged object.
 */
export function loggerOptions(level: string, stream?: NodeJS.WritableStream): FastifyServerOptions['logger'] {
  if (level === 'silent') return false;
  return {
    level,
    ...(stream ? { stream } : {}),
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'req.headers["x-api-key"]',
        'res.headers["set-cookie"]',
        'api_key',
        'token',
        'session_token',
        'invite',
        'seed',
        '*.api_key',
        '*.token',
        '*.session_token',
        '*.invite',
        '*.seed',
        '*.authorization',
      ],
      censor: '[redacted]',
    },
    serializers: {
      req(req: { method?: string; url?: string; ip?: string; id?: string }) {
        return { id: req.id, method: req.method, url: redactUrl(req.url ?? ''), ip: req.ip };
      },
    },
  };
}
