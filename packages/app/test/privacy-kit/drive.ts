import type { AnyProtocol, Cast, CastStep, CastTurn, Legal } from '@db8/core';
import type { Harness } from '@db8/server/test/app-harness.ts';
import { call } from '@db8/server/test/routes-fixtures.ts';
import { expect } from 'vitest';
import { RoomSecrets } from './markers.ts';
import { type KitViewer, seatEveryone } from './viewers.ts';

/**
 * Plays a cast on the kit's server: opens its room (through `POST /v1/rooms` as the admin, or on the
 * runtime under the cast's id, as a replica opens it), seats every seat, and runs the steps —
 * actions over REST with each seat's own session (a seat the protocol reserves for the server acts
 * as the server does, on the runtime), time moved to each deadline on the test clock — calling
 * `probe` at each checkpoint and once more after the room has closed.
 */

export interface KitRoom {
  roomId: string;
  protocol: AnyProtocol;
  viewers: KitViewer[];
  secrets: RoomSecrets;
  /** The question id behind a `question` room (else the room id). */
  questionId: string;
}

const MAX_ROUNDS = 400;

export async function playCast(
  h: Harness,
  admin: string,
  cast: Cast,
  protocol: AnyProtocol,
  probe: (room: KitRoom, checkpoint: string) => Promise<void>,
): Promise<KitRoom> {
  const secrets = new RoomSecrets(cast.protocol.replace(/[^a-z0-9]/g, ''));
  const plan = cast.room({ marks: secrets, now: h.clock.now });
  let roomId: string;
  if (plan.id !== undefined) {
    const r = await h.runtime.createRoom({
      protocol: cast.protocol,
      config: plan.config,
      id: plan.id,
      ...(plan.title !== undefined ? { title: plan.title } : {}),
    });
    roomId = r.id;
  } else {
    const r = await call(h, 'POST', '/v1/rooms', {
      token: admin,
      body: { protocol: cast.protocol, config: plan.config, ...(plan.title ? { title: plan.title } : {}) },
    });
    expect(r.status, `create a ${cast.protocol} room: ${JSON.stringify(r.body)}`).toBe(201);
    roomId = r.body.room_id;
  }
  const info = await h.runtime.getRoom(roomId);
  const reserved = protocol.reservedRoles ?? [];
  const viewers = await seatEveryone(h, admin, roomId, info.seats, reserved);
  for (const v of viewers)
    if (v.viewer.kind === 'seat' && v.principal) secrets.principal(v.viewer.seat, v.principal);
  const env = (info.config as { envelope?: Record<string, unknown> }).envelope;
  const room: KitRoom = {
    roomId,
    protocol,
    viewers,
    secrets,
    questionId: typeof env?.['question/id'] === 'string' ? env['question/id'] : roomId,
  };
  const bySeat = new Map(viewers.flatMap((v) => (v.viewer.kind === 'seat' ? [[v.viewer.seat, v]] : [])));
  const reservedSeat = (seat: string) => reserved.includes(info.seats.find((s) => s.id === seat)?.role ?? '');

  const state = async (token: string | null) => {
    const r = await call(h, 'GET', `/v1/rooms/${roomId}/state`, { token: token ?? undefined });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body as {
      status: 'open' | 'closed';
      view: unknown;
      legal: Legal | null;
      turn_token: string | null;
      deadline_ms: number | null;
    };
  };
  const turnOf = async (seat: string): Promise<CastTurn> => {
    const s = await state(bySeat.get(seat)!.token);
    const legal: Legal = {
      actions: s.legal?.actions ?? [],
      ...(s.turn_token ? { turnToken: s.turn_token } : {}),
    };
    return { seat, view: s.view, legal, marks: secrets };
  };
  const act = async (seat: string, action: unknown) => {
    const text = JSON.stringify(action);
    secrets.sentBy(seat, text);
    if (reservedSeat(seat)) {
      await h.runtime.act(roomId, { seat, action });
      return;
    }
    const r = await call(h, 'POST', `/v1/rooms/${roomId}/actions`, {
      token: bySeat.get(seat)!.token!,
      body: { seat, action },
    });
    expect(r.status, `${seat} ${text.slice(0, 200)}: ${JSON.stringify(r.body)}`).toBe(200);
  };
  const advance = async () => {
    const s = await state(admin);
    expect(s.deadline_ms, 'the cast advances time, but the room has no deadline').not.toBeNull();
    if (s.deadline_ms! > h.clock.now) h.clock.now = s.deadline_ms!;
    await h.runtime.tick(roomId, h.clock.now);
  };

  const run = async (step: CastStep) => {
    switch (step.kind) {
      case 'act': {
        const action = typeof step.action === 'function' ? step.action(await turnOf(step.seat)) : step.action;
        return act(step.seat, action);
      }
      case 'advance':
        return advance();
      case 'checkpoint': {
        for (const s of step.secrets?.((await state(admin)).view) ?? []) secrets.dealt(s);
        return probe(room, step.name);
      }
      case 'play': {
        for (let round = 0; round < MAX_ROUNDS; round++) {
          const now = await state(admin);
          if (step.until(now.view)) return;
          if (now.status === 'closed')
            throw new Error(`${cast.protocol}: the room closed before a play step ended`);
          let acted = 0;
          for (const seat of step.seats) {
            const turn = await turnOf(seat);
            const action = step.decide(turn);
            if (action === null || action === undefined) continue;
            await act(seat, action);
            acted++;
          }
          if (acted === 0) {
            if (!step.advance)
              throw new Error(`${cast.protocol}: no seat acts and the play step may not wait`);
            await advance();
          }
        }
        throw new Error(`${cast.protocol}: a play step did not end in ${MAX_ROUNDS} rounds`);
      }
    }
  };
  for (const step of plan.steps) await run(step);
  const end = await state(admin);
  expect(end.status, `${cast.protocol}: a cast must play its room to the end`).toBe('closed');
  await probe(room, 'closed');
  return room;
}
