import { closePayload, type Ended, hashCanonical, type JsonValue, type Transition } from '@db8/core';
import { asJson, type BatchPlan } from './batch-plan.ts';
import { RuntimeError, rejectionError, runtimeError } from './errors.ts';
import type { Ack, ActInput, RuntimeOptions } from './types.ts';

/**
 * The write operations, planned against a BatchPlan (a fork of the room). Each either appends its
 * entries and returns its answer, or throws a RuntimeError having appended nothing that survives
 * (the caller restores the fork). Order of checks matters: idempotent retries are answered before
 * anything that may have changed since the first attempt (closed room, stale token, …).
 */

/** Runs a protocol function; anything it throws becomes PROTOCOL_ERROR (500), never a crash. */
export function protocolCall<T>(what: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof RuntimeError) throw err;
    throw runtimeError('PROTOCOL_ERROR', `protocol ${what} threw: ${(err as Error).message}`);
  }
}

function idempotencyKey(input: ActInput): string | null {
  if (input.clientNonce !== undefined) return `n:${input.clientNonce}`;
  if (input.turnToken !== undefined) return `t:${input.turnToken}`;
  return null;
}

/** The action's `type`, when it is an object that has one. */
const typeOf = (a: unknown): unknown =>
  a !== null && typeof a === 'object' && !Array.isArray(a) ? (a as { type?: unknown }).type : undefined;

/** The first ack of a retried request, or IDEMPOTENCY_KEY_REUSED for another request under its key. */
function priorAck(prior: { requestHash: string; seq: number; ts: number }, requestHash: string): Ack {
  if (prior.requestHash !== requestHash) {
    throw runtimeError(
      'IDEMPOTENCY_KEY_REUSED',
      'this client nonce / turn token was used for a different action',
      {
        seq: prior.seq,
      },
    );
  }
  return { seq: prior.seq, ts: prior.ts, duplicate: true };
}

/** Every check of an action against the room, then the protocol's apply: nothing is written here. */
function checkedApply(plan: BatchPlan, input: ActInput, offered: string | undefined) {
  const memo = plan.memo;
  const p = memo.protocol;
  const { seat } = input;
  if (memo.closed) throw runtimeError('ROOM_CLOSED', 'the room is closed');
  if (input.principal !== undefined && memo.holders[seat]?.principal !== input.principal) {
    throw runtimeError('SEAT_NOT_HELD', `you do not hold seat ${seat}`);
  }
  if (input.expectedSeq !== undefined && input.expectedSeq !== memo.seq) {
    throw runtimeError('STALE_SEQ', `the room is at seq ${memo.seq}, not ${input.expectedSeq}`, {
      seq: memo.seq,
    });
  }
  const parsed = p.actionSchema.safeParse(input.action);
  if (!parsed.success) {
    throw runtimeError(
      'BAD_ACTION',
      'action does not match the protocol schema',
      parsed.error.issues
        .slice(0, 20)
        .map((i) => ({ path: i.path.map(String).join('.'), message: i.message })),
    );
  }
  let payload: JsonValue;
  try {
    payload = asJson(parsed.data);
  } catch (err) {
    throw runtimeError('BAD_ACTION', `action is not JSON: ${(err as Error).message}`);
  }
  if (input.turnToken !== undefined && offered !== input.turnToken) {
    throw runtimeError('STALE_TURN_TOKEN', 'the turn token is not the current one for this seat');
  }
  const ts = plan.ts(input.now);
  const seq = memo.seq + 1;
  const r = protocolCall('apply', () => p.apply(memo.state, { seat, action: payload, now: ts, seq }));
  if (!r.ok) throw rejectionError(r.error);
  if (
    input.turnToken !== undefined &&
    protocolCall('legal', () => p.legal(r.state, seat)).turnToken === input.turnToken
  ) {
    throw runtimeError('PROTOCOL_ERROR', 'the protocol offers a turn token again after its turn was taken');
  }
  return { payload, ts, seq, r };
}

