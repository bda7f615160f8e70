import type { Ack, ActionError } from '@db8/web/kit';
import { useState } from 'react';
import { type ClaimVerdict, type VerdictValue, VerdictValueSchema } from '../rules/index.ts';
import { type DebateView, displayName, type LegalAction } from './model.ts';

// The fact-checker's desk during verify: one verdict (true / false / unclear / needs work, with
// a reason) per claim of each debater's latest submission, sent as one `verdict` action naming
// that submission's hash. The protocol decides verified or rejected from the verdicts.

type VerdictLegal = Extract<LegalAction, { type: 'verdict' }>;

function OneVerdict(props: { view: DebateView; legal: VerdictLegal; send: (a: unknown) => Promise<Ack> }) {
  const { view, legal } = props;
  const round = view.rounds[view.round - 1];
  const row = round?.submissions.find((s) => s.author === legal.author);
  const claims = row?.payload?.claims ?? [];
  const [verdicts, setVerdicts] = useState<Record<string, { verdict: VerdictValue; reason: string }>>({});
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const done = row?.verdict?.by === 'fact_checker';

  const get = (id: string) => verdicts[id] ?? { verdict: 'true' as VerdictValue, reason: '' };
  const set = (id: string, patch: Partial<{ verdict: VerdictValue; reason: string }>) =>
    setVerdicts((v) => ({ ...v, [id]: { ...get(id), ...patch } }));
  const ready = legal.claim_ids.every((id) => get(id).reason.trim().length > 0);

  const send = async () => {
    setBusy(true);
    setResult(null);
    try {
      const list: ClaimVerdict[] = legal.claim_ids.map((id) => ({
        claim_id: id,
        verdict: get(id).verdict,
        reason: get(id).reason.trim(),
      }));
      const ack = await props.send({
        type: 'verdict',
        author: legal.author,
        canonical_sha256: legal.canonical_sha256,
        claims: list,
      });
      setResult({ ok: true, text: `Verdict recorded (entry #${ack.seq}).` });
    } catch (err) {
      const e = err as ActionError;
      setResult({ ok: false, text: `${e.code ?? 'ERROR'}: ${e.message}` });
    } finally {
      setBusy(false);
    }
  };

  return (
    <fieldset className="verdict-edit" data-testid="verdict-form" data-author={legal.author}>
      <legend>
        {displayName(view, legal.author)} {done ? <span className="badge badge-ok">verdict sent</span> : null}
      </legend>
      {legal.claim_ids.map((id) => {
        const claim = claims.find((c) => c.id === id);
        return (
          <div key={id} className="verdict-claim">
            <p className="small">
              <span className="mono muted">{id}</span> {claim?.text ?? ''}
            </p>
            <div className="verdict-inputs">
              <select
                aria-label={`${legal.author} ${id} verdict`}
                value={get(id).verdict}
                onChange={(e) => set(id, { verdict: VerdictValueSchema.parse(e.target.value) })}
              >
                {VerdictValueSchema.options.map((v) => (
                  <option key={v} value={v}>
                    {v.replace('_', ' ')}
                  </option>
                ))}
              </select>
              <input
                aria-label={`${legal.author} ${id} reason`}
                placeholder="reason"
                value={get(id).reason}
                onChange={(e) => set(id, { reason: e.target.value })}
              />
            </div>
          </div>
        );
      })}
      <div className="row">
        <button type="button" className="primary" disabled={busy || !ready} onClick={() => void send()}>
          {done ? 'Replace verdict' : 'Send verdict'}
        </button>
        {result ? (
          <span className={result.ok ? 'ok small' : 'error small'} role="status">
            {result.text}
          </span>
        ) : null}
      </div>
    </fieldset>
  );
}

export function VerdictDesk(props: {
  view: DebateView;
  legal: LegalAction[];
  send: (a: unknown) => Promise<Ack>;
}) {
  const items = props.legal.filter((a): a is VerdictLegal => a.type === 'verdict');
  if (items.length === 0) return null;
  return (
    <section className="card" aria-labelledby="verdict-h">
      <h2 id="verdict-h">Fact-check this round</h2>
      <p className="small muted">
        Give every claim a verdict and a reason. A false claim, or more than half needing work, rejects a
        submission.
      </p>
      {items.map((l) => (
        <OneVerdict key={`${l.author}-${l.canonical_sha256}`} view={props.view} legal={l} send={props.send} />
      ))}
    </section>
  );
}
