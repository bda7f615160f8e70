import { createHash } from 'node:crypto';
import { clipText } from '@db8/core';
import type { QuestionFacts, RoomMessage, SummaryRecord } from '../../rules/index.ts';
import type { BridgeEvent } from './bridge.ts';
import type { CreateRoomBody } from './matrix-client.ts';

/**
 * How an answer room appears on Matrix: the room alias derived from the question id, the room's
 * creation settings from its scope, the transaction id of each relayed item (derived from the entry,
 * so every resend of an item is the same Matrix event), and each item's m.room.message content.
 * Custom fields sit under `db8.swarm` in the content (the spec lets clients add namespaced keys;
 * Matrix clients show `body` and ignore the rest).
 */

export const CONTENT_KEY = 'db8.swarm';

/**
 * The alias localpart for a question id: `prefix` + the id in the spec's mapping for other character
 * sets (appendix "Mapping from other character sets": a-z 0-9 . - stay, `_` → `__`, A-Z → `_` +
 * lowercase, any other UTF-8 byte → `=xx`; db8 also encodes `/`, awkward in URLs). Injective, so two
 * questions never share an alias; an id whose mapping would make the alias too long (255 bytes in
 * all) uses its sha256 instead.
 */
export function aliasLocalpart(prefix: string, questionId: string): string {
  let out = '';
  for (const b of new TextEncoder().encode(questionId)) {
    const c = String.fromCharCode(b);
    if (/[a-z0-9.-]/.test(c)) out += c;
    else if (c === '_') out += '__';
    else if (/[A-Z]/.test(c)) out += `_${c.toLowerCase()}`;
    else out += `=${b.toString(16).padStart(2, '0')}`;
  }
  if (out.length + prefix.length <= 180) return `${prefix}${out}`;
  // `=h` is never produced by the mapping (`=` is always followed by two hex digits): no collision.
  return `${prefix}=h${createHash('sha256').update(questionId).digest('hex')}`;
}

/**
 * The proposal: room scope must match `delivery/scope`, and the federation profile decides whether
 * room creation is local-only, federated or global. On the federation's homeserver that is:
 * private-to-swarm invite-only and not federated; federation-local joinable on this homeserver only
 * (`m.federate: false`); cross-federation joinable and federated; global also listed in the room
 * directory. Every room is observer-only for Matrix users: posting needs power 50 (the bridge has 100).
 */
export function roomSettings(q: QuestionFacts, localpart: string): CreateRoomBody {
  const federate = q.scope === 'cross-federation' || q.scope === 'global';
  return {
    room_alias_name: localpart,
    name: clipText(q.text, 80),
    topic: `db8 swarm question ${q.id} · ${q.scope} · tags: ${q.tags.join(', ') || 'none'} · until ${iso(q.deadline)}`,
    preset: q.scope === 'private-to-swarm' ? 'private_chat' : 'public_chat',
    visibility: q.scope === 'global' ? 'public' : 'private',
    creation_content: { 'm.federate': federate },
    power_level_content_override: { events_default: 50 },
  };
}

/** One transaction id per relayed item: the db8 room id and the entry's seq (one close per room). */
export function txnIdOf(e: BridgeEvent): string {
  switch (e.kind) {
    case 'open':
      return `db8.${e.roomId}.question`;
    case 'message':
      return `db8.${e.roomId}.${e.message.seq}`;
    case 'summary':
      return `db8.${e.roomId}.${e.summary.seq}`;
    case 'close':
      return `db8.${e.roomId}.close`;
  }
}

/** The m.room.message content relaying one item. */
export function contentOf(e: BridgeEvent): Record<string, unknown> {
  switch (e.kind) {
    case 'open':
      return notice(questionBody(e.question), {
        kind: 'question',
        question_id: e.question.id,
        room: e.roomId,
        scope: e.question.scope,
        asker_node: e.question.askerNode,
        tags: e.question.tags,
        deadline: iso(e.question.deadline),
      });
    case 'message':
      return messageContent(e.roomId, e.questionId, e.message);
    case 'summary':
      return summaryContent(e.roomId, e.questionId, e.summary);
    case 'close': {
      const c = e.close;
      const why =
        e.status === 'expired'
          ? 'expired at its deadline'
          : `closed: ${c?.resolution ?? 'closed'}${c?.acceptedSummary ? ` (summary ${c.acceptedSummary})` : ''} by the ${c?.role ?? 'asker'}`;
      return notice(`Question ${why}. The signed close on the event layer is the durable record.`, {
        kind: 'close',
        question_id: e.questionId,
        room: e.roomId,
        status: e.status,
        resolution: c?.resolution ?? null,
        accepted_summary: c?.acceptedSummary ?? null,
        closed_by: c?.by ?? null,
        role: c?.role ?? null,
      });
    }
  }
}

function messageContent(room: string, questionId: string, m: RoomMessage): Record<string, unknown> {
  return {
    msgtype: 'm.text',
    body: `${m.kind} from ${m.speaker} (${m.origin}, via ${m.gateway}): ${m.text}`,
    [CONTENT_KEY]: {
      kind: m.kind,
      question_id: questionId,
      room,
      seq: m.seq,
      message_id: m.id,
      author: m.author,
      origin_class: m.origin,
      speaker: m.speaker,
      gateway: m.gateway,
    },
  };
}

function summaryContent(room: string, questionId: string, s: SummaryRecord): Record<string, unknown> {
  const part = (name: string, xs: string[]) => (xs.length ? [`${name}: ${xs.join('; ')}`] : []);
  const body = [
    `Summary (${s.status}, ${s.role}):`,
    ...part('facts', s.facts),
    ...part('hypotheses', s.hypotheses),
    ...part('recommendations', s.recommendations),
    `uncertainty ${s.uncertainty}`,
  ].join('\n');
  return notice(body, {
    kind: 'summary',
    question_id: questionId,
    room,
    seq: s.seq,
    summary_id: s.id,
    status: s.status,
    role: s.role,
    author: s.author,
    facts: s.facts,
    hypotheses: s.hypotheses,
    recommendations: s.recommendations,
    uncertainty: s.uncertainty,
  });
}

const questionBody = (q: QuestionFacts) =>
  `Question (${q.scope}, asked by ${q.askerNode}, open until ${iso(q.deadline)}): ${q.text}` +
  (q.tags.length ? ` [${q.tags.join(', ')}]` : '');

const notice = (body: string, fields: Record<string, unknown>) => ({
  msgtype: 'm.notice',
  body,
  [CONTENT_KEY]: fields,
});

const iso = (ms: number) => new Date(ms).toISOString();
