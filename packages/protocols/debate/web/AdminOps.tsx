import { personalClient } from '@db8/web/kit';
import { useState } from 'react';
import { operateDebate } from '../client/index.ts';
import type { OperateBody } from '../rules/operate-wire.ts';
import type { DebateView } from '../rules/view.ts';

// The admin's desk in a debate room: pause/resume, extend the current window, replace a no-show,
// abort (docs/debate.md, "Operating a debate"). Each button is one entry in the room's log; what
// the rules refuse comes back with its code and is shown as is.

const EXTEND_S = 60;
/** A seat with only these statuses never submitted: the rules let it be replaced. */
const NO_SHOW = new Set(['none', 'draft', 'forfeit']);

export function AdminOps(props: { roomId: string; view: DebateView }) {
  const { view, roomId } = props;
  const [busy, setBusy] = useState(false);
  const [msg, setMsg] = useState<{ ok: boolean; text: string } | null>(null);
  const [seat, setSeat] = useState('');
  const [principal, setPrincipal] = useState('');
  if (view.phase === 'closed') return null;
  const run = async (body: OperateBody, done: string) => {
    setBusy(true);
    try {
      const r = await operateDebate(personalClient(), roomId, body);
      setMsg({ ok: true, text: `${done} (seq ${r.seq})` });
    } catch (e) {
      const err = e as { code?: string; message?: string };
      setMsg({ ok: false, text: `${err.code ?? 'ERROR'}: ${err.message ?? String(e)}` });
    } finally {
      setBusy(false);
    }
  };
  const noShows = view.debaters
    .map((d) => d.seat)
    .filter((s) =>
      view.rounds.every((r) => NO_SHOW.has(r.submissions.find((x) => x.author === s)?.status ?? 'none')),
    );
  return (
    <section className="card" aria-labelledby="ops-h" data-testid="admin-ops">
      <h3 id="ops-h">Operate (admin)</h3>
      {view.paused ? (
        <p className="small" data-testid="paused">
          Paused by {view.paused.by}: {Math.round(view.paused.remaining / 1000)} s left in this window.
        </p>
      ) : null}
      <p className="button-row">
        {view.paused ? (
          <button type="button" disabled={busy} onClick={() => void run({ op: 'resume' }, 'resumed')}>
            Resume
          </button>
        ) : (
          <button type="button" disabled={busy} onClick={() => void run({ op: 'pause' }, 'paused')}>
            Pause
          </button>
        )}{' '}
        <button
          type="button"
          disabled={busy}
          onClick={() => void run({ op: 'extend', seconds: EXTEND_S }, `extended by ${EXTEND_S} s`)}
        >
          Extend +{EXTEND_S} s
        </button>{' '}
        <button
          type="button"
          className="danger"
          disabled={busy}
          onClick={() => {
            if (window.confirm('Abort this debate? It closes now and is not rated.'))
              void run({ op: 'abort' }, 'aborted');
          }}
        >
          Abort
        </button>
      </p>
      <form
        className="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (seat && principal) void run({ op: 'replace', seat, principal }, `${seat} replaced`);
        }}
      >
        <label className="small">
          replace a no-show{' '}
          <select value={seat} onChange={(e) => setSeat(e.target.value)} aria-label="no-show seat">
            <option value="">seat…</option>
            {noShows.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>{' '}
        <input
          type="text"
          placeholder="agent or person id"
          aria-label="new holder"
          value={principal}
          onChange={(e) => setPrincipal(e.target.value)}
        />{' '}
        <button type="submit" disabled={busy || !seat || !principal}>
          Replace
        </button>
      </form>
      {msg ? (
        <p className={msg.ok ? 'small ok' : 'small error'} role={msg.ok ? 'status' : 'alert'}>
          {msg.text}
        </p>
      ) : null}
    </section>
  );
}
