import { useState } from 'react';
import { DelegateSchema, type QuestionView } from '../rules/index.ts';
import { swarmApi } from './api.ts';
import { Refusal, type Role, useSend } from './Forms.tsx';

// The secretary role from the web: the asker delegates it to a participant (`swarm/room-delegate`,
// optionally allowed to close), and a participant takes it over once the asker lapsed
// (`swarm/room-takeover`, by the federation's policy). The room decides: a refusal (ASKER_PRESENT
// with the lapse instant, NOT_ELECTED, SECRETARY_TAKEN) is shown as the server's code.

const DelegateDraft = DelegateSchema.pick({
  'secretary/participant-id': true,
  'secretary/node-id': true,
  'close/allowed': true,
});

export function SecretaryCard(props: { view: QuestionView; role: Role }) {
  const { view, role } = props;
  const { error, run } = useSend();
  const others = view.participants.filter((p) => p.id !== view.question.asker);
  const [pick, setPick] = useState(others[0]?.id ?? '');
  const [mayClose, setMayClose] = useState(false);
  if (view.secretary || (role !== 'asker' && role !== 'participant')) return null;
  const qid = view.question.id;

  if (role === 'participant') {
    return (
      <section className="card" aria-labelledby="q-sec-h">
        <h2 id="q-sec-h">Secretary</h2>
        <p className="muted small">
          When the asker has been silent past the presence window, a participant may take over as secretary
          (the federation's policy decides who).
        </p>
        <div className="row">
          <button
            type="button"
            onClick={() => void run(() => swarmApi.input(qid, { type: 'swarm/room-takeover' }))}
          >
            Take over as secretary
          </button>
          <Refusal error={error} id="takeover-error" />
        </div>
      </section>
    );
  }
  const chosen = others.find((p) => p.id === pick) ?? others[0];
  const delegate = () => {
    if (!chosen) return;
    const draft = DelegateDraft.parse({
      'secretary/participant-id': chosen.id,
      'secretary/node-id': chosen.node,
      'close/allowed': mayClose,
    });
    void run(() => swarmApi.input(qid, { type: 'swarm/room-delegate', ...draft }));
  };
  return (
    <section className="card" aria-labelledby="q-sec-h">
      <h2 id="q-sec-h">Secretary</h2>
      {others.length === 0 ? (
        <p className="muted small">No participant to delegate to yet.</p>
      ) : (
        <form
          className="q-delegate"
          aria-label="delegate"
          onSubmit={(e) => {
            e.preventDefault();
            delegate();
          }}
        >
          <label htmlFor="q-delegate-to">Delegate the secretary role to</label>
          <select id="q-delegate-to" value={chosen?.id ?? ''} onChange={(e) => setPick(e.target.value)}>
            {others.map((p) => (
              <option key={p.id} value={p.id}>
                {p.id.length > 40 ? `${p.id.slice(0, 24)}…${p.id.slice(-8)}` : p.id} via {p.node}
              </option>
            ))}
          </select>
          <label className="row small">
            <input type="checkbox" checked={mayClose} onChange={(e) => setMayClose(e.target.checked)} /> may
            close the question
          </label>
          <div className="row">
            <button type="submit">Delegate</button>
            <Refusal error={error} id="delegate-error" />
          </div>
        </form>
      )}
    </section>
  );
}
