import { type StartedServer, startEmbeddedServer } from '@db8/server/test/started-server.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// DELETE /v1/debates/:id cancels (the session and its rows stay, `cancelled`, with who and why);
// purging the storage rows is a separate admin act (POST /v1/debates/:id/purge).

let started: StartedServer;

// biome-ignore lint/suspicious/noExplicitAny: response bodies are inspected freely by tests.
type Json = any;

async function api(method: string, path: string, body?: unknown): Promise<{ status: number; json: Json }> {
  const res = await fetch(`${started.server.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${started.admin}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null };
}

const REMOTE = ['architect', 'critic', 'reviewer'].map((role, i) => ({
  name: `s${i}`,
  role,
  provider: 'remote',
}));

const historyRow = async (id: string) =>
  ((await api('GET', '/v1/deliberation/history')).json.sessions as Json[]).find((s) => s.roomId === id);

beforeAll(async () => {
  started = await startEmbeddedServer('db8-deliberation-lifecycle-');
});

afterAll(async () => {
  await started?.close();
});

describe('a deliberation is cancelled, then (separately) purged', () => {
  it('DELETE cancels with who and why; the rows stay until an admin purges them', async () => {
    const created = await api('POST', '/v1/debates', { topic: 'Cancel me', participants: REMOTE });
    expect(created.status).toBe(201);
    const id = created.json.id as string;
    // Purging a running session is refused: cancel first.
    expect((await api('POST', `/v1/debates/${id}/purge`)).json.error.code).toBe('SESSION_RUNNING');

    const r = await api('DELETE', `/v1/debates/${id}?reason=${encodeURIComponent('wrong topic')}`);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ id, status: 'cancelled', cancellation: { reason: 'wrong topic' } });
    expect(r.json.cancellation.by).toMatch(/\S/);
    expect(r.json.cancellation.by).not.toBe('operator'); // the admin who asked, not the seat used

    // The session and its storage row stay, cancelled, with who and why.
    expect((await api('GET', `/v1/debates/${id}/status`)).json.status).toBe('cancelled');
    const results = (await api('GET', `/v1/debates/${id}/results`)).json;
    expect(results.cancellation).toEqual(r.json.cancellation);
    expect((await historyRow(id))?.status).toBe('cancelled');
    const audit = (await api('GET', `/v1/debates/${id}/audit`)).json;
    expect(audit.events.filter((e: Json) => e.type === 'cancel')).toHaveLength(1);
    expect(audit.events.some((e: Json) => e.type === 'forfeit')).toBe(false);
    // Cancelling twice is a client mistake, not a 500.
    const again = await api('DELETE', `/v1/debates/${id}`);
    expect(again.status).toBe(409);
    expect(again.json.error.code).toBe('SESSION_OVER');

    // Purge: the storage rows go; the signed log stays.
    const purge = await api('POST', `/v1/debates/${id}/purge`);
    expect(purge).toMatchObject({ status: 200, json: { id, purged: true } });
    expect(await historyRow(id)).toBeUndefined();
    expect((await api('GET', `/v1/debates/${id}/audit`)).json.total_events).toBe(audit.total_events);
  });

  it('a bad reason is a 400, never a 500', async () => {
    const id = (await api('POST', '/v1/debates', { topic: 'x', participants: REMOTE })).json.id as string;
    const r = await api('DELETE', `/v1/debates/${id}?reason=`);
    expect(r.status).toBe(400);
    expect((await api('GET', `/v1/debates/${id}/status`)).json.status).toBe('running');
  });
});
