import { Badge, type Tone } from '@db8/web/kit';
import { usageLine } from '../rules/markdown.ts';
import { type CouncilView, pct } from './model.ts';

// The Final Packet as a page: decision, rationale, scores, next actions (owner + due), risks,
// degradation markers, and the packet's own JSON and Markdown downloads (the server's routes).

type Packet = NonNullable<CouncilView['packet']>;

const VERDICT_TONE: Record<string, Tone> = {
  adopt: 'ok',
  adopt_with_conditions: 'info',
  reject: 'bad',
  defer: 'warn',
  undecided: 'warn',
};

const SCORE_ROWS: Array<[keyof Packet['scores'], string]> = [
  ['consensus', 'Consensus'],
  ['confidence', 'Confidence'],
  ['agreement', 'Agreement'],
  ['support', 'Support'],
  ['coverage', 'Coverage'],
  ['evidence', 'Evidence'],
  ['judgeQuality', 'Judge quality'],
];

function Scores(props: { packet: Packet }) {
  const { scores, lean } = props.packet;
  return (
    <table className="council-scores" data-testid="packet-scores">
      <tbody>
        {SCORE_ROWS.map(([key, label]) => {
          const v = scores[key];
          return (
            <tr key={key} data-testid={`score-${key}`}>
              <th scope="row">
                {label}
                {key === 'support' ? <span className="muted small"> (lean: {lean})</span> : null}
              </th>
              <td className="num">{v === null ? 'n/a' : pct(v)}</td>
              <td className="bar-cell" aria-hidden="true">
                <span className="bar">
                  <span className="bar-fill" style={{ width: `${(v ?? 0) * 100}%` }} />
                </span>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

export function PacketView(props: { roomId: string; packet: Packet; sha256: string | null }) {
  const { packet: p, roomId } = props;
  const base = `/v1/rooms/${encodeURIComponent(roomId)}/council/packet`;
  return (
    <section className="card council-packet" aria-labelledby="packet-h" data-testid="packet">
      <div className="card-head">
        <h2 id="packet-h">Final Packet</h2>
        <div className="packet-links">
          <a className="button ghost" href={`${base}.json`} download data-testid="packet-json">
            Download JSON
          </a>
          <a className="button ghost" href={`${base}.md`} download data-testid="packet-md">
            Download Markdown
          </a>
        </div>
      </div>
      {p.scripted ? (
        <p className="banner banner-info" data-testid="packet-scripted">
          <strong>Scripted run</strong> — roles were played by the scripted provider; this is not model
          output.
        </p>
      ) : null}
      {p.degradation.degraded ? (
        <p className="banner banner-warn" data-testid="packet-degraded">
          <strong>Degraded</strong> — {p.degradation.markers.length} marker(s): this decision rests on less
          evidence than a full council.
        </p>
      ) : null}
      <div className="packet-decision">
        <Badge tone={VERDICT_TONE[p.decision.verdict] ?? 'info'} testId="packet-verdict">
          {p.decision.verdict.replaceAll('_', ' ')}
        </Badge>{' '}
        <span className="muted small">decided by {p.decision.source}</span>
        <p className="decision-text" data-testid="packet-decision">
          {p.decision.summary}
        </p>
        {p.usage ? (
          <p className="muted small" data-testid="packet-usage">
            {usageLine(p.usage)}
          </p>
        ) : null}
      </div>
      <div className="packet-cols">
        <div>
          <h3>Rationale</h3>
          <p className="prose" data-testid="packet-rationale">
            {p.rationale}
          </p>
          <h3>Next actions</h3>
          <div className="table-wrap">
            <table data-testid="packet-actions">
              <thead>
                <tr>
                  <th scope="col">Action</th>
                  <th scope="col">Owner</th>
                  <th scope="col">Due</th>
                  <th scope="col">From</th>
                </tr>
              </thead>
              <tbody>
                {p.nextActions.map((a) => (
                  <tr key={`${a.action}|${a.owner}|${a.due}`}>
                    <td>{a.action}</td>
                    <td data-testid="action-owner">{a.owner}</td>
                    <td className="mono" data-testid="action-due">
                      {a.due}
                    </td>
                    <td className="muted small">{a.source}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <h3>Risks</h3>
          {p.risks.length === 0 ? <p className="muted">None recorded.</p> : null}
          <ul className="packet-risks" data-testid="packet-risks">
            {p.risks.map((r) => (
              <li key={`${r.raisedBy}|${r.risk}`}>
                {r.severity ? (
                  <Badge tone={r.severity === 'high' ? 'bad' : r.severity === 'medium' ? 'warn' : 'muted'}>
                    {r.severity}
                  </Badge>
                ) : null}{' '}
                {r.risk} <span className="muted small">— {r.raisedBy}</span>
                {r.mitigation ? <div className="small">Mitigation: {r.mitigation}</div> : null}
              </li>
            ))}
          </ul>
        </div>
        <div>
          <h3>Scores</h3>
          <Scores packet={p} />
          <h3>Degradation</h3>
          {p.degradation.markers.length === 0 ? (
            <p className="muted" data-testid="packet-markers-none">
              None: every role completed every stage.
            </p>
          ) : (
            <ul className="packet-markers" data-testid="packet-markers">
              {p.degradation.markers.map((m, i) => (
                // Markers may repeat (same stage/role/code), so position is part of the key.
                <li key={i} data-testid="packet-marker">
                  <span aria-hidden="true">⚠ </span>
                  {m.stage}
                  {m.role ? ` / ${m.role}` : ''}: <code>{m.code}</code>{' '}
                  <span className="small">{m.message}</span>
                </li>
              ))}
            </ul>
          )}
          <p className="muted small">
            Run <code>{p.runId}</code> · created{' '}
            <time dateTime={p.createdAt} title={p.createdAt}>
              {new Date(p.createdAt).toLocaleString()}
            </time>
            {props.sha256 ? (
              <>
                {' '}
                · sha256 <code title={props.sha256}>{props.sha256.slice(0, 16)}…</code>
              </>
            ) : null}
          </p>
        </div>
      </div>
    </section>
  );
}
