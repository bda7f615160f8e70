import type { Room } from '@db8/web/kit';
import {
  Badge,
  errorText,
  Link,
  LiveBadge,
  roomClient,
  statusTone,
  tokenFor,
  useCredentials,
  useMutation,
  useRoomLive,
} from '@db8/web/kit';
import { useState } from 'react';
import { Bar, BarChart, Cell, LabelList, ReferenceLine, ResponsiveContainer, XAxis, YAxis } from 'recharts';
import { z } from 'zod';
import type { DeliberationView } from '../rules/index.ts';
import type { LegalAction } from '../rules/view.ts';
import { Answer, Turns } from './Answer.tsx';
import { CodeVersions } from './CodeVersions.tsx';
import { Seats } from './Seats.tsx';
import { SeatTurn } from './SeatTurn.tsx';
import { TopologyGraph } from './TopologyGraph.tsx';

// A deliberation room, kept small: the topology as a graph of who spoke to whom, the phase timeline
// of each round (consensus per phase), the consensus of each round as bars against the threshold,
// the open gate with approve/reject for a reviewer, the viewer's own seat's turn (SeatTurn.tsx), the
// answer once there is one (Answer.tsx), the code versions with their measured pass rate, its trend
// and diffs, and every turn in full. The state is the viewer's own view pushed over the WebSocket; `?raw=1` shows the generic room.

const PHASES = [
  'dehallucination',
  'self_evolvement',
  'proposal',
  'critique',
  'review',
  'optimization',
  'adversarial',
  'convergence',
] as const;

const pct = (x: number | null | undefined) =>
  x === null || x === undefined ? '–' : `${Math.round(x * 100)}%`;

function isView(v: unknown): v is DeliberationView {
  return typeof v === 'object' && v !== null && 'phases' in v && 'layout' in v && 'config' in v;
}

