import { hashCanonical, parseJson, truncateCodePoints } from '@db8/core';
import type { ModuleRuntime as Runtime, StreamMessage } from '@db8/server/kit';
import { RuntimeError } from '@db8/server/kit';
import {
  admitQuestion,
  admitRoomInput,
  DEFAULT_MAX_ENVELOPE_BYTES,
  FEDERATION_SCOPES,
  type Refusal as GateRefusal,
  type IngestOptions,
  inputIdOf,
  type QuestionState,
  questionConfig,
  RELAY_SEAT,
  type RoomInput,
} from '../rules/index.ts';
import type { SwarmOptions } from './options.ts';
import { wasPurged } from './retention.ts';
import { roomIdOf, roomSeedOf, type Subjects } from './subjects.ts';

/**
 * One node's copy of the swarm: every stream message, in stream order, either opens a room (a
 * question), becomes an entry of its room (a room input, summary, close or expiry tick), or is
 * refused with a reason code and writes nothing. Every decision depends only on the message, its
 * stream time and what this node folded before it, so every node following the stream makes the
 * same ones and every copy of a room reaches the same Merkle root.
 */

export const TICK_TYPE = 'db8/swarm/room-tick';

export type FoldOutcome =
  | { status: 'opened'; questionId: string; roomId: string; seq: number }
  | { status: 'applied'; questionId: string; roomId: string; seq: number; inputId: string }
  | { status: 'expired'; questionId: string; roomId: string; seq: number }
  | {
      status: 'refused';
      stage: 'gate' | 'room';
      code: string;
      message: string;
      questionId?: string;
      details?: unknown;
    }
  | { status: 'ignored'; reason: string };

export interface Refusal {
  streamSeq: number;
  subject: string;
  code: string;
  stage: 'gate' | 'room';
  message: string;
}

const refused = (code: string, message: string, stage: 'gate' | 'room' = 'gate', questionId?: string) =>
  ({
    status: 'refused',
    stage,
    code,
    message,
    ...(questionId ? { questionId } : {}),
  }) as const;

export class Replica {
  constructor(
    private readonly runtime: Runtime,
    private readonly subjects: Subjects,
    private readonly opts: SwarmOptions,
  ) {}

  /** The gate's options at a stream instant: the stream's time, never this node's clock. */
  private ingest(ts: number): IngestOptions {
    return {
      now: ts,
      trust: this.opts.settings.trust,
      maxTtlSec: this.opts.maxTtlSec,
      minTtlSec: this.opts.minTtlSec,
    };
  }

  async fold(m: StreamMessage): Promise<FoldOutcome> {
    const where = this.subjects.parse(m.subject);
    if (!where) return { status: 'ignored', reason: `not a swarm subject: ${m.subject}` };
    // Cheap bound before parsing; the gate measures canonical bytes exactly.
    if (m.data.length > 4 * DEFAULT_MAX_ENVELOPE_BYTES) {
      return refused('OVERSIZED', `${m.data.length} bytes on the wire`);
    }
    let value: unknown;
    try {
      value = parseJson(new TextDecoder('utf-8', { fatal: true }).decode(m.data));
    } catch (err) {
      return refused('SCHEMA_INVALID', `not strict JSON: ${(err as Error).message}`);
    }
    if (where.kind === 'publish') return this.open(value, where.scope, m);
    if (isTick(value))
      return where.kind === 'room' ? this.tick(value['question/id'], where.scope, m) : ignored();
    return this.input(value, { ...where, kind: where.kind }, m);
  }

  private async open(value: unknown, scope: string, m: StreamMessage): Promise<FoldOutcome> {
    const admitted = admitQuestion(value, this.ingest(m.ts));
    if (!admitted.ok) return refused(admitted.error.code, admitted.error.message);
    const env = admitted.value.envelope;
    const qid = env['question/id'];
    if (env['delivery/scope'] !== scope) {
      return refused(
        'CHANNEL_MISMATCH',
        `a ${env['delivery/scope']} question on a ${scope} subject`,
        'gate',
        qid,
      );
    }
    const scoped = scopeRefusal(env, this.opts);
    if (scoped) return refused(scoped.code, scoped.message, 'gate', qid);
    const roomId = roomIdOf(qid);
    if (await this.runtime.store.rooms.get(roomId))
      return refused('REPLAYED', `question ${qid} is open here`);
    // History retention (`retention.ts`): a refold of the stream must not open a purged room again.
    if (await wasPurged(this.runtime, roomId))
      return refused('REPLAYED', `question ${qid} was purged here (history retention)`, 'gate', qid);
    const config = questionConfig(env, this.opts.settings);
    if (!config.ok) return refused(config.error.code, config.error.message, 'gate', qid);
    try {
      const room = await this.runtime.createRoom({
        protocol: 'question',
        config: config.value,
        id: roomId,
        seed: roomSeedOf(qid),
        now: m.ts,
        title: titleOf(String(env['question/text'])),
      });
      return { status: 'opened', questionId: qid, roomId: room.id, seq: room.seq };
    } catch (err) {
      return fromRuntime(err, 'gate', qid);
    }
  }

