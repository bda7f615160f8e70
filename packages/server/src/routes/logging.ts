import { Writable } from 'node:stream';
import { clipText } from '@db8/core';
import { type FastifyReply, type FastifyRequest, type FastifyServerOptions, LogController } from 'fastify';

/** `pretty`: one human-readable line per entry (a terminal); `json`: pino's JSON lines. */
export type LogFormat = 'pretty' | 'json';

/**
 * DB8_LOG_FORMAT (`json` or `pretty`) wins; otherwise pretty when the output is a terminal, JSON
 * when it is a pipe or a file (log collectors keep getting JSON).
 */
export function resolveLogFormat(setting: string | undefined, isTty: boolean): LogFormat {
  if (setting === 'json' || setting === 'pretty') return setting;
  return isTty ? 'pretty' : 'json';
}

const LEVELS: Record<number, string> = {
  10: 'trace',
  20: 'debug',
  30: 'info',
  40: 'warn',
  50: 'error',
  60: 'fatal',
};
const QUIET = new Set([
  'level',
  'time',
  'pid',
  'hostname',
  'msg',
  'reqId',
  'req',
  'res',
  'responseTime',
  'err',
]);

function short(v: unknown): string {
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return clipText(s, 200, '...');
}

/**
 * One pino entry (parsed JSON) as a human-readable line: `12:04:10 info  message key=value`, a
 * request as `GET /v1/rooms 200 3 ms`, an error with its message (and stack at error and above).
 */
export function formatLogLine(entry: Record<string, unknown>): string {
  const t = typeof entry.time === 'number' ? new Date(entry.time).toISOString().slice(11, 19) : '--:--:--';
  const level = LEVELS[entry.level as number] ?? String(entry.level);
  const parts: string[] = [t, level.padEnd(5)];
  const req = entry.req as { method?: string; url?: string } | undefined;
  const res = entry.res as { statusCode?: number } | undefined;
  if (req?.method) {
    parts.push(`${req.method} ${req.url ?? ''}`);
    if (res?.statusCode !== undefined) parts.push(String(res.statusCode));
    if (typeof entry.responseTime === 'number') parts.push(`${entry.responseTime.toFixed(0)} ms`);
  } else if (typeof entry.msg === 'string') {
    parts.push(entry.msg);
  }
  if (
    req?.method &&
    typeof entry.msg === 'string' &&
    !/^(request completed|incoming request)$/.test(entry.msg)
  )
    parts.push(`- ${entry.msg}`);
  for (const [k, v] of Object.entries(entry))
    if (!QUIET.has(k) && v !== undefined) parts.push(`${k}=${short(v)}`);
  const err = entry.err as { message?: string; stack?: string; type?: string } | undefined;
  let line = parts.join(' ');
  if (err) {
    line += ` - ${err.type ?? 'Error'}: ${err.message ?? ''}`;
    if ((entry.level as number) >= 50 && err.stack) line += `\n${err.stack.split('\n').slice(1).join('\n')}`;
  }
  return line;
}

/** A stream pino writes its JSON lines to; `out` gets them as formatLogLine lines. */
export function prettyStream(out: NodeJS.WritableStream): Writable {
  let rest = '';
  return new Writable({
    write(chunk, _enc, cb) {
      const lines = (rest + String(chunk)).split('\n');
      rest = lines.pop() ?? '';
      let text = '';
      for (const l of lines) {
        if (!l.trim()) continue;
        try {
          text += `${formatLogLine(JSON.parse(l) as Record<string, unknown>)}\n`;
        } catch {
          text += `${l}\n`;
        }
      }
      if (text) out.write(text);
      cb();
    },
  });
}

/** Query parameters that carry secrets (WS/SSE tokens, invites) are masked in logged URLs. */
const SECRET_QUERY = /([?&](?:token|invite|api_key|access_token)=)[^&#]*/gi;

export function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY, '$1[redacted]');
}

/**
 * pino options (JSON lines, or formatLogLine lines with format `pretty`): never log Authorization headers, cookies, API keys or tokens, wherever they appear
 * in a logged object.
 */
export function loggerOptions(
  level: string,
  stream?: NodeJS.WritableStream,
  format: LogFormat = 'json',
): FastifyServerOptions['logger'] {
  if (level === 'silent') return false;
  const out = format === 'pretty' ? prettyStream(stream ?? process.stdout) : stream;
  return {
    level,
    ...(out ? { stream: out } : {}),
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

/**
 * Requests are logged once, when answered, at debug (with method, URL, status and time); failures
 * while answering stay at error as Fastify logs them.
 */
export class DebugRequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (error) {
      super.requestCompleted(error, request, reply);
      return;
    }
    request.log.debug(
      { req: request, res: { statusCode: reply.statusCode }, responseTime: reply.elapsedTime },
      'request completed',
    );
  }
}