function Timeline({ view }: { view: DeliberationView }) {
  const rounds = Array.from({ length: view.round }, (_, i) => i + 1);
  return (
    <section className="card" aria-label="phase timeline">
      <h2>Phases</h2>
      <div className="delib-timeline-wrap">
        <table className="delib-timeline reflow" data-testid="delib-timeline">
          <thead>
            <tr>
              <th>round</th>
              {PHASES.map((p) => (
                <th key={p}>{p.replace('_', ' ')}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rounds.map((r) => (
              <tr key={r}>
                <th scope="row">{r}</th>
                {PHASES.map((p) => {
                  const rec = view.phases.find((x) => x.round === r && x.phase === p);
                  const now = view.round === r && view.phase === p && rec?.closedAt === null;
                  const cls = !rec ? 'todo' : rec.skipped ? 'skipped' : now ? 'now' : 'done';
                  return (
                    <td
                      key={p}
                      className={`cell-${cls}`}
                      title={rec ? `${rec.passes} pass(es)` : ''}
                      data-label={p.replace('_', ' ')}
                    >
                      {!rec ? '' : rec.skipped ? rec.skipped : now ? '…' : pct(rec.consensus?.score)}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** Consensus per round as recharts bars against the threshold (a reference line). */
function ConsensusChart({ view }: { view: DeliberationView }) {
  const min = view.config.minConsensus;
  const rows = view.rounds.map((o) => ({
    round: `round ${o.round}`,
    confidence: o.confidence,
    ok: o.reachedConsensus,
    text: `${pct(o.confidence)} · ${o.winner ?? 'no winner'}`,
  }));
  return (
    <section className="card" aria-label="consensus per round">
      <h2>Consensus per round</h2>
      <div className="delib-bars" data-testid="delib-consensus">
        {rows.length === 0 ? (
          <p className="muted small">No round has converged yet.</p>
        ) : (
          <ResponsiveContainer width="100%" height={36 * rows.length + 48}>
            <BarChart data={rows} layout="vertical" margin={{ top: 18, right: 12, bottom: 4, left: 4 }}>
              <XAxis type="number" domain={[0, 1]} tickFormatter={pct} tick={{ className: 'axis-label' }} />
              <YAxis type="category" dataKey="round" width={64} tick={{ className: 'axis-label' }} />
              <Bar
                dataKey="confidence"
                isAnimationActive={false}
                barSize={12}
                background={{ className: 'bar-track' }}
              >
                {rows.map((r) => (
                  <Cell key={r.round} className={r.ok ? 'bar bar-ok' : 'bar'} />
                ))}
                <LabelList
                  dataKey="text"
                  content={(l) => (
                    // Above its bar, from the left: a short bar has no room for the text beside it.
                    <text x={Number(l.x) + 4} y={Number(l.y) - 4} className="bar-value">
                      {l.value}
                    </text>
                  )}
                />
              </Bar>
              <ReferenceLine
                x={min}
                className="bar-min"
                label={{ value: `threshold ${pct(min)}`, position: 'top', className: 'axis-label' }}
              />
            </BarChart>
          </ResponsiveContainer>
        )}
      </div>
    </section>
  );
}

function Gate({ roomId, view }: { roomId: string; view: DeliberationView }) {
  const [invalid, setInvalid] = useState<string | null>(null);
  const [reason, setReason] = useState('');
  // The decision is a write as the seat this browser holds (a reviewer), else as the person; the
  // room's live feed shows the gate decided, so nothing is read again here.
  const decision = useMutation({
    mutationFn: (d: 'approve' | 'reject') =>
      roomClient(roomId).request(z.unknown(), 'POST', `/v1/debates/${encodeURIComponent(roomId)}/${d}`, {
        reason: reason.trim() || 'approved in the web app',
      }),
  });
  const busy = decision.isPending;
  const error = invalid ?? (decision.error ? errorText(decision.error) : null);
  const gate = view.gates.at(-1);
  if (!gate || gate.decision !== null || view.status !== 'paused') return null;
  // Only those the server lets decide see the buttons: an admin, or a reviewer seat held here.
  const mayDecide =
    view.you.kind === 'admin' ||
    (view.you.seat !== null && view.config.gates.reviewers.includes(view.you.seat));
  const decide = (d: 'approve' | 'reject') => {
    if (d === 'reject' && !reason.trim()) {
      setInvalid('Say why you reject: the reason is recorded.');
      return;
    }
    setInvalid(null);
    decision.mutate(d);
  };
  return (
    <section className="card delib-gate" aria-label="approval gate" data-testid="delib-gate">
      <h2>
        Waiting for approval after {gate.phase} (round {gate.round})
      </h2>
      <p className="muted small">
        Reviewers: {view.config.gates.reviewers.join(', ')} · on timeout: {view.config.gates.onTimeout}
        {gate.deadline ? ` at ${new Date(gate.deadline).toLocaleTimeString()}` : ''}
      </p>
      {mayDecide ? (
        <>
          <div className="field">
            <label htmlFor="gate-reason">reason (required to reject)</label>
            <input
              id="gate-reason"
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              maxLength={2000}
            />
          </div>
          <p className="row">
            <button type="button" className="primary" disabled={busy} onClick={() => decide('approve')}>
              Approve
            </button>
            <button type="button" className="ghost" disabled={busy} onClick={() => decide('reject')}>
              Reject
            </button>
          </p>
        </>
      ) : (
        <p className="muted" data-testid="gate-waiting">
          A reviewer decides this gate.
        </p>
      )}
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
    </section>
  );
}

function Decided({ view }: { view: DeliberationView }) {
  const decided = view.gates.filter((g) => g.decision !== null);
  if (decided.length === 0) return null;
  return (
    <ul className="delib-gates small" data-testid="delib-gates">
      {decided.map((g) => (
        <li key={`${g.round}-${g.phase}`}>
          Gate after {g.phase} (round {g.round}):{' '}
          <strong>{g.decision === 'approve' ? 'approved' : 'rejected'}</strong> by {g.by ?? '–'}
          {g.reason ? ` — ${g.reason}` : ''}
        </li>
      ))}
    </ul>
  );
}

export function DeliberationRoom(props: { roomId: string; room: Room | null }) {
  useCredentials();
  const { roomId, room } = props;
  const live = useRoomLive(roomId, tokenFor(roomId));
  const view = isView(live.state?.view) ? live.state.view : null;
  return (
    <div className="deliberation">
      <header className="room-head">
        <div>
          <p className="crumbs small">
            <Link to="/">Rooms</Link> / <span className="mono">{roomId}</span>
          </p>
          <h1>{room?.title ?? 'Deliberation'}</h1>
          <p className="meta">
            <code>deliberation</code>{' '}
            <Badge tone={statusTone(view?.status ?? room?.status ?? '')} testId="delib-status">
              {view?.status ?? room?.status ?? '…'}
            </Badge>{' '}
            <LiveBadge
              status={live.status}
              closed={room?.status === 'closed' || live.state?.status === 'closed'}
            />{' '}
            <Link
              to={`/rooms/${encodeURIComponent(roomId)}`}
              search={{ raw: '1' }}
              className="button ghost small"
            >
              Raw log
            </Link>
          </p>
        </div>
      </header>
      {live.error ? (
        <p className="error" role="alert">
          {live.error}
        </p>
      ) : null}
      <Seats
        roomId={roomId}
        room={room}
        closed={
          room?.status === 'closed' ||
          live.state?.status === 'closed' ||
          ['completed', 'failed', 'cancelled'].includes(view?.status ?? '')
        }
      />
      {view ? (
        <>
          <section className="card" aria-label="task">
            <p className="delib-topic">{view.config.topic}</p>
            <p className="muted small">
              {view.config.topology} · {view.config.coordination}
              {view.plan ? ` (${view.plan.style})` : ''} · round {view.round} of {view.config.maxRounds} ·{' '}
              {view.phase}/{view.step} · {view.active.length} seats · leader {view.layout.leader}
            </p>
            <Decided view={view} />
          </section>
          <Answer view={view} roomId={roomId} />
          <Gate roomId={roomId} view={view} />
          <SeatTurn
            roomId={roomId}
            view={view}
            legal={(live.state?.legal?.actions ?? []) as LegalAction[]}
            turnToken={live.state?.turn_token ?? null}
            deadlineMs={live.state?.deadline_ms ?? null}
            deadlineUnix={live.state?.deadline_unix ?? null}
            skewMs={live.skewMs}
            send={(action, token) => live.act(view.you.seat ?? '', action, token)}
          />
          <TopologyGraph view={view} />
          <Timeline view={view} />
          <ConsensusChart view={view} />
          <CodeVersions view={view} />
          <Turns view={view} />
        </>
      ) : (
        <p className="muted">Loading…</p>
      )}
    </div>
  );
}
