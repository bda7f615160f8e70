import type { Ack, ActionError } from '@db8/web/kit';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { SubmitAction } from '../rules/index.ts';
import {
  buildDraft,
  type ClaimForm,
  type DraftForm,
  emptyClaim,
  emptyForm,
  formFromDraft,
  formFromPayload,
  nextClaimId,
  problemLabel,
  type SupportKind,
  validateForm,
} from './draft-form.ts';
import type { Phase, SubmissionRow, SubmitLegal } from './model.ts';
import { SigningOption, type SigningState } from './SigningOption.tsx';
import { signSubmit } from './signing.ts';

// The debater's draft editor: content, claims with supports and confidence, citations. It is
// validated as you type with the protocol's zod schemas and the room's caps, and enabled only
// while the server says a submit is legal (submit / final_submit, before the deadline).

type Result = { ok: boolean; text: string };

function initialForm(row: SubmissionRow | undefined, citationsMin: number): DraftForm {
  if (row?.payload) return formFromPayload(row.payload);
  if (row?.draft) return formFromDraft(row.draft);
  return emptyForm(citationsMin);
}

export function DraftEditor(props: {
  roomId: string;
  seat: string;
  phase: Phase;
  roundId: string | null;
  submit: SubmitLegal | undefined;
  canDraft: boolean;
  canRegisterKey: boolean;
  registeredKeys: readonly string[];
  row: SubmissionRow | undefined;
  send: (action: unknown) => Promise<Ack>;
  /** Called on each edit: the room's "who's typing" signal (throttled by the caller). */
  onTyping?: () => void;
}) {
  const { submit, row } = props;
  const enabled = submit !== undefined;
  const citationsMin = submit?.citations_min ?? 2;
  const [form, setForm] = useState<DraftForm>(() => initialForm(row, citationsMin));
  const [touched, setTouched] = useState<Set<string>>(new Set());
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<Result | null>(null);
  const [signing, setSigning] = useState<SigningState>({ on: false, key: null });

  // A new round starts from that round's own draft or submission, never the last round's text.
  const roundRef = useRef(props.roundId);
  useEffect(() => {
    if (roundRef.current === props.roundId) return;
    roundRef.current = props.roundId;
    setForm(initialForm(row, citationsMin));
    setTouched(new Set());
    setTried(false);
    setResult(null);
  }, [props.roundId, row, citationsMin]);

  // The last caps seen stay in force for display while the editor is locked.
  const lastSubmit = useRef(submit);
  if (submit) lastSubmit.current = submit;
  const caps = lastSubmit.current;
  const validation = useMemo(
    () => (caps ? validateForm(form, caps, props.roomId) : null),
    [form, caps, props.roomId],
  );
  const problems = validation?.problems ?? {};
  const show = (path: string) => (tried || touched.has(path) ? problems[path] : undefined);

  const update = (path: string, fn: (f: DraftForm) => DraftForm) => {
    props.onTyping?.();
    setForm((f) => fn(structuredClone(f)));
    setTouched((t) => (t.has(path) ? t : new Set(t).add(path)));
  };
  const setClaim = (i: number, path: string, fn: (c: ClaimForm) => void) =>
    update(`claims.${i}.${path}`, (f) => {
      fn(f.claims[i]!);
      return f;
    });

  const run = async (what: string, fn: () => Promise<string>) => {
    setBusy(true);
    setResult(null);
    try {
      setResult({ ok: true, text: await fn() });
    } catch (err) {
      const e = err as ActionError;
      setResult({ ok: false, text: `${what}: ${e.code ?? 'ERROR'}: ${e.message}` });
    } finally {
      setBusy(false);
    }
  };

  const onSubmit = () => {
    setTried(true);
    if (!submit || !validation?.ok) return;
    void run('Submit', async () => {
      let action: SubmitAction = { ...validation.action, client_nonce: crypto.randomUUID() };
      if (signing.on && signing.key) {
        action = await signSubmit(action, signing.key);
      }
      const ack = await props.send(action);
      return `Submitted version ${submit.version + 1}${action.signature_kind ? ', signed in this browser' : ''} (entry #${ack.seq}).`;
    });
  };

  const onDraft = () =>
    void run('Save draft', async () => {
      const ack = await props.send(buildDraft(form));
      return `Draft saved privately (entry #${ack.seq}). Only a submit counts.`;
    });

  const contentMax = caps?.content_max ?? 4000;
  const claimsMax = caps?.claims_max ?? 5;
  const problemCount = Object.keys(problems).length;
  const err = (path: string) => {
    const m = show(path);
    return m ? (
      <span className="field-error" id={`err-${path}`} role="note">
        {m}
      </span>
    ) : null;
  };
  const aria = (path: string) =>
    show(path) ? { 'aria-invalid': true as const, 'aria-describedby': `err-${path}` } : {};

  return (
    <section className="card editor" aria-labelledby="editor-h" data-testid="editor">
      <h2 id="editor-h">
        Your statement{' '}
        {enabled ? (
          <span className="badge badge-ok" data-testid="editor-state">
            open
          </span>
        ) : (
          <span className="badge badge-muted" data-testid="editor-state">
            locked
          </span>
        )}
      </h2>
      {!enabled ? (
        <p className="muted small" data-testid="editor-lock">
          {props.phase === 'research'
            ? 'Research phase: the editor opens when the submit window does.'
            : props.phase === 'verify' || props.phase === 'final_verify'
              ? 'Submissions are closed; the fact-checker is at work.'
              : 'The editor opens only during a submit window.'}
        </p>
      ) : null}
      <fieldset className="editor-fields" disabled={!enabled || busy}>
        <legend className="sr-only">Statement</legend>
        <div className="field">
          <label htmlFor="draft-content">
            Argument{' '}
            <span className={`counter${form.content.length > contentMax ? ' over' : ''}`}>
              {form.content.length}/{contentMax}
            </span>
          </label>
          <textarea
            id="draft-content"
            rows={6}
            value={form.content}
            onChange={(e) => update('content', (f) => ({ ...f, content: e.target.value }))}
            {...aria('content')}
          />
          {err('content')}
        </div>

        <fieldset className="claims-edit">
          <legend>
            Claims{' '}
            <span className="small muted">
              ({form.claims.length}/{claimsMax})
            </span>
          </legend>
          {err('claims')}
          {form.claims.map((c, i) => (
            <div className="claim-edit" key={c.id + String(i)} data-testid="claim-edit">
              <div className="claim-edit-head">
                <span className="mono small">{c.id}</span>
                <button
                  type="button"
                  className="ghost small"
                  aria-label={`remove claim ${i + 1}`}
                  disabled={form.claims.length <= 1}
                  onClick={() =>
                    update('claims', (f) => ({ ...f, claims: f.claims.filter((_, j) => j !== i) }))
                  }
                >
                  Remove
                </button>
              </div>
              {err(`claims.${i}.id`)}
              <div className="field">
                <label htmlFor={`claim-${i}-text`}>claim {i + 1}</label>
                <input
                  id={`claim-${i}-text`}
                  value={c.text}
                  onChange={(e) =>
                    setClaim(i, 'text', (cl) => {
                      cl.text = e.target.value;
                    })
                  }
                  {...aria(`claims.${i}.text`)}
                />
                {err(`claims.${i}.text`)}
              </div>
              <div className="field confidence">
                <label htmlFor={`claim-${i}-confidence`}>confidence % (optional)</label>
                <input
                  id={`claim-${i}-confidence`}
                  inputMode="numeric"
                  value={c.confidence}
                  onChange={(e) =>
                    setClaim(i, 'confidence', (cl) => {
                      cl.confidence = e.target.value;
                    })
                  }
                  {...aria(`claims.${i}.confidence`)}
                />
                {err(`claims.${i}.confidence`)}
              </div>
              {err(`claims.${i}.support`)}
              {c.support.map((s, k) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: supports are edited in place by position.
                <div className="support-edit" key={k}>
                  <select
                    aria-label={`claim ${i + 1} support ${k + 1} kind`}
                    value={s.kind}
                    onChange={(e) =>
                      setClaim(i, `support.${k}.kind`, (cl) => {
                        cl.support[k]!.kind = e.target.value as SupportKind;
                      })
                    }
                  >
                    <option value="citation">citation</option>
                    <option value="logic">logic</option>
                    <option value="data">data</option>
                  </select>
                  <input
                    aria-label={`claim ${i + 1} support ${k + 1}`}
                    placeholder={
                      s.kind === 'citation'
                        ? 'source URL or title'
                        : s.kind === 'data'
                          ? 'figure and where it comes from'
                          : 'the reasoning step'
                    }
                    value={s.ref}
                    onChange={(e) =>
                      setClaim(i, `support.${k}.ref`, (cl) => {
                        cl.support[k]!.ref = e.target.value;
                      })
                    }
                    {...aria(`claims.${i}.support.${k}.ref`)}
                  />
                  <button
                    type="button"
                    className="ghost small"
                    aria-label={`remove claim ${i + 1} support ${k + 1}`}
                    disabled={c.support.length <= 1}
                    onClick={() =>
                      setClaim(i, 'support', (cl) => {
                        cl.support.splice(k, 1);
                      })
                    }
                  >
                    ×
                  </button>
                  {err(`claims.${i}.support.${k}.ref`)}
                </div>
              ))}
              <button
                type="button"
                className="chip"
                onClick={() =>
                  setClaim(i, 'support', (cl) => {
                    cl.support.push({ kind: 'logic', ref: '' });
                  })
                }
              >
                + support
              </button>
            </div>
          ))}
          <button
            type="button"
            className="chip"
            disabled={form.claims.length >= claimsMax}
            onClick={() =>
              update('claims', (f) => ({ ...f, claims: [...f.claims, emptyClaim(nextClaimId(f.claims))] }))
            }
          >
            + claim
          </button>
        </fieldset>

        <fieldset className="citations-edit">
          <legend>
            Citations <span className="small muted">(at least {citationsMin})</span>
          </legend>
          {err('citations')}
          {form.citations.map((c, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: citations are edited in place by position.
            <div className="citation-edit" key={i}>
              <input
                aria-label={`citation ${i + 1} URL`}
                placeholder="https://…"
                value={c.url}
                onChange={(e) =>
                  update(`citations.${i}.url`, (f) => {
                    f.citations[i]!.url = e.target.value;
                    return f;
                  })
                }
                {...aria(`citations.${i}.url`)}
              />
              <input
                aria-label={`citation ${i + 1} title`}
                placeholder="title (optional)"
                value={c.title}
                onChange={(e) =>
                  update(`citations.${i}.title`, (f) => {
                    f.citations[i]!.title = e.target.value;
                    return f;
                  })
                }
              />
              <button
                type="button"
                className="ghost small"
                aria-label={`remove citation ${i + 1}`}
                onClick={() =>
                  update('citations', (f) => ({ ...f, citations: f.citations.filter((_, j) => j !== i) }))
                }
              >
                ×
              </button>
              <input
                className="citation-quote-edit"
                aria-label={`citation ${i + 1} quote`}
                placeholder="quote, word for word (optional; checked against the research cache)"
                value={c.quote}
                onChange={(e) =>
                  update(`citations.${i}.quote`, (f) => {
                    f.citations[i]!.quote = e.target.value;
                    return f;
                  })
                }
              />
              {err(`citations.${i}.url`)}
            </div>
          ))}
          <button
            type="button"
            className="chip"
            onClick={() =>
              update('citations', (f) => ({
                ...f,
                citations: [...f.citations, { url: '', title: '', quote: '' }],
              }))
            }
          >
            + citation
          </button>
        </fieldset>

        <SigningOption
          roomId={props.roomId}
          seat={props.seat}
          canRegister={props.canRegisterKey}
          registeredKeys={props.registeredKeys}
          send={props.send}
          onChange={setSigning}
        />

        <div className="row editor-actions">
          <button type="button" className="primary" disabled={!validation?.ok || busy} onClick={onSubmit}>
            {busy ? 'Sending…' : row && row.version > 0 ? `Resubmit (v${row.version + 1})` : 'Submit'}
          </button>
          <button type="button" disabled={!props.canDraft || busy} onClick={onDraft}>
            Save draft
          </button>
          <span className={`small ${problemCount ? 'muted' : 'ok'}`} data-testid="validation-summary">
            {caps && enabled
              ? problemCount
                ? `${problemCount} to fix before submitting`
                : '✓ ready to submit'
              : ''}
          </span>
        </div>
        {tried && problemCount ? (
          <ul className="problems small" data-testid="problems">
            {Object.entries(problems).map(([path, msg]) => (
              <li key={path}>
                {problemLabel(path)}: {msg}
              </li>
            ))}
          </ul>
        ) : null}
      </fieldset>
      {result ? (
        <p className={result.ok ? 'ok' : 'error'} role="status" data-testid="editor-result">
          {result.text}
        </p>
      ) : null}
      {row && row.version > 0 && row.canonical_sha256 ? (
        <p className="small muted" data-testid="my-submission">
          Your submission: v{row.version},{' '}
          <span className="mono">sha256 {row.canonical_sha256.slice(0, 16)}…</span>
          {row.signature
            ? ` · ${row.signature.kind === 'server' ? 'server-attested' : `signed (${row.signature.kind})`}`
            : ''}
        </p>
      ) : null}
    </section>
  );
}
