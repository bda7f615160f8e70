import { clipText } from '@db8/core';
import type { ModuleRuntime as Runtime } from '@db8/server/kit';
import {
  electionOrder,
  eligibleAt,
  ownKeyOf,
  type QuestionState,
  type QuestionView,
  type RoomInput,
} from '../rules/index.ts';
import type { SwarmTransport } from './binding.ts';
import { type NodeIdentity, nodeInput, participantOf } from './node-sign.ts';
import type { SwarmOptions } from './options.ts';
import { eventIdOf, kindOf } from './replica.ts';
import { roomIdOf } from './subjects.ts';

/**
 * The automatic secretary (docs/swarm.md "Secretary election"). Under the roster's
 * `roster-election` policy, when a room's asker has lapsed and it has no secretary, every node runs
 * the same election on its copy; the elected node takes over with its own key, and its scripted
 * secretary — labelled as scripted in the summary — summarises the answers and closes the question
 * on that summary. The fold re-checks everything (`NOT_ELECTED`, `ASKER_PRESENT`), so a node that
 * looks early or thinks itself elected wrongly only gets a refusal.
 */

export type SecretaryStep = 'not-due' | 'not-elected' | 'took-over' | 'closed' | 'refused';

const SCRIPTED = 'scripted secretary';

export class AutoSecretary {
  constructor(
    private readonly runtime: Runtime,
    private readonly transport: SwarmTransport,
    private readonly node: NodeIdentity,
    private readonly opts: Pick<SwarmOptions, 'settings'>,
  ) {}

  /**
   * When this node should look at this room again: its own turn in the election (the lapse for the
   * first candidate, one takeover window later per candidate before it), or null when never.
   */
  async dueAt(questionId: string): Promise<number | null> {
    const v = await this.view(questionId);
    if (v?.status !== 'open' || v.secretary) return null;
    return this.turnOf(questionId);
  }

  /**
   * When this node may take over: its place in the room's election order, by the room's own
   * settings (the ones it opened with); null when it is no candidate.
   */
  private async turnOf(questionId: string): Promise<number | null> {
    const s = (await this.runtime.protocolState(roomIdOf(questionId))).state as QuestionState;
    const order = electionOrder(
      s.question.id,
      s.question.askerNode,
      Object.values(s.participants).map((p) => p.node),
      s.settings.roster,
    );
    const place = order.findIndex((c) => c.nodeId === this.node.nodeId);
    return eligibleAt(place, s.askerLastSeen + s.settings.presenceLapseMs, s.settings.takeoverWindowMs);
  }

  /** One look at a room at `now`: take over when elected and due, then summarise and close. */
  async step(questionId: string, now: number): Promise<SecretaryStep> {
    const v = await this.view(questionId);
    if (v?.status !== 'open') return 'not-due';
    const me = participantOf(this.node.publicKey);
    if (!v.secretary) {
      if (now < v.askerLastSeen + this.opts.settings.presenceLapseMs) return 'not-due';
      // Its turn comes when the candidates before it let their takeover windows pass.
      const at = await this.turnOf(questionId);
      if (at === null) return 'not-elected';
      if (now < at) return 'not-due';
      if (!(await this.send(v, { type: 'swarm/room-takeover' }, now))) return 'refused';
      return this.step(questionId, now);
    }
    if (v.secretary.participant !== me) return 'not-elected';
    const answers = v.messages.filter((m) => m.kind === 'answer');
    const chosen = answers.some((m) => m.verdict === 'accept')
      ? answers.filter((m) => m.verdict === 'accept')
      : answers.filter((m) => m.verdict !== 'reject');
    const summary = await this.send(
      v,
      {
        type: 'swarm/question-summary',
        'author/role': 'secretary',
        status: 'final',
        'content/facts': chosen.slice(0, 20).map((m) => clipText(`${m.speaker}: ${m.text}`, 4000)),
        'content/hypotheses': [],
        'content/recommendations': [
          `${SCRIPTED} of ${this.node.nodeId}: the asker lapsed; these are the room's answers, unedited`,
        ],
        'content/uncertainty': chosen.length ? 0.5 : 1,
      },
      now,
    );
    if (!summary) return 'refused';
    const closed = await this.send(
      v,
      {
        type: 'swarm/question-close',
        'closed-by/role': 'secretary',
        resolution: 'accepted-answer',
        'accepted-summary/id': summary.key,
      },
      now,
    );
    return closed ? 'closed' : 'refused';
  }

  private async view(questionId: string): Promise<QuestionView | null> {
    const roomId = roomIdOf(questionId);
    const room = await this.runtime.store.rooms.get(roomId);
    if (room?.protocol !== 'question') return null;
    return (await this.runtime.stateFor(roomId, { kind: 'observer' })).view as QuestionView;
  }

  /** Signs with the node's own key (the roster's), publishes, and answers the input's key if applied. */
  private async send(v: QuestionView, draft: { type: string } & Record<string, unknown>, now: number) {
    const input = nodeInput(draft, v.question.id, this.node, this.node, now) as RoomInput;
    const s = this.transport.subjects;
    const kind = kindOf(input);
    const subject =
      kind === 'summary'
        ? s.summary(v.question.scope)
        : kind === 'close'
          ? s.close(v.question.scope)
          : s.room(v.question.id, v.question.scope);
    const p = await this.transport.publish(subject, input, eventIdOf(input));
    // Pending (a slow fold) counts as not applied: the next look sees what became of it.
    return p.outcome?.status === 'applied' ? { key: ownKeyOf(input) } : null;
  }
}
