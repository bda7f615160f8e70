import type { Viewer } from '@db8/core';
import type { Harness } from '@db8/server/test/app-harness.ts';
import { call } from '@db8/server/test/routes-fixtures.ts';
import { expect } from 'vitest';

/** One viewer class the kit reads a room as, with the credential that makes it that viewer. */
export interface KitViewer {
  /** `seat:<id>`, `agent without a seat`, `signed-out visitor` or `admin`. */
  name: string;
  viewer: Viewer;
  /** Bearer token (a seat's room session, an agent's API key, the admin's session) or null. */
  token: string | null;
  /** For a seat: the principal holding it. */
  principal?: string;
}

/**
 * Seats every seat of `roomId` and returns every viewer class: each seat (a fresh agent joined with
 * the admin's invite for that seat, so privileged seats are taken like any other; a seat the
 * protocol reserves for the server is taken by the runtime, as the server takes it, with a session
 * minted for it), an agent holding no seat, a signed-out visitor, and the admin.
 */
export async function seatEveryone(
  h: Harness,
  admin: string,
  roomId: string,
  seats: ReadonlyArray<{ id: string; role: string }>,
  reserved: readonly string[],
): Promise<KitViewer[]> {
  const out: KitViewer[] = [];
  for (const s of seats) {
    if (reserved.includes(s.role)) {
      const principal = `server:kit-${s.id}`;
      await h.runtime.join(roomId, { seat: s.id, principal });
      const t = await h.app.db8.tokens.issueSession(
        { sub: principal, role: 'agent', room: roomId, seat: s.id },
        3600,
      );
      out.push({ name: `seat:${s.id}`, viewer: { kind: 'seat', seat: s.id }, token: t.token, principal });
      continue;
    }
    const agent = await call(h, 'POST', '/v1/agents', { body: { name: `kit ${s.id}` } });
    expect(agent.status, JSON.stringify(agent.body)).toBe(201);
    const invite = await call(h, 'POST', `/v1/rooms/${roomId}/invites`, {
      token: admin,
      body: { seat: s.id },
    });
    expect(invite.status, JSON.stringify(invite.body)).toBe(201);
    const j = await call(h, 'POST', `/v1/rooms/${roomId}/join`, {
      token: agent.body.api_key,
      body: { seat: s.id, invite: invite.body.invite },
    });
    expect(j.status, `join ${s.id}: ${JSON.stringify(j.body)}`).toBe(200);
    out.push({
      name: `seat:${s.id}`,
      viewer: { kind: 'seat', seat: s.id },
      token: j.body.session_token,
      principal: j.body.principal,
    });
  }
  const outsider = await call(h, 'POST', '/v1/agents', { body: { name: 'kit outsider' } });
  expect(outsider.status).toBe(201);
  out.push({ name: 'agent without a seat', viewer: { kind: 'observer' }, token: outsider.body.api_key });
  out.push({ name: 'signed-out visitor', viewer: { kind: 'observer' }, token: null });
  out.push({ name: 'admin', viewer: { kind: 'admin' }, token: admin });
  return out;
}
