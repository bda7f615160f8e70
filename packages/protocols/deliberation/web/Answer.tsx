import { Link, SeatWho, useSeatLabels } from '@db8/web/kit';
import type { CodeVersion, DeliberationView, Turn } from '../rules/index.ts';

// What a deliberation came to: the winning proposal (or code, for a code task), the summary, the
// dissents and the vote breakdown; and every turn the viewer may read, in full (the journal's rows
// are one-line summaries). A failed session says why; a code task with no passing version says so.
// A seat the server names (a tournament's entrant) reads by that name in the outcome.

const pct = (x: number | null | undefined) =>
  x === null || x === undefined ? '–' : `${Math.round(x * 100)}%`;

/** The version a code task's winner stands on: its last passing version, else its last one. */
export function winningCode(view: DeliberationView): CodeVersion | null {
  const w = view.outcome?.winner;
  if (!w) return null;
  const own = view.codeVersions.filter((v) => v.seat === w);
  return own.filter((v) => v.testPassRate === 1).at(-1) ?? own.at(-1) ?? null;
}

/** The winner's proposal turn (the one the summary quotes), else its last draft. */
function winningTurn(view: DeliberationView): Turn | null {
  const o = view.outcome;
  if (!o?.winner) return null;
  return (
    view.turns.find((t) => t.seq === o.summarySeq) ??
    view.turns.filter((t) => t.seat === o.winner && t.action.type === 'propose').at(-1) ??
    null
  );
}

const textOf = (t: Turn): string => ('content' in t.action ? t.action.content : '');

export function Answer({ view, roomId }: { view: DeliberationView; roomId: string }) {
  const o = view.outcome;
  const labels = useSeatLabels(roomId);
  if (!o) return null;
  const turn = winningTurn(view);
  const code = view.config.task.kind === 'code' ? winningCode(view) : null;
  const votes = Object.entries(o.voteBreakdown).sort((a, b) => b[1] - a[1]);
  const total = votes.reduce((s, [, n]) => s + n, 0);
  return (
    <section className="card delib-answer" aria-label="answer" data-testid="delib-answer">
      <h2>Answer</h2>
      <p className="small" data-testid="delib-outcome">
        Outcome:{' '}
        <strong>
          {o.winner ? <SeatWho seat={o.winner} label={labels.get(o.winner)} bare /> : 'no winner'}
        </strong>{' '}
        by {o.method} at {pct(o.confidence)}
        {o.reachedConsensus ? ' (consensus)' : ' (no consensus)'}
        {o.noPassingCode ? ' — no code version passed its tests' : ''} ·{' '}
        <Link to={`/rooms/${encodeURIComponent(roomId)}/journal`}>journal</Link> ·{' '}
        <Link
          to="/deliberation/lessons"
          search={{ domain: view.config.task.kind === 'code' ? 'code' : 'general' }}
        >
          lessons
        </Link>
      </p>
      {view.failure ? (
        <p className="error small" data-testid="delib-failure">
          {view.failure.code}: {view.failure.message}
        </p>
      ) : null}
      {turn ? (
        <div data-testid="delib-winning">
          <h3>
            Winning proposal{' '}
            <span className="muted small">
              (<SeatWho seat={turn.seat} label={labels.get(turn.seat)} bare />, round {turn.round})
            </span>
          </h3>
          <p className="delib-text">{textOf(turn)}</p>
        </div>
      ) : null}
      {code ? (
        <div data-testid="delib-winning-code">
          <h3>
            Winning code{' '}
            <span className="muted small">
              v{code.version} · tests {pct(code.testPassRate)} · quality {pct(code.qualityScore)}
            </span>
          </h3>
          <pre className="delib-code">{code.code}</pre>
        </div>
      ) : null}
      {o.summary ? (
        <div>
          <h3>Summary</h3>
          <p className="delib-text" data-testid="delib-summary">
            {o.summary}
          </p>
        </div>
      ) : null}
      {votes.length ? (
        <div>
          <h3>Votes</h3>
          <ul className="delib-votes" data-testid="delib-votes">
            {votes.map(([seat, n]) => (
              <li key={seat} data-seat={seat} data-votes={n}>
                <SeatWho seat={seat} label={labels.get(seat)} /> {Math.round(n * 100) / 100}{' '}
                <span className="muted small">({pct(total ? n / total : 0)})</span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <div>
        <h3>Dissents</h3>
        {o.dissents.length === 0 ? (
          <p className="muted small">None.</p>
        ) : (
          <ul className="delib-dissents" data-testid="delib-dissents">
            {o.dissents.map((d) => (
              <li key={d.seq}>
                <SeatWho seat={d.seat} label={labels.get(d.seat)} />
                {d.choice ? ` (for ${d.choice})` : ''}: {d.reason}
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}

/** Every turn the viewer may read, each in full: its text, then its other fields. */
export function Turns({ view }: { view: DeliberationView }) {
  if (view.turns.length === 0) return null;
  return (
    <section className="card" aria-label="turns">
      <details data-testid="delib-turns">
        <summary>
          <h2 className="inline">Every turn ({view.turns.length})</h2>
        </summary>
        <ol className="delib-turns">
          {view.turns.map((t) => {
            const { type, call: _call, ...rest } = t.action as Record<string, unknown> & { type: string };
            const { content, ...fields } = rest;
            const extra = Object.entries(fields).filter(
              ([, v]) => v !== null && !(Array.isArray(v) && v.length === 0),
            );
            return (
              <li key={t.seq} data-testid="delib-turn" data-seq={t.seq}>
                <p className="small">
                  <span className="mono">#{t.seq}</span> round {t.round} · {t.phase.replace('_', ' ')} ·{' '}
                  <strong>{t.seat}</strong> <span className="muted">({t.role})</span> · {type}
                </p>
                {typeof content === 'string' && content ? <p className="delib-text">{content}</p> : null}
                {extra.length ? (
                  <pre className="delib-fields">{JSON.stringify(Object.fromEntries(extra), null, 2)}</pre>
                ) : null}
              </li>
            );
          })}
        </ol>
      </details>
    </section>
  );
}
