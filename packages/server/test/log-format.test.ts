import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { configFromEnv } from '../src/config.ts';
import { formatLogLine, prettyStream, resolveLogFormat } from '../src/routes/logging.ts';
import { bearer, closeSharedStore, json, makeApp, sharedStore } from './app-harness.ts';

afterAll(closeSharedStore);

describe('log format', () => {
  it('is pretty on a terminal, JSON otherwise; DB8_LOG_FORMAT wins', () => {
    expect(resolveLogFormat(undefined, true)).toBe('pretty');
    expect(resolveLogFormat(undefined, false)).toBe('json');
    expect(resolveLogFormat('json', true)).toBe('json');
    expect(resolveLogFormat('pretty', false)).toBe('pretty');
    expect(configFromEnv({ DB8_LOG_FORMAT: 'json' }).logFormat).toBe('json');
    expect(configFromEnv({ DB8_LOG_FORMAT: 'nonsense' }).logFormat).toBeUndefined();
  });

  it('the pretty stream turns pino JSON lines, split anywhere, into lines', () => {
    const out: string[] = [];
    const sink = new Writable({
      write(chunk, _e, cb) {
        out.push(String(chunk));
        cb();
      },
    });
    const s = prettyStream(sink);
    s.write('{"level":30,"time":0,"msg":"a"}\n{"level":40,');
    s.write('"time":0,"msg":"b"}\nnot json\n');
    expect(out.join('')).toBe('00:00:00 info  a\n00:00:00 warn  b\nnot json\n');
  });

  it('formats entries as one readable line', () => {
    const time = Date.parse('2026-01-02T12:04:10Z');
    expect(
      formatLogLine({ level: 30, time, pid: 1, hostname: 'h', msg: 'Server listening', port: 8787 }),
    ).toBe('12:04:10 info  Server listening port=8787');
    expect(
      formatLogLine({
        level: 20,
        time,
        reqId: 'req-1',
        req: { method: 'GET', url: '/v1/rooms?token=[redacted]' },
        res: { statusCode: 200 },
        responseTime: 3.4,
        msg: 'request completed',
      }),
    ).toBe('12:04:10 debug GET /v1/rooms?token=[redacted] 200 3 ms');
    const line = formatLogLine({
      level: 50,
      time,
      msg: 'deadline scheduler',
      err: { type: 'Error', message: 'boom', stack: 'Error: boom\n    at x (y.ts:1:1)' },
    });
    expect(line).toBe('12:04:10 error deadline scheduler - Error: boom\n    at x (y.ts:1:1)');
  });

  it('a pretty server logs requests at debug only, readably, with secrets redacted', async () => {
    const store = await sharedStore();
    for (const [level, expectRequests] of [
      ['info', false],
      ['debug', true],
    ] as const) {
      const h = await makeApp({ store, config: { logLevel: level, logFormat: 'pretty' } });
      try {
        const created = await h.app.inject({ method: 'POST', url: '/v1/agents', ...json({ name: 'x' }) });
        const apiKey: string = created.json().api_key;
        await h.app.inject({ method: 'GET', url: '/v1/auth/me', headers: bearer(apiKey) });
        await h.app.inject({ method: 'GET', url: '/healthz?token=sekrit' });
        const all = h.logs.join('');
        expect(all).not.toContain(apiKey);
        expect(all).not.toContain('sekrit');
        expect(all).not.toMatch(/^\{/m);
        if (expectRequests) {
          expect(all).toMatch(/^\d\d:\d\d:\d\d debug POST \/v1\/agents 201 \d+ ms$/m);
          expect(all).toContain('GET /healthz?token=[redacted] 200');
        } else {
          expect(all).not.toContain('/v1/agents');
        }
      } finally {
        await h.close();
      }
    }
  });
});
