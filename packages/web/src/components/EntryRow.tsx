import type { ReactNode } from 'react';
import type { Revealed } from '../lib/reveals.ts';
import type { Entry } from '../lib/types.ts';
import { formatWhen, isInstant } from '../lib/when.ts';
import { entryWords } from '../protocols/registry.ts';
import { Badge } from './Badge.tsx';

// One log entry, compact: seq, time, kind, actor, who may read it, and its payload or commitment.

function summary(value: unknown, max = 160): string {
  const s = JSON.stringify(value) ?? '';
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/** Who may read the entry; every kind but `public` is sealed to the rest until revealed. */
export function visLabel(e: Entry): string {
  switch (e.vis.kind) {
    case 'public':
      return 'public';
    case 'seat':
      return `sealed · ${e.vis.seat}`;
    case 'seats':
      return `sealed · ${e.vis.seats.join(', ')}`;
    case 'admin':
      return 'sealed · admin';
  }
}

/** A payload's top-level instants as dates (a tick's `deadline`): the summary shows only ms. */
function Instants(props: { value: unknown }) {
  const v = props.value;
  if (!v || typeof v !== 'object' || Array.isArray(v)) return null;
  const found = Object.entries(v).filter(([k, x]) => isInstant(k, x)) as Array<[string, number]>;
  if (found.length === 0) return null;
  return (
    <div className="small muted instants">
      {found.map(([k, ms], i) => (
        <span key={k}>
          {i > 0 ? ' · ' : ''}
          {k} <time dateTime={new Date(ms).toISOString()}>{formatWhen(ms)}</time>
        </span>
      ))}
    </div>
  );
}

export function EntryBody(props: { entry: Entry; revealed?: Revealed | undefined }) {
  const e = props.entry;
  const r = props.revealed;
  return (
    <>
      {e.payload !== undefined ? (
        <code className="payload">{summary(e.payload)}</code>
      ) : e.sealed ? (
        <code className="payload" title="visible to you">
          {summary(e.sealed.payload)} <span className="muted">(sealed, visible to you)</span>
        </code>
      ) : (
        <code className="payload muted" title={e.commit}>
          commit {e.commit?.slice(0, 16)}…
        </code>
      )}
      <Instants value={e.payload ?? e.sealed?.payload ?? r?.payload} />
      {r ? (
        <div className="revealed small" data-testid="revealed">
          <span className={r.ok ? 'ok' : 'error'}>
            {r.ok ? '✓' : '✗'} revealed in #{r.by}
            {r.ok ? '' : ' — does not match the commitment'}
          </span>{' '}
          {e.payload === undefined && !e.sealed ? <code>{summary(r.payload)}</code> : null}
        </div>
      ) : null}
      {e.reveals?.length ? (
        <div className="reveals small">reveals {e.reveals.map((r) => `#${r.seq}`).join(', ')}</div>
      ) : null}
    </>
  );
}

export function EntryRow(props: {
  entry: Entry;
  revealed?: Revealed | undefined;
  extra?: ReactNode;
  /** The entry the inspector is at: marked. */
  inspected?: boolean;
  /** The room's protocol: its web module may put the entry in words (WebModule.describeEntry). */
  protocol?: string | undefined;
}) {
  const e = props.entry;
  const words = entryWords(props.protocol, e);
  return (
    <li
      className={`entry kind-${e.kind}${props.inspected ? ' inspected' : ''}`}
      data-seq={e.seq}
      data-testid="entry"
      aria-current={props.inspected ? 'step' : undefined}
    >
      <span className="seq mono">#{e.seq}</span>
      <time className="small muted" dateTime={new Date(e.ts).toISOString()}>
        {new Date(e.ts).toLocaleTimeString()}
      </time>
      <span className="kind">{e.kind}</span>
      <span className="actor mono">{e.actor}</span>
      <Badge tone={e.vis.kind === 'public' ? 'muted' : 'warn'}>{visLabel(e)}</Badge>
      <div className="body">
        {words ? (
          <p className="words" data-testid="entry-words">
            {words}
          </p>
        ) : null}
        <EntryBody entry={e} revealed={props.revealed} />
      </div>
      {props.extra ? <div className="extra">{props.extra}</div> : null}
    </li>
  );
}
