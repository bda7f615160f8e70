import { Badge, type Tone } from '@db8/web/kit';
import { CitationCheck } from './CitationCheck.tsx';
import type { RoundView, SubmissionRow } from './model.ts';

// One debater's turn in a round, as a chat message. Before the reveal only its author (and the
// fact-checker during verify) can read it; everyone else gets a sealed placeholder pointing at the
// log entry whose commitment holds it. After the reveal: content, claims with their supports and
// the fact-checker's verdict per claim, citations, and how it was signed.

const VERDICT_TONE: Record<string, Tone> = { true: 'ok', false: 'bad', unclear: 'muted', needs_work: 'warn' };
const VERDICT_TEXT: Record<string, string> = {
  true: '✓ true',
  false: '✗ false',
  unclear: '? unclear',
  needs_work: '△ needs work',
};

export function statusBadge(status: SubmissionRow['status']) {
  const tone: Tone =
    status === 'verified' ? 'ok' : status === 'rejected' || status === 'forfeit' ? 'bad' : 'info';
  return (
    <Badge tone={tone} testId="submission-status">
      {status === 'none' ? 'nothing yet' : status}
    </Badge>
  );
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

export function SubmissionCard(props: {
  row: SubmissionRow;
  round: RoundView;
  name: string;
  mine: boolean;
  /** Set to check quoted citations against the room's research cache. */
  roomId?: string;
}) {
  const { row, round, mine } = props;
  const published = round.published_at !== null;
  const p = row.payload;
  const head = (
    <header className="msg-head">
      <strong className="msg-author">{props.name}</strong>
      {props.name !== row.author ? <span className="mono small muted">{row.author}</span> : null}
      {mine ? <Badge tone="info">you</Badge> : null}
      {statusBadge(row.status)}
      {row.version > 1 ? <span className="small muted">v{row.version}</span> : null}
      {row.signature ? (
        <Badge
          tone={row.signature.kind === 'server' ? 'muted' : 'ok'}
          title={row.signature.signer_fingerprint ?? 'recorded by the server (unsigned)'}
        >
          {row.signature.kind === 'server' ? 'server-attested' : `signed · ${row.signature.kind}`}
        </Badge>
      ) : null}
    </header>
  );

  if (!p) {
    const text =
      row.status === 'forfeit'
        ? 'Forfeited: nothing was submitted before the deadline.'
        : row.status === 'none' || row.status === 'draft'
          ? published
            ? 'No submission.'
            : 'Nothing submitted yet.'
          : `Sealed until the round is revealed${row.seq !== null ? ` (commitment in entry #${row.seq})` : ''}.`;
    return (
      <article
        className={`msg sealed${mine ? ' mine' : ''}`}
        data-testid="submission"
        data-author={row.author}
        data-sealed="true"
      >
        {head}
        <p className="muted small">{text}</p>
      </article>
    );
  }

  const verdicts = new Map((row.verdict?.claims ?? []).map((v) => [v.claim_id, v]));
  return (
    <article
      className={`msg${mine ? ' mine' : ''}${row.status === 'rejected' ? ' rejected' : ''}`}
      data-testid="submission"
      data-author={row.author}
      data-sealed="false"
    >
      {head}
      {!published ? (
        <p className="private-note small" data-testid="private-note">
          {mine
            ? 'Only you can read this until the round is revealed.'
            : 'Shown to you to check it; sealed to everyone else until the reveal.'}
        </p>
      ) : null}
      <p className="msg-content" data-testid="content">
        {p.content}
      </p>
      <ol className="claims" aria-label={`claims of ${props.name}`}>
        {p.claims.map((c) => {
          const v = verdicts.get(c.id);
          return (
            <li key={c.id} className="claim" data-claim={c.id}>
              <div className="claim-line">
                <span className="mono small muted">{c.id}</span> <span>{c.text}</span>
                {c.confidence !== undefined ? (
                  <span className="small muted" title="author's confidence">
                    {' '}
                    · {c.confidence}%
                  </span>
                ) : null}
              </div>
              <ul className="supports">
                {c.support.map((s, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: supports have no id; the list is immutable once published.
                  <li key={i} className="small">
                    <span className="support-kind">{s.kind}</span> {s.ref}
                  </li>
                ))}
              </ul>
              {v ? (
                <p className="verdict small" data-testid="verdict" data-verdict={v.verdict}>
                  <Badge tone={VERDICT_TONE[v.verdict] ?? 'muted'}>
                    {VERDICT_TEXT[v.verdict] ?? v.verdict}
                  </Badge>{' '}
                  <span>{v.reason}</span>
                </p>
              ) : null}
            </li>
          );
        })}
      </ol>
      {row.verdict ? (
        <p className="small muted" data-testid="verdict-outcome">
          Fact-check: <strong>{row.verdict.outcome}</strong>
          {row.verdict.by === 'timeout'
            ? ' (no verdict before the bound; settled by the room rule)'
            : ' by the fact-checker'}
        </p>
      ) : null}
      <ul className="citations" aria-label={`citations of ${props.name}`}>
        {p.citations.map((c, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: citations may repeat; order is fixed.
          <li key={i} className="small">
            <a href={c.url} target="_blank" rel="noreferrer noopener">
              {c.title || hostOf(c.url)}
            </a>{' '}
            <span className="muted">{hostOf(c.url)}</span>
            {c.quote ? (
              <>
                <q className="citation-quote">{c.quote}</q>{' '}
                {props.roomId ? <CitationCheck roomId={props.roomId} url={c.url} quote={c.quote} /> : null}
              </>
            ) : null}
          </li>
        ))}
      </ul>
      {p.concessions?.length ? (
        <ul className="concessions small">
          {p.concessions.map((c) => (
            <li key={`${c.round}-${c.author}-${c.claim_id}`}>
              Concedes {c.author}'s {c.claim_id} (round {c.round}){c.note ? `: ${c.note}` : ''}
            </li>
          ))}
        </ul>
      ) : null}
    </article>
  );
}
