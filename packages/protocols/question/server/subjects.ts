import { createHash } from 'node:crypto';

/**
 * Where swarm questions travel on JetStream (docs/swarm.md "Transport"). Every subject of one scope
 * has four tokens and ends in the scope, so a single filter `swarm.question.*.<scope>` (nats-server
 * 2.9 has no multi-filter consumers) sees a scope's questions, summaries, closes and room inputs in
 * one stream order:
 *
 *   swarm.question.publish.<scope>        question envelopes
 *   swarm.question.summary.<scope>        swarm/question-summary
 *   swarm.question.close.<scope>          swarm/question-close
 *   swarm.question.room-<room>.<scope>    the other answer-room inputs of one question
 */

export { SCOPES, type Scope } from '../rules/index.ts';

const SAFE = /^[A-Za-z0-9_-]{1,96}$/;
const sha = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

/**
 * The local room id of a question: the question id itself when it fits db8's id alphabet (letters,
 * digits, _ and -), else `q_` + 40 hex of its sha256 (`question:01K…` has a colon). The same on
 * every node, so every node's copy is the same room.
 */
export function roomIdOf(questionId: string): string {
  return SAFE.test(questionId) ? questionId : `q_${sha(questionId).slice(0, 40)}`;
}

/** The room seed: derived from the question id, so every node's genesis entry is the same. */
export function roomSeedOf(questionId: string): string {
  return sha(`db8/swarm/room-seed/v1\u0000${questionId}`);
}

export type SubjectKind = 'publish' | 'summary' | 'close' | 'room';

export class Subjects {
  /** `prefix` (e.g. `t1234.`) isolates test runs or federations sharing one nats-server. */
  constructor(readonly prefix = '') {}

  private base(): string {
    return `${this.prefix}swarm.question`;
  }
  publish(scope: string): string {
    return `${this.base()}.publish.${scope}`;
  }
  summary(scope: string): string {
    return `${this.base()}.summary.${scope}`;
  }
  close(scope: string): string {
    return `${this.base()}.close.${scope}`;
  }
  room(questionId: string, scope: string): string {
    return `${this.base()}.room-${roomIdOf(questionId)}.${scope}`;
  }
  /** One consumer's filter: everything of one scope. */
  filter(scope: string): string {
    return `${this.base()}.*.${scope}`;
  }
  /**
   * Core NATS, outside the stream: where the process folding for `nodeId` announces each outcome to
   * the other processes of its cluster (`SwarmBinding`).
   */
  outcomes(nodeId: string): string {
    return `${this.prefix}swarm.fold.${sha(nodeId).slice(0, 16)}`;
  }
  /** What the stream holds. */
  all(): string {
    return `${this.base()}.>`;
  }

  /** What a subject carries, or null when it is not one of ours. */
  parse(subject: string): { kind: SubjectKind; scope: string; room?: string } | null {
    const head = `${this.base()}.`;
    if (!subject.startsWith(head)) return null;
    const parts = subject.slice(head.length).split('.');
    if (parts.length !== 2) return null;
    const [what, scope] = parts as [string, string];
    if (what === 'publish' || what === 'summary' || what === 'close') return { kind: what, scope };
    if (what.startsWith('room-') && what.length > 5) return { kind: 'room', scope, room: what.slice(5) };
    return null;
  }
}

/** A durable consumer name per node and scope (the node id hashed: durable names forbid '.', ':' …). */
export function durableName(nodeId: string, scope: string): string {
  return `db8_${sha(nodeId).slice(0, 16)}_${scope}`;
}
