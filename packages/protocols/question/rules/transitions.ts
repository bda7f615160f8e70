import { type ApplyResult, canonicalBytes } from '@db8/core';
import { filterRefusal, originRefusal } from './admission.ts';
import { type RefusalCode, refuse } from './codes.ts';
import type { Close, Summary } from './events.ts';
import { electedNodes, federationRefusal, nodeOf, verifiedGateway } from './federation.ts';
import { inputIdOf, ownKeyOf, type RoomInput, signerOf } from './inputs.ts';
import { responderReputation } from './reputation.ts';
import { askerLapsed, currentProfile, type QuestionState, roleOf } from './state.ts';
import { verifyRoomInput } from './verify.ts';

/**
 * One signed input folded into the room. The order of checks is part of the protocol (a refusal's
 * code must not depend on the node): room, size, replay, signature, open and in time, then the
 * input's own rules. A refusal writes nothing.
 */

type R = ApplyResult<QuestionState>;
const no = (code: RefusalCode, message: string, details?: Record<string, unknown>): R =>
  refuse(code, message, details);

export function applyInput(s: QuestionState, input: RoomInput, now: number, seq: number): R {
  if (input['question/id'] !== s.question.id) return no('WRONG_ROOM', `this room is ${s.question.id}`);
  const bytes = canonicalBytes(input).length;
  if (bytes > s.settings.maxInputBytes)
    return no('OVERSIZED', `${bytes} bytes > ${s.settings.maxInputBytes}`);
  // Rules 1 keyed replays by the input's own id, which anyone could take first (a join with
  // `input/id` `close:<qid>` made the asker's close REPLAYED); rules 2 by the signer's own key.
  const id = v2(s) ? ownKeyOf(input) : inputIdOf(input);
  if (s.seen[id] !== undefined) return no('REPLAYED', `input ${id} is already at seq ${s.seen[id]}`);
  const sig = verifyRoomInput(input);
  if (!sig.ok) return { ok: false, error: sig.error };
  if (s.status !== 'open') return no('ROOM_CLOSED', `the question is ${s.status}`);
  if (now >= s.question.deadline) return no('QUESTION_EXPIRED', 'the question is past created-at + ttl-sec');

  if (v2(s)) {
    const why = federationRefusal(s, input);
    if (why) return { ok: false, error: why };
  }
  const signer = signerOf(input);
  const role = roleOf(s, signer);
  const r = rule(s, input, signer, role, now, seq);
  if (!r.ok) return r;
  const next: QuestionState = { ...r.state, seen: { ...r.state.seen, [id]: seq } };
  return { ok: true, state: role === 'asker' ? { ...next, askerLastSeen: now } : next };
}

type Role = ReturnType<typeof roleOf>;

const v2 = (s: QuestionState) => (s.rules ?? 1) >= 2;
const v3 = (s: QuestionState) => (s.rules ?? 1) >= 3;

/**
 * The record a reference names. Rules 1: the first with that local id. Rules 2: the one whose own
 * key it is, or the only one with that local id (two signers may use one local id: then only the
 * key names one, and the local id is AMBIGUOUS_ID, never silently the first).
 */
function lookup<T extends { id: string; key?: string }>(
  s: QuestionState,
  records: readonly T[],
  ref: string,
): number | 'ambiguous' {
  if (!v2(s)) return records.findIndex((r) => r.id === ref);
  const byKey = records.findIndex((r) => r.key === ref);
  if (byKey >= 0) return byKey;
  const byId = records.flatMap((r, i) => (r.id === ref ? [i] : []));
  if (byId.length > 1) return 'ambiguous';
  return byId[0] ?? -1;
}

