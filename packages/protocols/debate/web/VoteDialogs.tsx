import type { Ack, ActionError } from '@db8/web/kit';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { type DebateView, displayName } from './model.ts';

// The vote dialogs: continue-or-end after a published round (debaters), and the final approval
// ballot with an optional ranking (final voters). Each opens by itself once when its vote opens,
// can be put aside and reopened, and shows the vote already cast (a later vote replaces it).

function Dialog(props: {
  open: boolean;
  onClose: () => void;
  label: string;
  children: ReactNode;
  testId: string;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (props.open && !d.open) d.showModal();
    if (!props.open && d.open) d.close();
  }, [props.open]);
  return (
    <dialog
      ref={ref}
      className="vote-dialog"
      aria-label={props.label}
      onClose={props.onClose}
      data-testid={props.testId}
    >
      {props.children}
    </dialog>
  );
}

/** Opens once per `key` (a round, or the final vote), then only on request. */
function useAutoOpen(key: string | null): [boolean, (v: boolean) => void] {
  const [open, setOpen] = useState(false);
  const seen = useRef<string | null>(null);
  useEffect(() => {
    if (key !== null && seen.current !== key) {
      seen.current = key;
      setOpen(true);
    }
    if (key === null) setOpen(false);
  }, [key]);
  return [open, setOpen];
}

function useSend(send: (a: unknown) => Promise<Ack>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const go = async (action: unknown): Promise<boolean> => {
    setBusy(true);
    setError(null);
    try {
      await send(action);
      return true;
    } catch (err) {
      const e = err as ActionError;
      setError(`${e.code ?? 'ERROR'}: ${e.message}`);
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, go };
}

export function ContinueVote(props: {
  view: DebateView;
  seat: string;
  open: boolean;
  send: (a: unknown) => Promise<Ack>;
}) {
  const round = props.view.rounds[props.view.round - 1];
  const cv = round?.continue_vote;
  const key = props.open && round ? round.round_id : null;
  const [open, setOpen] = useAutoOpen(key);
  const { busy, error, go } = useSend(props.send);
  if (!props.open || !cv) return null;
  const mine = cv.votes[props.seat];
  const vote = async (choice: 'continue' | 'end') => {
    if (await go({ type: 'vote_continue', choice })) setOpen(false);
  };
  return (
    <section className="card vote-card" aria-label="continue vote">
      <p>
        <strong>Continue the debate?</strong>{' '}
        {mine ? (
          <span data-testid="my-continue-vote">
            You voted <strong>{mine}</strong>.
          </span>
        ) : (
          <span className="muted">You have not voted.</span>
        )}
      </p>
      <button type="button" className="primary" onClick={() => setOpen(true)}>
        {mine ? 'Change vote' : 'Vote'}
      </button>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        label="Continue the debate?"
        testId="continue-dialog"
      >
        <h2>Continue the debate?</h2>
        <p className="muted small">
          Round {round?.index} is revealed. A strict majority of the votes cast decides; a tie follows the
          room's rule ({props.view.config.tie_rules.continue}). {cv.voted.length} of{' '}
          {props.view.debaters.length} debaters have voted.
        </p>
        <div className="row">
          <button type="button" className="primary" disabled={busy} onClick={() => void vote('continue')}>
            Continue
          </button>
          <button type="button" disabled={busy} onClick={() => void vote('end')}>
            End: go to closing statements
          </button>
          <button type="button" className="ghost" onClick={() => setOpen(false)}>
            Later
          </button>
        </div>
        {error ? (
          <p className="error" role="alert">
            {error}
          </p>
        ) : null}
      </Dialog>
    </section>
  );
}

export function FinalVote(props: {
  view: DebateView;
  seat: string;
  candidates: string[] | null;
  send: (a: unknown) => Promise<Ack>;
}) {
  const { view, candidates } = props;
  const [open, setOpen] = useAutoOpen(candidates ? 'final' : null);
  const cast = view.final_vote.ballots[props.seat];
  const [approval, setApproval] = useState<string[]>([]);
  const [ranking, setRanking] = useState<string[]>([]);
  const { busy, error, go } = useSend(props.send);
  // Start from the ballot already cast, or rank everyone in seat order. Keyed by content: every
  // state push brings new arrays, and the user's unsaved choices must survive those.
  const candKey = candidates?.join(',') ?? '';
  const castKey = cast ? JSON.stringify(cast) : '';
  useEffect(() => {
    const cands = candKey ? candKey.split(',') : [];
    const c = castKey ? (JSON.parse(castKey) as { approval: string[]; ranking: string[] }) : null;
    setApproval(c?.approval ?? []);
    setRanking(c?.ranking.length ? c.ranking : cands);
  }, [candKey, castKey]);
  if (!candidates) return null;

  const toggle = (seat: string) =>
    setApproval((a) => (a.includes(seat) ? a.filter((s) => s !== seat) : [...a, seat]));
  const move = (i: number, d: -1 | 1) =>
    setRanking((r) => {
      const j = i + d;
      if (j < 0 || j >= r.length) return r;
      const next = [...r];
      [next[i], next[j]] = [next[j]!, next[i]!];
      return next;
    });
  const submit = async () => {
    const ordered = candidates.filter((c) => approval.includes(c));
    if (await go({ type: 'final_vote', approval: ordered, ranking })) setOpen(false);
  };

  return (
    <section className="card vote-card" aria-label="final vote">
      <p>
        <strong>Final vote.</strong>{' '}
        {cast ? (
          <span data-testid="my-final-vote">
            Your ballot approves {cast.approval.map((s) => displayName(view, s)).join(', ')}.
          </span>
        ) : (
          <span className="muted">You have not voted.</span>
        )}
      </p>
      <button type="button" className="primary" onClick={() => setOpen(true)}>
        {cast ? 'Change ballot' : 'Vote'}
      </button>
      <Dialog open={open} onClose={() => setOpen(false)} label="Final vote" testId="final-dialog">
        <h2>Final vote</h2>
        <fieldset>
          <legend>Approve every debater you found convincing (at least one)</legend>
          {candidates.map((c) => (
            <label key={c} className="inline approve">
              <input type="checkbox" checked={approval.includes(c)} onChange={() => toggle(c)} />
              Approve {displayName(view, c)}
            </label>
          ))}
        </fieldset>
        <fieldset>
          <legend>Rank them, best first (breaks ties)</legend>
          <ol className="ranking">
            {ranking.map((c, i) => (
              <li key={c}>
                <span className="rank-name">{displayName(view, c)}</span>
                <button
                  type="button"
                  className="ghost small"
                  aria-label={`move ${c} up`}
                  disabled={i === 0}
                  onClick={() => move(i, -1)}
                >
                  ↑
                </button>
                <button
                  type="button"
                  className="ghost small"
                  aria-label={`move ${c} down`}
                  disabled={i === ranking.length - 1}
                  onClick={() => move(i, 1)}
                >
                  ↓
                </button>
              </li>
            ))}
          </ol>
        </fieldset>
        <div className="row">
          <button
            type="button"
            className="primary"
            disabled={busy || approval.length === 0}
            onClick={() => void submit()}
          >
            Cast ballot
          </button>
          <button type="button" className="ghost" onClick={() => setOpen(false)}>
            Later
          </button>
        </div>
        {error ? (
          <p className="error" role="alert">
            {error}
          </p>
        ) : null}
      </Dialog>
    </section>
  );
}
