import { ApiError, zodDetails } from '../errors.ts';
import type { WireCodec, WireCommand, WireHost, WireReply, WireSession } from '../kit/wire.ts';
import { ackToWire, viewerToWire } from '../routes/wire.ts';
import { isSupportedVersion, MIN_SUPPORTED_PROTOCOL_VERSION, PROTOCOL_VERSION } from '../schemas/common.ts';
import { ClientMessageSchema } from '../schemas/ws.ts';
import { envelope } from './envelope.ts';
import type { Frame } from './frame.ts';

/**
 * db8's own realtime format, `/v1/ws` (docs/server.md): hello/welcome, subscribe to any number of
 * rooms (resume with `since`), `entry` and `state` pushes, `action` → `ack`/`error`, ping/pong.
 */
export const nativeWire: WireCodec = {
  path: '/v1/ws',
  session: (ctx) => new NativeSession(ctx),
};

class NativeSession implements WireSession {
  constructor(private readonly ctx: WireHost) {}

  async open() {
    return { helloFirst: true, greet: false };
  }

  decode(msg: unknown): WireCommand {
    const parsed = ClientMessageSchema.safeParse(msg);
    if (!parsed.success) {
      throw new ApiError(
        400,
        'VALIDATION_FAILED',
        'message does not match the schema',
        zodDetails(parsed.error),
      );
    }
    const m = parsed.data;
    const id = m.id !== undefined ? { id: m.id } : {};
    switch (m.type) {
      case 'ping':
        return { type: 'ping', ...id };
      case 'hello':
        return {
          type: 'hello',
          ...id,
          version: m.payload.client_protocol_version,
          ...(m.payload.token !== undefined ? { token: m.payload.token } : {}),
        };
      case 'subscribe':
        return {
          type: 'subscribe',
          ...id,
          roomId: m.payload.room_id,
          ...(m.payload.since !== undefined ? { since: m.payload.since } : {}),
          ...(m.payload.token !== undefined ? { token: m.payload.token } : {}),
          ...(m.payload.state !== undefined ? { state: m.payload.state } : {}),
          ...(m.payload.events !== undefined ? { events: m.payload.events } : {}),
        };
      case 'typing':
        return { type: 'typing', ...id, roomId: m.payload.room_id };
      case 'unsubscribe':
        return { type: 'unsubscribe', ...id, roomId: m.payload.room_id };
      case 'action': {
        const p = m.payload;
        return {
          type: 'action',
          ...id,
          roomId: p.room_id,
          seat: p.seat,
          action: p.action,
          ...(p.client_nonce !== undefined ? { clientNonce: p.client_nonce } : {}),
          ...(p.turn_token !== undefined ? { turnToken: p.turn_token } : {}),
          ...(p.expected_seq !== undefined ? { expectedSeq: p.expected_seq } : {}),
        };
      }
    }
  }

  outdated(v: string): ApiError | null {
    if (isSupportedVersion(v)) return null;
    return new ApiError(426, 'OUTDATED_CLIENT', `client protocol ${v} is no longer supported`, {
      protocol_version: PROTOCOL_VERSION,
      min_supported_protocol_version: MIN_SUPPORTED_PROTOCOL_VERSION,
      skill_doc_url: this.ctx.skillDocUrl,
    });
  }

  reply(r: WireReply, seq: number, now: number): string {
    switch (r.type) {
      case 'welcome':
        return envelope(
          'welcome',
          null,
          0,
          {
            protocol_version: PROTOCOL_VERSION,
            min_supported_protocol_version: MIN_SUPPORTED_PROTOCOL_VERSION,
            skill_doc_url: this.ctx.skillDocUrl,
            principal: r.auth?.principal ?? null,
            role: r.auth?.role ?? null,
            server_time_ms: now,
            heartbeat_ms: r.heartbeatMs,
          },
          now,
          r.id,
        );
      case 'pong':
        return envelope('pong', null, 0, {}, now, r.id);
      case 'subscribed':
        return envelope(
          'subscribed',
          r.roomId,
          r.headSeq,
          { room_id: r.roomId, viewer: viewerToWire(r.viewer), head_seq: r.headSeq },
          now,
          r.id,
        );
      case 'unsubscribed':
        return envelope('unsubscribed', r.roomId, 0, { room_id: r.roomId }, now, r.id);
      case 'ack':
        return envelope('ack', r.roomId, r.ack.seq, ackToWire(r.roomId, r.ack), now, r.id);
      case 'error':
        return envelope('error', r.roomId, seq, r.error, now, r.id);
    }
  }

  entry(f: Frame) {
    return [f.ws];
  }

  state(f: Frame) {
    return [f.ws];
  }

  event(roomId: string, seq: number, ev: unknown, now: number) {
    return envelope('event', roomId, seq, ev, now);
  }
}
