import { Badge } from '@db8/web/kit';
import { type DebateView, displayName, type RoundView } from './model.ts';
import type { Known } from './names.tsx';
import { SubmissionCard } from './SubmissionCard.tsx';

// The transcript, round by round. A round's messages appear together when one entry reveals them
// (the atomic reveal); until then each debater's slot shows only that something is sealed.

const time = (ms: number) => new Date(ms).toLocaleTimeString();

function RoundHead(props: { round: RoundView }) {
  const r = props.round;
  const title = r.kind === 'final' ? 'Final round' : `Round ${r.index}`;
  return (
    <header className="round-head">
      <h2>
        {title} <span className="mono small muted">{r.label}</span>
      </h2>
      {r.published_at !== null ? (
        <span className="small">
          <Badge tone="ok">revealed</Badge> at {time(r.published_at)}
          {r.published_seq !== null ? <span className="muted"> · entry #{r.published_seq}</span> : null}
        </span>
      ) : (
        <span className="small">
          <Badge tone="warn">sealed</Badge>{' '}
          <span className="muted">submissions close at {time(r.submit_deadline)}</span>
        </span>
      )}
    </header>
  );
}

function ContinueVote(props: { round: RoundView }) {
  const cv = props.round.continue_vote;
  if (!cv) return null;
  if (cv.tally) {
    return (
      <p className="round-foot small" data-testid="continue-tally">
        Continue vote: {cv.tally.continue} continue · {cv.tally.end} end →{' '}
        <strong>{cv.tally.outcome === 'continue' ? 'the debate continues' : 'on to the final round'}</strong>
        {cv.tally.by === 'tie_rule' ? ' (tie rule)' : ''}
      </p>
    );
  }
  return (
    <p className="round-foot small muted">
      Continue vote open until {time(cv.closes_at)} · {cv.voted.length} voted
    </p>
  );
}

export function Transcript(props: {
  view: DebateView;
  mySeat: string | null;
  names?: Known;
  roomId?: string;
}) {
  const { view } = props;
  return (
    <section className="card transcript" aria-labelledby="transcript-h">
      <h2 id="transcript-h" className="sr-only">
        Transcript
      </h2>
      {view.rounds.length === 0 ? <p className="muted">No round has opened yet.</p> : null}
      {view.rounds.map((r) => (
        <section
          key={r.round_id}
          className={`round${r.published_at !== null ? ' published' : ''}`}
          data-testid="round"
          data-round={r.index}
          data-published={r.published_at !== null}
        >
          <RoundHead round={r} />
          <div className="messages">
            {r.submissions.map((row) => (
              <SubmissionCard
                key={row.author}
                row={row}
                round={r}
                name={displayName(view, row.author, props.names)}
                mine={row.author === props.mySeat}
                {...(props.roomId ? { roomId: props.roomId } : {})}
              />
            ))}
          </div>
          <ContinueVote round={r} />
        </section>
      ))}
    </section>
  );
}