function rule(s: QuestionState, input: RoomInput, signer: string, role: Role, now: number, seq: number): R {
  switch (input.type) {
    case 'swarm/room-join': {
      if (role !== null) return no('ALREADY_JOINED', `${signer} is already the ${role}`);
      const max = s.settings.maxParticipants;
      if (max !== undefined && Object.keys(s.participants).length >= max) {
        return no('ROOM_FULL', `this room admits ${max} participants`, { max });
      }
      // Rules 2: the reputation of the roster node that countersigned the join, never the join's claim.
      // Rules 3: the responder's record that node attests, bounded by that node's (`reputation.ts`).
      const gateway = v2(s) ? verifiedGateway(s, input) : null;
      const reputation = !v2(s)
        ? (input['responder/reputation'] ?? null)
        : gateway === null
          ? null
          : v3(s)
            ? responderReputation(input['gateway/record'], gateway.reputation)
            : gateway.reputation;
      const why = filterRefusal(s.question, input, s.settings.requireSharedTag, reputation);
      if (why) return { ok: false, error: why };
      const responder = {
        node: input['sender/node-id'],
        models: input['responder/models'],
        languages: input['responder/languages'],
        tags: input['responder/tags'],
        reputation,
        joinedAt: now,
      };
      return { ok: true, state: { ...s, participants: { ...s.participants, [signer]: responder } } };
    }
    case 'swarm/room-presence':
      return role ? { ok: true, state: s } : no('NOT_ADMITTED', `${signer} has not joined`);
    case 'swarm/room-message': {
      if (!role) return no('NOT_ADMITTED', `${signer} has not joined`);
      if (input['origin/gateway'] !== input['sender/node-id']) {
        return no('ORIGIN_NOT_ALLOWED', 'origin/gateway must be the signing node (sender/node-id)');
      }
      const kind = input['message/kind'];
      if (kind !== 'answer' && !s.question.followUps)
        return no('FOLLOW_UPS_DISABLED', 'this question takes no follow-ups');
      if (kind === 'clarification' && role === 'participant')
        return no('NOT_ASKER', 'only the asker or secretary clarifies');
      const why = originRefusal(s, currentProfile(s), input['origin/class']);
      if (why) return { ok: false, error: why };
      const message = {
        seq,
        id: input['input/id'],
        ...(v2(s) ? { key: ownKeyOf(input) } : {}),
        at: now,
        kind,
        text: input['message/text'],
        author: signer,
        origin: input['origin/class'],
        speaker: input['origin/speaker'],
        gateway: input['origin/gateway'],
        verdict: null,
      };
      return { ok: true, state: { ...s, messages: [...s.messages, message] } };
    }
    case 'swarm/room-verdict': {
      if (role !== 'asker') return no('NOT_ASKER', 'only the asker accepts or rejects answers');
      const ref = input['verdict/input-id'];
      const at = lookup(
        s,
        s.messages.filter((m) => m.kind === 'answer'),
        ref,
      );
      if (at === 'ambiguous')
        return no('AMBIGUOUS_ID', `several answers are ${ref}: name one by its key`, {
          keys: s.messages.filter((m) => m.id === ref).map((m) => m.key),
        });
      if (at < 0) return no('UNKNOWN_MESSAGE', `no answer ${ref}`);
      const target = s.messages.filter((m) => m.kind === 'answer')[at] as (typeof s.messages)[number];
      // Rules 3: who vouched, for the responder's record (`reputation.ts`): a roster node only.
      const vouch = v3(s) ? verifiedGateway(s, input)?.['node/id'] : undefined;
      const messages = s.messages.map((m) =>
        m === target
          ? { ...m, verdict: input['verdict/decision'], ...(vouch ? { verdictNode: vouch } : {}) }
          : m,
      );
      return { ok: true, state: { ...s, messages } };
    }
    case 'swarm/room-delegate': {
      if (role !== 'asker') return no('NOT_ASKER', 'only the asker delegates');
      const secretary = {
        participant: input['secretary/participant-id'],
        node: input['secretary/node-id'],
        via: 'delegation' as const,
        closeAllowed: input['close/allowed'],
        since: now,
      };
      return { ok: true, state: { ...s, secretary } };
    }
    case 'swarm/room-takeover': {
      if (v2(s) && s.settings.roster?.['takeover/policy'] === 'roster-election')
        return elected(s, input, signer, now);
      if (role !== 'participant') return no('NOT_ADMITTED', 'only an admitted participant takes over');
      if (s.secretary) return no('SECRETARY_TAKEN', `${s.secretary.participant} is the secretary`);
      if (!askerLapsed(s, now)) {
        return no('ASKER_PRESENT', 'the asker was seen within the presence window', {
          lapsesAt: s.askerLastSeen + s.settings.presenceLapseMs,
        });
      }
      const secretary = {
        participant: signer,
        node: input['sender/node-id'],
        via: 'lapse' as const,
        closeAllowed: false,
        since: now,
      };
      return { ok: true, state: { ...s, secretary } };
    }
    case 'swarm/room-policy': {
      if (role !== 'asker' && role !== 'secretary')
        return no('NOT_AUTHORISED', 'only the asker or secretary sets the profile');
      const profile = input['room-policy/profile'];
      if (s.question.scope === 'global' && profile === 'direct-live-allowed') {
        return no('PROFILE_FORBIDDEN', 'a global room may not be direct-live-allowed');
      }
      return { ok: true, state: { ...s, profiles: [...s.profiles, { seq, profile, at: now, by: signer }] } };
    }
    case 'swarm/question-summary':
      return applySummary(s, input, role, now, seq);
    case 'swarm/question-close':
      return applyClose(s, input, signer, role, now);
  }
}

