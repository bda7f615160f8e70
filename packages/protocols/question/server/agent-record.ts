import { type AgentRecordSource, roomRecord, sectionOf } from '@db8/server/kit';
import type { QuestionView } from '../rules/index.ts';

const TITLE_MAX = 80;

/**
 * Swarm questions in an agent's profile: the rooms this node linked to the principal (authors.ts —
 * it signed the principal's drafts there), its answers given and accepted and its questions asked.
 * An answer is accepted when the asker's verdict accepted it (an asker accepting its own answer does
 * not count). The seat column says the role, never the participant key.
 */
export const questionAgentRecord: AgentRecordSource = {
  async read(q, ctx) {
    const rows = [];
    let given = 0;
    let accepted = 0;
    let asked = 0;
    for (const seat of q.seats) {
      const st = await ctx.runtime.stateFor(seat.roomId, { kind: 'observer' }).catch(() => null);
      if (!st) continue;
      const v = st.view as QuestionView;
      const text = v.question.text;
      const title = seat.title ?? (text.length > TITLE_MAX ? `${text.slice(0, TITLE_MAX - 1)}…` : text);
      const key = seat.seat;
      const mine = v.messages.filter((m) => m.kind === 'answer' && m.author === key);
      const ok = mine.filter((m) => m.verdict === 'accept' && m.author !== v.question.asker).length;
      given += mine.length;
      accepted += ok;
      const asker = v.question.asker === key;
      if (asker) asked++;
      const all = v.messages.filter((m) => m.kind === 'answer').length;
      const words = asker
        ? `asked: ${all} answer${all === 1 ? '' : 's'}${v.close ? `, ${v.close.resolution}` : ''}`
        : mine.length === 0
          ? 'joined, no answer'
          : `${mine.length} answer${mine.length === 1 ? '' : 's'}, ${ok} accepted`;
      const row = roomRecord({ ...seat, title, seat: asker ? 'asker' : 'answerer' }, { outcome: words });
      rows.push(row);
    }
    return sectionOf(
      'question',
      rows,
      [
        { label: 'answers given', value: given },
        { label: 'answers accepted', value: accepted },
        { label: 'questions asked', value: asked },
      ],
      { winners: false },
    );
  },
};