/** `byServer`: the server's own write (a join effect), which may carry the protocol's serverActions. */
export async function planAct(plan: BatchPlan, input: ActInput, byServer = false): Promise<Ack> {
  const memo = plan.memo;
  const p = memo.protocol;
  const { seat } = input;
  const type = typeOf(input.action);
  if (!byServer && typeof type === 'string' && (p.serverActions ?? []).includes(type))
    throw runtimeError('ACTION_RESERVED', `${type} is written by the server, never sent by a seat`);
  if (!memo.core.seats.some((s) => s.id === seat))
    throw runtimeError('UNKNOWN_SEAT', `this room has no seat ${seat}`);

  // The turn this seat is offered now (when the action claims one): checked below, and it spares
  // the idempotency lookup.
  const offered =
    input.turnToken !== undefined && !memo.closed
      ? protocolCall('legal', () => p.legal(memo.state, seat)).turnToken
      : undefined;
  const key = idempotencyKey(input);
  let requestHash = '';
  // Lazy lookup: the key is taken to be new and its row's primary key refuses a reuse at commit (the
  // runtime then plans the batch again, looking keys up first); a refusal below asks the store first.
  let deferred = false;
  if (key !== null) {
    try {
      requestHash = hashCanonical({ seat, action: input.action });
    } catch (err) {
      throw runtimeError('BAD_ACTION', `action is not JSON: ${(err as Error).message}`);
    }
    // A turn token still offered to this seat names a turn nobody has taken (Legal's contract, which
    // the apply below enforces): no earlier attempt can have used it, so the store is not asked.
    const fresh = input.clientNonce === undefined && offered === input.turnToken;
    const local = plan.keys.get(`${seat}\u0000${key}`);
    deferred = !local && !fresh && plan.lazyKeys;
    const prior =
      local ?? (fresh || deferred ? undefined : await plan.store.idempotency.get(plan.roomId, seat, key));
    if (prior) return priorAck(prior, requestHash);
  }

  let planned: ReturnType<typeof checkedApply>;
  try {
    planned = checkedApply(plan, input, offered);
  } catch (err) {
    // A retry may be refused now (closed, stale) where its first attempt went through: its ack wins.
    const prior = deferred ? await plan.store.idempotency.get(plan.roomId, seat, key!) : undefined;
    if (prior) return priorAck(prior, requestHash);
    throw err;
  }
  const { payload, ts, seq, r } = planned;
  await pushTransition(plan, { kind: 'action', actor: seat, payload, ts }, r);
  if (key !== null) {
    const rec = { roomId: plan.roomId, seat, key, requestHash, seq, ts };
    plan.idem.push(rec);
    plan.keys.set(`${seat}\u0000${key}`, rec);
  }
  await closeIfOver(plan, ts);
  // A deadline the action made due at once is ticked in the same append, if the protocol says so.
  if (p.tickWithAction) await planTick(plan, ts);
  return { seq, ts, duplicate: false };
}

export async function planJoin(
  plan: BatchPlan,
  input: { seat?: string; principal: string; replace?: boolean },
  joinEffects?: RuntimeOptions['joinEffects'],
): Promise<{ seat: string; entrySeq: number }> {
  const memo = plan.memo;
  // `replace` (the server's, after the protocol accepted a replacement): the named seat changes
  // hands even when held; the fold takes the later join entry as the seat's holder.
  const from = input.replace && input.seat !== undefined ? memo.holders[input.seat]?.principal : undefined;
  const held = memo.seatOf(input.principal);
  if (held !== undefined && (input.seat === undefined || input.seat === held)) {
    return { seat: held, entrySeq: memo.holders[held]!.seq };
  }
  // One seat per principal (unless the protocol says otherwise): two seats would let one agent
  // shill-bid against itself, or judge the debate it argues in.
  if (held !== undefined && !memo.protocol.multiSeat) {
    throw runtimeError('SEAT_ALREADY_HELD', `you already hold seat ${held} in this room`, { seat: held });
  }
  if (memo.closed) throw runtimeError('ROOM_CLOSED', 'the room is closed');
  let seat = input.seat;
  if (seat !== undefined) {
    if (!memo.core.seats.some((s) => s.id === seat))
      throw runtimeError('UNKNOWN_SEAT', `this room has no seat ${seat}`);
    if (memo.holders[seat] && !input.replace) throw runtimeError('SEAT_TAKEN', `seat ${seat} is taken`);
  } else {
    // Reserved seats (Protocol.reservedRoles) are the server's and privileged ones are given by
    // name: auto-assignment never hands either out by chance.
    const reserved = [...(memo.protocol.reservedRoles ?? []), ...(memo.protocol.privilegedRoles ?? [])];
    seat = memo.core.seats.find((s) => !memo.holders[s.id] && !reserved.includes(s.role))?.id;
    if (seat === undefined) throw runtimeError('ROOM_FULL', 'every seat is taken');
  }
  const ts = plan.ts();
  // Who sits where is admin-only while the room runs (anonymous seats); the close entry reveals it.
  const built = plan.push({
    kind: 'join',
    actor: seat,
    payload: { seat, principal: input.principal },
    ts,
    vis: { kind: 'admin' },
  });
  const seq = built.stored.seq;
  plan.memo.holders[seat] = { principal: input.principal, seq };
  plan.seatTakes.push({ seat, principal: input.principal, seq, ts, ...(from !== undefined ? { from } : {}) });
  const info = memo.core.seats.find((s) => s.id === seat)!;
  const effects = joinEffects
    ? protocolCall('onJoin', () =>
        joinEffects(memo.protocol.name, {
          roomId: plan.roomId,
          config: memo.core.config,
          seat: info,
          principal: input.principal,
          state: plan.memo.state,
        }),
      )
    : [];
  for (const e of effects) {
    try {
      await planAct(plan, { seat: e.seat, action: e.action, clientNonce: e.clientNonce }, true);
    } catch (err) {
      // Refused (e.g. too late in the room to bind an identity): nothing was appended; the seat is
      // taken either way. A server fault still fails the whole join.
      if (err instanceof RuntimeError && err.status < 500) continue;
      throw err;
    }
  }
  return { seat, entrySeq: seq };
}