/**
 * `roster-election`: once the asker lapsed, only the elected node (`electedNodes`: the first in the
 * order, then the next one per takeover window the others let pass) takes over, with its own roster
 * key; it may close (the asker is gone) and need not have joined.
 */
function elected(s: QuestionState, input: RoomInput, signer: string, now: number): R {
  if (s.secretary) return no('SECRETARY_TAKEN', `${s.secretary.participant} is the secretary`);
  if (!askerLapsed(s, now)) {
    return no('ASKER_PRESENT', 'the asker was seen within the presence window', {
      lapsesAt: s.askerLastSeen + s.settings.presenceLapseMs,
    });
  }
  const eligible = electedNodes(s, now);
  const winner = eligible.find((c) => c.participant === signer && c.nodeId === nodeOf(input));
  if (!winner) {
    return no('NOT_ELECTED', 'the federation elects the secretary', {
      elected: eligible.map((c) => c.nodeId),
    });
  }
  const secretary = {
    participant: signer,
    node: winner.nodeId,
    via: 'lapse' as const,
    closeAllowed: true,
    since: now,
  };
  return { ok: true, state: { ...s, secretary } };
}

function applySummary(s: QuestionState, input: Summary, role: Role, now: number, seq: number): R {
  const claimed = input['author/role'];
  if (role === null) return no('NOT_ADMITTED', 'the author is not in the room');
  if (claimed !== role) return no('NOT_AUTHORISED', `the author is the ${role}, not the ${claimed}`);
  if (role === 'participant' && !s.settings.participantSummaries) {
    return no('NOT_AUTHORISED', 'participants may not publish summaries in this room');
  }
  const interval = s.settings.summaryIntervalMs;
  if (interval && input.status === 'intermediate') {
    const last = s.summaries.findLast((x) => x.author === input['author/participant-id']);
    if (last && now < last.at + interval) {
      return no('SUMMARY_TOO_SOON', `one intermediate summary per ${interval} ms`, {
        nextAt: last.at + interval,
      });
    }
  }
  const record = {
    seq,
    id: input['summary/id'],
    ...(v2(s) ? { key: ownKeyOf(input) } : {}),
    at: now,
    author: input['author/participant-id'],
    role,
    status: input.status,
    facts: input['content/facts'],
    hypotheses: input['content/hypotheses'],
    recommendations: input['content/recommendations'],
    uncertainty: input['content/uncertainty'],
  };
  return { ok: true, state: { ...s, summaries: [...s.summaries, record] } };
}

/** The asker closes; the secretary only when delegated with close allowed, or once the asker lapsed. */
function applyClose(s: QuestionState, input: Close, signer: string, role: Role, now: number): R {
  if (role !== 'asker' && role !== 'secretary')
    return no('NOT_AUTHORISED', 'only the asker or secretary closes');
  if (input['closed-by/role'] !== role) return no('NOT_AUTHORISED', `the closer is the ${role}`);
  if (role === 'secretary' && !s.secretary?.closeAllowed && !askerLapsed(s, now)) {
    return no('ASKER_PRESENT', 'the secretary may close only when delegated to or after the asker lapsed');
  }
  const accepted = input.resolution === 'accepted-answer' ? input['accepted-summary/id'] : null;
  if (accepted !== null) {
    const at = lookup(s, s.summaries, accepted);
    if (at === 'ambiguous')
      return no('AMBIGUOUS_ID', `several summaries are ${accepted}: name one by its key`, {
        keys: s.summaries.filter((x) => x.id === accepted).map((x) => x.key),
      });
    if (at < 0) return no('UNKNOWN_SUMMARY', `no summary ${accepted} in this room`);
  }
  const status = input.resolution === 'expired' ? 'expired' : 'closed';
  const close = { resolution: input.resolution, by: signer, role, acceptedSummary: accepted, at: now };
  return { ok: true, state: { ...s, status, close } };
}

/** The deadline: at `created-at + ttl-sec` an open room expires. */
export function tickRoom(s: QuestionState, now: number) {
  if (s.status !== 'open' || now < s.question.deadline) return null;
  const close = {
    resolution: 'expired',
    by: null,
    role: 'deadline' as const,
    acceptedSummary: null,
    at: now,
  };
  return { state: { ...s, status: 'expired' as const, close } };
}
