import type { PresenceEvent } from '@db8/core';
import { Badge } from '@db8/web/kit';
import { type DebateView, displayName } from './model.ts';
import type { Known } from './names.tsx';
import { statusBadge } from './SubmissionCard.tsx';

// Who is in the debate and where each debater stands this round: anonymous seats (names only
// after the reveal), this round's submission status, signing keys, and who has voted. Only what
// the view already makes public: never content, never how anyone voted before the tally.
// With live presence: who is connected now (a dot and its words) and who is typing a draft.

export function Participants(props: {
  view: DebateView;
  mySeat: string | null;
  names?: Known;
  presence?: PresenceEvent | null;
}) {
  const { view, presence } = props;
  const online = new Set(presence?.who.map((w) => w.participant_id) ?? []);
  const typing = new Set(presence?.typing ?? []);
  const debaterSeats = new Set(view.debaters.map((d) => d.seat));
  const others = [...online].filter((s) => !debaterSeats.has(s));
  const round = view.rounds[view.round - 1];
  const voted = new Set(round?.continue_vote && !round.continue_vote.tally ? round.continue_vote.voted : []);
  const finalVoted = new Set(view.phase === 'final_vote' ? view.final_vote.voted : []);
  return (
    <section className="card participants" aria-labelledby="people-h">
      <h2 id="people-h">Debaters</h2>
      <ul className="people">
        {view.debaters.map((d) => {
          const row = round?.submissions.find((s) => s.author === d.seat);
          return (
            <li key={d.seat} data-seat={d.seat}>
              {presence ? (
                <span
                  className={`presence-dot${online.has(d.seat) ? ' on' : ''}`}
                  data-testid={`presence-${d.seat}`}
                  title={online.has(d.seat) ? 'connected' : 'not connected'}
                >
                  <span className="sr-only">{online.has(d.seat) ? 'connected: ' : 'away: '}</span>
                </span>
              ) : null}
              <strong>{displayName(view, d.seat, props.names)}</strong>
              {d.identity ? <span className="mono small muted"> {d.seat}</span> : null}
              {d.seat === props.mySeat ? <Badge tone="info">you</Badge> : null}{' '}
              {row ? statusBadge(row.status) : null}
              {d.keys.length ? (
                <span className="small muted" title={d.keys.join('\n')}>
                  {' '}
                  · {d.keys.length} signing key{d.keys.length === 1 ? '' : 's'}
                </span>
              ) : null}
              {voted.has(d.seat) || finalVoted.has(d.seat) ? (
                <span className="small muted"> · voted</span>
              ) : null}
              {typing.has(d.seat) ? (
                <span className="small typing" data-testid={`typing-${d.seat}`}>
                  {' '}
                  · typing…
                </span>
              ) : null}
            </li>
          );
        })}
      </ul>
      {presence ? (
        <p className="small muted" aria-live="polite" data-testid="presence-summary">
          {online.size} connected
          {others.length ? ` (also ${others.join(', ')})` : ''}
          {typing.size
            ? ` · ${[...typing].map((s) => displayName(view, s, props.names)).join(', ')} typing`
            : ''}
        </p>
      ) : null}
      {view.phase === 'final_vote' ? (
        <p className="small muted">{view.final_vote.voted.length} final ballots cast so far.</p>
      ) : null}
    </section>
  );
}