/** Advances time when the protocol's deadline has passed at `now`; null when nothing is due. */
export async function planTick(plan: BatchPlan, now: number): Promise<number | null> {
  const memo = plan.memo;
  if (memo.closed) return null;
  const p = memo.protocol;
  const deadline = protocolCall('deadline', () => p.deadline(memo.state));
  // `!(deadline <= now)`: a NaN deadline is never due (it compared false and ticked every time).
  if (deadline === null || !(deadline <= now)) return null;
  const ts = plan.ts(now);
  const seq = memo.seq + 1;
  const t = protocolCall('tick', () => p.tick(memo.state, ts, seq));
  if (t === null) return null;
  await pushTransition(plan, { kind: 'tick', actor: 'system', payload: { deadline }, ts }, t);
  await closeIfOver(plan, ts);
  return seq;
}

async function pushTransition(
  plan: BatchPlan,
  e: { kind: 'action' | 'tick'; actor: string; payload: JsonValue; ts: number },
  t: Transition<unknown>,
): Promise<void> {
  const reveals = await plan.reveals(t.reveal ?? []);
  let note: JsonValue | undefined;
  if (t.note !== undefined) {
    try {
      note = asJson(t.note);
    } catch (err) {
      throw runtimeError('PROTOCOL_ERROR', `protocol note is not JSON: ${(err as Error).message}`);
    }
  }
  plan.push({
    ...e,
    ...(t.visibility ? { vis: t.visibility } : {}),
    ...(reveals.length > 0 ? { reveals } : {}),
    ...(t.milestone !== undefined ? { milestone: t.milestone } : {}),
    ...(note !== undefined ? { note } : {}),
  });
  plan.memo.state = t.state;
}

/**
 * Once the protocol says the room is over: a `close` entry with the result, the room seed (whose
 * sha256 the genesis entry committed to) and the reveal of every seat's join.
 */
async function closeIfOver(plan: BatchPlan, ts: number): Promise<void> {
  const memo = plan.memo;
  if (memo.closed || !protocolCall('isOver', () => memo.protocol.isOver(memo.state))) return;
  await pushClose(plan, ts);
}

/**
 * Ends the room before its protocol is over (an admin's act, any protocol): the same close entry,
 * recording who ended it and why, so a verifier accepts a close the protocol did not call for.
 */
export async function planEnd(plan: BatchPlan, ended: Ended): Promise<{ seq: number; ts: number }> {
  if (plan.memo.closed) throw runtimeError('ROOM_CLOSED', 'the room is closed');
  const ts = plan.ts();
  await pushClose(plan, ts, ended);
  return { seq: plan.memo.seq, ts };
}

async function pushClose(plan: BatchPlan, ts: number, ended?: Ended): Promise<void> {
  const memo = plan.memo;
  const result = asJson(protocolCall('result', () => memo.protocol.result(memo.state)) ?? null);
  const reveals = await plan.reveals(Object.values(memo.holders).map((h) => h.seq));
  plan.push({
    kind: 'close',
    actor: 'system',
    payload: closePayload(memo.core.seed, result, ended),
    ts,
    ...(reveals.length > 0 ? { reveals } : {}),
    milestone: 'close',
  });
  plan.memo.closed = true;
}
