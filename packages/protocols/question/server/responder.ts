import type { ModuleRuntime as Runtime } from '@db8/server/kit';
import type { QuestionView, RoomInput } from '../rules/index.ts';
import type { SwarmTransport } from './binding.ts';
import { type NodeIdentity, nodeInput, participantOf, principalKey } from './node-sign.ts';
import { recordOf } from './records.ts';
import { eventIdOf } from './replica.ts';
import { roomIdOf } from './subjects.ts';

/**
 * The scripted responder (docs/swarm.md "Scripted responder", `DB8_SWARM_SCRIPTED_RESPONDER=on`):
 * so one person on a laptop can watch a question get answered. When this node opens a question's
 * room it joins as its own participant (the key derived for principal `node-role:scripted-responder`) with
 * the model label `scripted`, and, if the fold admits the join (the question's filters), posts one
 * answer that says it is scripted — in its speaker, its model label and its text, like every
 * scripted seat. A question whose filters refuse the join gets no answer (the refusal is listed).
 */

export const SCRIPTED_SPEAKER = 'scripted responder';
// Not a login's principal shape (those are `user:…`, `agent:…`, `oidc:…`): no account shares this key.
const PRINCIPAL = 'node-role:scripted-responder';

export type ResponderStep = 'answered' | 'not-open' | 'refused';

export class ScriptedResponder {
  constructor(
    private readonly runtime: Runtime,
    private readonly transport: SwarmTransport,
    private readonly node: NodeIdentity,
  ) {}

  /** Joins and answers the question; each publish must be applied for the next to go out. */
  async answer(questionId: string, now: number): Promise<ResponderStep> {
    const v = await this.view(questionId);
    if (v?.status !== 'open') return 'not-open';
    const q = v.question;
    const joined = await this.send(
      q.id,
      q.scope,
      {
        type: 'swarm/room-join',
        'responder/models': ['scripted'],
        'responder/languages': q.languages.length ? q.languages : ['en'],
        'responder/tags': q.tags,
      },
      now,
    );
    if (!joined) return 'refused';
    const text =
      `[scripted] ${this.node.nodeId} runs a scripted responder, not a person or a model: ` +
      `it answers every question it is admitted to with this text, so you can watch the room work. ` +
      `Your question had ${q.tags.length ? `the tags ${q.tags.join(', ')}` : 'no tags'}.`;
    const said = await this.send(
      q.id,
      q.scope,
      {
        type: 'swarm/room-message',
        'message/kind': 'answer',
        'message/text': text,
        'origin/class': 'node-generated',
        'origin/speaker': SCRIPTED_SPEAKER,
      },
      now,
    );
    return said ? 'answered' : 'refused';
  }

  private async view(questionId: string): Promise<QuestionView | null> {
    const roomId = roomIdOf(questionId);
    const room = await this.runtime.store.rooms.get(roomId);
    if (room?.protocol !== 'question') return null;
    return (await this.runtime.stateFor(roomId, { kind: 'observer' })).view as QuestionView;
  }

  private async send(
    questionId: string,
    scope: string,
    draft: { type: string } & Record<string, unknown>,
    now: number,
  ): Promise<boolean> {
    const signer = principalKey(this.node, PRINCIPAL);
    const record =
      draft.type === 'swarm/room-join'
        ? await recordOf(this.runtime, participantOf(signer.publicKey))
        : undefined;
    const input = nodeInput(draft, questionId, this.node, signer, now, record) as RoomInput;
    const p = await this.transport.publish(
      this.transport.subjects.room(questionId, scope),
      input,
      eventIdOf(input),
    );
    return p.outcome?.status === 'applied';
  }
}
