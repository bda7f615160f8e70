import { Badge, type Tone } from '@db8/web/kit';
import type { ReactNode } from 'react';
import { ADMITTED_ORIGINS, type Profile, type QuestionView } from '../rules/index.ts';
import { short } from './api.ts';

// The read-only parts of an answer room: the envelope's facts, the operator-participation profile,
// who is in the room, the messages with their origin, the summaries and the close.

const time = (ms: number) => new Date(ms).toLocaleTimeString();
const list = (xs: readonly string[]) => (xs.length ? xs.join(', ') : '—');

/** A did:key or node id, shortened, the whole id on hover. */
export function Id(props: { id: string | null; testId?: string }) {
  if (!props.id) return <span className="muted">—</span>;
  return (
    <span className="mono q-id" title={props.id} data-testid={props.testId}>
      {short(props.id)}
    </span>
  );
}

export function Facts({ view }: { view: QuestionView }) {
  const q = view.question;
  const rows: Array<[string, ReactNode]> = [
    [
      'question id',
      <span key="id" className="mono">
        {q.id}
      </span>,
    ],
    ['scope', q.scope],
    ['tags', list(q.tags.map((t) => `#${t}`))],
    ['asked', new Date(q.createdAt).toLocaleString()],
    ['expires', new Date(q.deadline).toLocaleString()],
    ['asker node', <Id key="n" id={q.askerNode} />],
    ['asker', <Id key="a" id={q.asker} />],
    ['follow-ups', q.followUps ? 'allowed' : 'not allowed'],
    ['languages', list(q.languages)],
    ['models required', list(q.modelsRequire)],
    ['models excluded', list(q.modelsExclude)],
    ['min reputation', q.minReputation === null ? '—' : String(q.minReputation)],
  ];
  return (
    <dl className="q-facts" aria-label="question envelope">
      {rows.map(([k, v]) => (
        <div key={k}>
          <dt>{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  );
}

const ORIGIN_TONE: Record<string, Tone> = {
  'node-generated': 'info',
  'node-mediated-human': 'warn',
  'human-live': 'ok',
};

export function OriginBadge({ origin, testId = 'origin' }: { origin: string; testId?: string }) {
  return (
    <Badge tone={ORIGIN_TONE[origin] ?? 'muted'} testId={testId} title="origin class">
      {origin}
    </Badge>
  );
}

/** `children`: the asker's or secretary's form to change the profile, when they may. */
export function ProfileCard({ view, children }: { view: QuestionView; children?: ReactNode }) {
  const admitted = ADMITTED_ORIGINS[view.profile as Profile] ?? [];
  const s = view.secretary;
  return (
    <section className="card" aria-labelledby="q-profile-h">
      <h2 id="q-profile-h">Operator participation</h2>
      <p>
        <strong className="mono" data-testid="q-profile">
          {view.profile}
        </strong>{' '}
        <span className="muted small">admits</span>{' '}
        {admitted.map((o) => (
          <OriginBadge key={o} origin={o} testId="admitted-origin" />
        ))}
      </p>
      {view.profile === 'direct-live-allowed' && !s ? (
        <p className="small muted">Live humans speak only while a secretary is present.</p>
      ) : null}
      <p className="small">
        Secretary:{' '}
        {s ? (
          <>
            <Id id={s.participant} /> via {s.via}
            {s.closeAllowed ? ', may close' : ''}
          </>
        ) : (
          <span className="muted">none</span>
        )}
      </p>
      {view.profiles.length > 1 ? (
        <ol className="q-history small">
          {view.profiles.map((p) => (
            <li key={p.seq}>
              <span className="mono">{p.profile}</span> at {time(p.at)}
              {p.by ? (
                <>
                  {' '}
                  by <Id id={p.by} />
                </>
              ) : (
                ' (opened)'
              )}
            </li>
          ))}
        </ol>
      ) : null}
      {children}
    </section>
  );
}

export function Participants({ view }: { view: QuestionView }) {
  return (
    <section className="card" aria-labelledby="q-people-h">
      <h2 id="q-people-h">Participants ({view.participants.length})</h2>
      {view.participants.length === 0 ? <p className="muted small">Nobody has joined yet.</p> : null}
      <ul className="q-people small">
        {view.participants.map((p) => (
          <li key={p.id}>
            <Id id={p.id} /> <span className="muted">via</span> <Id id={p.node} />
            <div className="muted">
              {p.models.length ? `models ${list(p.models)} · ` : ''}
              {p.languages.length ? `${list(p.languages)} · ` : ''}
              {list(p.tags.map((t) => `#${t}`))}
              {p.reputation !== null ? ` · reputation ${p.reputation}` : ''}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** `actions`: what the viewer may do to one message (the asker's verdict on an answer). */
export function Messages({
  view,
  actions,
}: {
  view: QuestionView;
  actions?: ((m: QuestionView['messages'][number]) => ReactNode) | undefined;
}) {
  if (view.messages.length === 0)
    return (
      <p className="muted" data-testid="q-no-messages">
        No answers yet.
      </p>
    );
  return (
    <ol className="q-messages" data-testid="q-messages">
      {view.messages.map((m) => (
        <li key={m.id} className={`q-msg q-msg-${m.kind}`} data-testid="q-message" data-seq={m.seq}>
          <div className="q-msg-head small">
            <span className="q-kind">{m.kind}</span>
            <OriginBadge origin={m.origin} />
            <span>
              <span className="muted">speaker</span> <strong data-testid="speaker">{m.speaker}</strong>
            </span>
            <span>
              <span className="muted">gateway</span> <Id id={m.gateway} testId="gateway" />
            </span>
            {m.verdict ? (
              <Badge tone={m.verdict === 'accept' ? 'ok' : 'bad'} testId="verdict">
                {m.verdict}ed
              </Badge>
            ) : null}
            <time className="muted">
              #{m.seq} · {time(m.at)}
            </time>
          </div>
          <p className="q-msg-text">{m.text}</p>
          {actions?.(m)}
        </li>
      ))}
    </ol>
  );
}

function Items(props: { title: string; items: readonly string[] }) {
  if (props.items.length === 0) return null;
  return (
    <div className="q-items">
      <h3>{props.title}</h3>
      <ul>
        {props.items.map((x, i) => (
          // Items are free text and may repeat; their order is the summary's.
          // biome-ignore lint/suspicious/noArrayIndexKey: a summary's list never reorders.
          <li key={i}>{x}</li>
        ))}
      </ul>
    </div>
  );
}

export function Summaries({ view }: { view: QuestionView }) {
  return (
    <section className="card" aria-labelledby="q-sum-h">
      <h2 id="q-sum-h">Summaries ({view.summaries.length})</h2>
      {view.summaries.length === 0 ? <p className="muted small">No summary yet.</p> : null}
      {view.summaries.map((s) => {
        const accepted = view.close?.acceptedSummary === s.id;
        return (
          <article
            key={s.id}
            id={`summary-${s.id}`}
            className={`q-summary${accepted ? ' q-accepted' : ''}`}
            data-testid="q-summary"
          >
            <div className="q-msg-head small">
              <Badge tone={s.status === 'final' ? 'ok' : 'info'}>{s.status}</Badge>
              <span>by the {s.role}</span>
              <Id id={s.author} />
              {accepted ? <Badge tone="ok">accepted</Badge> : null}
              <time className="muted">
                #{s.seq} · {time(s.at)}
              </time>
            </div>
            <Items title="Facts" items={s.facts} />
            <Items title="Hypotheses" items={s.hypotheses} />
            <Items title="Recommendations" items={s.recommendations} />
            <div className="q-uncertainty small" data-testid="q-uncertainty">
              <span>uncertainty {Math.round(s.uncertainty * 100)}%</span>
              <span className="q-bar" aria-hidden="true">
                <span style={{ width: `${s.uncertainty * 100}%` }} />
              </span>
            </div>
          </article>
        );
      })}
    </section>
  );
}

export function CloseCard({ view }: { view: QuestionView }) {
  const c = view.close;
  if (!c) return null;
  return (
    <section className="card q-close" aria-labelledby="q-close-h" data-testid="q-close">
      <h2 id="q-close-h">
        {view.status === 'expired' ? 'Expired' : 'Closed'}:{' '}
        <span data-testid="q-resolution">{c.resolution}</span>
      </h2>
      <p className="small">
        by the {c.role}
        {c.by ? (
          <>
            {' '}
            <Id id={c.by} />
          </>
        ) : null}{' '}
        at {time(c.at)}
      </p>
      {c.acceptedSummary ? <AcceptedSummary view={view} named={c.acceptedSummary} /> : null}
    </section>
  );
}

/** The summary a close accepted, shown by its content (the close names it by key or id). */
function AcceptedSummary(props: { view: QuestionView; named: string }) {
  const s = props.view.summaries.find((x) => x.key === props.named || x.id === props.named);
  if (!s) return <p className="small mono">Accepted summary {props.named}</p>;
  return (
    <div className="small" data-testid="q-accepted">
      <p>
        Accepted summary (<a href={`#summary-${s.id}`}>#{s.seq}</a>, by the {s.role}):
      </p>
      <ul>
        {[...s.facts, ...s.recommendations].map((line, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a summary's lines never reorder.
          <li key={i}>{line}</li>
        ))}
      </ul>
    </div>
  );
}