  private async input(
    value: unknown,
    where: { kind: 'summary' | 'close' | 'room'; scope: string; room?: string },
    m: StreamMessage,
  ): Promise<FoldOutcome> {
    const admitted = admitRoomInput(value, {
      ...this.ingest(m.ts),
      maxBytes: this.opts.settings.maxInputBytes,
    });
    if (!admitted.ok) return refused(admitted.error.code, admitted.error.message);
    const input = admitted.value;
    const qid = input['question/id'];
    const roomId = roomIdOf(qid);
    const expected = kindOf(input);
    if (expected !== where.kind || (where.kind === 'room' && where.room !== roomId)) {
      return refused('CHANNEL_MISMATCH', `a ${input.type} for ${qid} on ${m.subject}`, 'gate', qid);
    }
    const scope = await this.scopeOf(roomId);
    if (scope === null) return refused('WRONG_ROOM', `no question ${qid} here`, 'gate', qid);
    if (scope !== where.scope) {
      return refused('CHANNEL_MISMATCH', `question ${qid} is ${scope}, not ${where.scope}`, 'gate', qid);
    }
    try {
      const ack = await this.runtime.act(roomId, { seat: RELAY_SEAT, action: input, now: m.ts });
      return { status: 'applied', questionId: qid, roomId, seq: ack.seq, inputId: inputIdOf(input) };
    } catch (err) {
      return fromRuntime(err, 'room', qid);
    }
  }

  /** The deadline, at the stream's instant: only a marker stored at or after it expires the room. */
  private async tick(qid: string, scope: string, m: StreamMessage): Promise<FoldOutcome> {
    const roomId = roomIdOf(qid);
    if ((await this.scopeOf(roomId)) !== scope) return ignored();
    try {
      const seq = await this.runtime.tick(roomId, m.ts);
      return seq === null ? ignored() : { status: 'expired', questionId: qid, roomId, seq };
    } catch (err) {
      return fromRuntime(err, 'room', qid);
    }
  }

  private async scopeOf(roomId: string): Promise<string | null> {
    const row = await this.runtime.store.rooms.get(roomId);
    if (row?.protocol !== 'question') return null;
    const config = JSON.parse(row.configJson) as { envelope: Record<string, unknown> };
    return String(config.envelope['delivery/scope']);
  }

  /** The open question rooms this node holds and their deadlines (expiry timers on start). */
  async openRooms(): Promise<Array<{ questionId: string; scope: string; deadline: number }>> {
    const out: Array<{ questionId: string; scope: string; deadline: number }> = [];
    let cursor: string | undefined;
    for (;;) {
      const { rooms, nextCursor } = await this.runtime.store.rooms.list({
        protocol: 'question',
        status: 'open',
        limit: 500,
        ...(cursor ? { cursor } : {}),
      });
      for (const r of rooms) {
        const st = await this.runtime.stateFor(r.id, { kind: 'observer' });
        const q = (st.view as { question: QuestionState['question'] }).question;
        out.push({ questionId: q.id, scope: q.scope, deadline: q.deadline });
      }
      if (!nextCursor) return out;
      cursor = nextCursor;
    }
  }
}

/**
 * The room's title: the question's first 200 code points, controls as spaces. A UTF-16 cut through
 * an emoji left a lone surrogate, which no entry can hold, and a NUL cannot be stored in a text
 * column: either made room creation throw, and the question never opened on any node.
 */
export function titleOf(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: replacing control characters is the point.
  return truncateCodePoints(text.replace(/[\u0000-\u001F\u007F-\u009F]/g, ' '), 200);
}

/**
 * What this node's scope does not admit: a scope it does not follow, or a federation-scoped
 * question of another federation (seed 003: a federation-local question stays in its federation).
 * Such a question never opens here, so no input to it is folded here either.
 */
export function scopeRefusal(
  env: Record<string, unknown>,
  opts: Pick<SwarmOptions, 'scopes' | 'federationId'>,
): GateRefusal | null {
  const scope = String(env['delivery/scope']);
  if (!opts.scopes.includes(scope)) {
    return { code: 'OUT_OF_SCOPE', message: `this node does not follow ${scope} questions` };
  }
  const fed = env['sender/federation-id'];
  if (FEDERATION_SCOPES.includes(scope) && fed !== opts.federationId) {
    return {
      code: 'OUT_OF_SCOPE',
      message: `a ${scope} question of ${String(fed ?? 'no federation')}; this node is in ${opts.federationId}`,
      details: { federation: opts.federationId },
    };
  }
  return null;
}

function isTick(v: unknown): v is { type: string; 'question/id': string } {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const o = v as Record<string, unknown>;
  return o.type === TICK_TYPE && typeof o['question/id'] === 'string' && Object.keys(o).length === 2;
}

const ignored = (): FoldOutcome => ({ status: 'ignored', reason: 'nothing due' });

/**
 * The message id an input is published under (`Nats-Msg-Id`): the hash of its signed bytes. Only
 * the very same message is a duplicate on the bus: an id anyone may write (`input/id`) let one
 * message take another's place in the stream's dedup window, and a refused message blocked its
 * corrected version. The room's own replay guard (rules 2: the signer's keys) catches re-signed replays.
 */
export function eventIdOf(input: RoomInput): string {
  return `ev-${hashCanonical(input)}`;
}

/** Summaries and closes have their own subjects; every other input goes on its room's. */
export function kindOf(input: RoomInput): 'summary' | 'close' | 'room' {
  if (input.type === 'swarm/question-summary') return 'summary';
  if (input.type === 'swarm/question-close') return 'close';
  return 'room';
}

function fromRuntime(err: unknown, stage: 'gate' | 'room', qid: string): FoldOutcome {
  if (err instanceof RuntimeError && err.status < 500) {
    return {
      ...refused(err.code, err.message, stage, qid),
      ...(err.details ? { details: err.details } : {}),
    };
  }
  throw err;
}
