import { type FormEvent, useEffect, useRef, useState } from 'react';
import type { ActionError } from '../lib/live.ts';
import type { Ack } from '../lib/types.ts';

// A generic action form for a seat holder: a JSON editor plus one button per legal action that
// fills the editor with a starting point. The protocol validates; this form only relays.

/** A starting action for a legal-action descriptor: `{type, minAmount: 5}` → `{type, amount: 5}`. */
export function draftFor(legal: unknown): unknown {
  if (typeof legal !== 'object' || legal === null || Array.isArray(legal)) return legal;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(legal)) {
    const m = /^min([A-Z].*)$/.exec(k);
    if (m) out[m[1]!.charAt(0).toLowerCase() + m[1]!.slice(1)] = v;
    else if (k === 'type' || k === 'kind') out[k] = v;
  }
  return out;
}

function labelOf(legal: unknown): string {
  if (typeof legal === 'object' && legal !== null && 'type' in legal)
    return String((legal as { type: unknown }).type);
  return JSON.stringify(legal);
}

export function ActionForm(props: {
  seat: string;
  legal: unknown[];
  turnToken: string | null;
  /** The room accepts no more input: keep the last result on screen, offer nothing to send. */
  closed?: boolean;
  send: (action: unknown) => Promise<Ack>;
}) {
  const first = props.legal[0];
  const draft = JSON.stringify(first === undefined ? {} : draftFor(first), null, 2);
  const [text, setText] = useState(draft);
  // Follow the legal actions as the room moves on, unless the user is editing.
  const dirty = useRef(false);
  useEffect(() => {
    if (!dirty.current) setText(draft);
  }, [draft]);
  const edit = (t: string) => {
    dirty.current = true;
    setText(t);
  };
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    let action: unknown;
    try {
      action = JSON.parse(text);
    } catch (err) {
      setResult({ ok: false, text: `not JSON: ${(err as Error).message}` });
      return;
    }
    setBusy(true);
    try {
      const ack = await props.send(action);
      dirty.current = false;
      setResult({ ok: true, text: `accepted as entry #${ack.seq}${ack.duplicate ? ' (duplicate)' : ''}` });
    } catch (err) {
      const e2 = err as ActionError;
      setResult({ ok: false, text: `${e2.code ?? 'ERROR'}: ${e2.message}` });
    } finally {
      setBusy(false);
    }
  };

  if (props.closed) {
    return (
      <section className="card action-form" aria-labelledby="act-h">
        <h2 id="act-h">
          Seat <code>{props.seat}</code>
        </h2>
        <p className="muted">The room is closed; it accepts no more actions.</p>
        {result ? (
          <p className={result.ok ? 'ok' : 'error'} role="status" data-testid="action-result">
            {result.text}
          </p>
        ) : null}
      </section>
    );
  }

  return (
    <form className="card action-form" onSubmit={submit} aria-labelledby="act-h">
      <h2 id="act-h">
        Act as <code>{props.seat}</code>
        {props.turnToken ? <span className="badge badge-warn">your turn</span> : null}
      </h2>
      <fieldset className="legal">
        <legend className="small muted">legal actions</legend>
        {props.legal.length === 0 ? <span className="muted small">No legal action right now.</span> : null}
        {props.legal.map((l, i) => (
          <button
            // biome-ignore lint/suspicious/noArrayIndexKey: legal actions have no id; order is stable per state.
            key={i}
            type="button"
            className="chip"
            title={JSON.stringify(l)}
            onClick={() => edit(JSON.stringify(draftFor(l), null, 2))}
          >
            {labelOf(l)}
          </button>
        ))}
      </fieldset>
      <label htmlFor="action-json">action (JSON)</label>
      <textarea
        id="action-json"
        className="code"
        rows={5}
        spellCheck={false}
        value={text}
        onChange={(e) => edit(e.target.value)}
      />
      <div className="row">
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Sending…' : 'Send action'}
        </button>
        {result ? (
          <span className={result.ok ? 'ok' : 'error'} role="status" data-testid="action-result">
            {result.text}
          </span>
        ) : null}
      </div>
    </form>
  );
}
