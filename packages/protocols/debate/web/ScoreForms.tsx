import type { Ack, ActionError } from '@db8/web/kit';
import { useState } from 'react';
import { type DebateView, displayName, type LegalAction } from './model.ts';

// The judges' rubric cards (E/R/C/V/Y, 0–100 each, weighted by the room's config) and the
// viewers' stances (agreement 0–100 before and after). Each send replaces the previous set; both
// stay sealed until the results.

type ScoreLegal = Extract<LegalAction, { type: 'score' }>;
type StanceLegal = Extract<LegalAction, { type: 'stance' }>;
const DIMS = [
  ['e', 'Evidence'],
  ['r', 'Reasoning'],
  ['c', 'Clarity'],
  ['v', 'Civility'],
  ['y', 'Yielding'],
] as const;
type Dim = (typeof DIMS)[number][0];
type Card = Record<Dim, number>;

function useSend(send: (a: unknown) => Promise<Ack>) {
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const go = async (action: unknown, done: string) => {
    setBusy(true);
    setResult(null);
    try {
      const ack = await send(action);
      setResult({ ok: true, text: `${done} (entry #${ack.seq}).` });
    } catch (err) {
      const e = err as ActionError;
      setResult({ ok: false, text: `${e.code ?? 'ERROR'}: ${e.message}` });
    } finally {
      setBusy(false);
    }
  };
  const line = result ? (
    <span className={result.ok ? 'ok small' : 'error small'} role="status">
      {result.text}
    </span>
  ) : null;
  return { busy, go, line };
}

export function ScoreForm(props: {
  view: DebateView;
  seat: string;
  legal: ScoreLegal;
  send: (a: unknown) => Promise<Ack>;
}) {
  const { view } = props;
  const sent = view.judging.cards[props.seat] ?? {};
  const [cards, setCards] = useState<Record<string, Card>>(() =>
    Object.fromEntries(
      props.legal.debaters.map((d) => [d, sent[d] ?? { e: 50, r: 50, c: 50, v: 50, y: 50 }]),
    ),
  );
  const { busy, go, line } = useSend(props.send);
  const w = view.config.scoring.weights;
  const set = (d: string, k: Dim, v: number) =>
    setCards((c) => ({ ...c, [d]: { ...(c[d] as Card), [k]: Math.max(0, Math.min(100, Math.round(v))) } }));
  const weighted = (c: Card) => (w.e * c.e + w.r * c.r + w.c * c.c + w.v * c.v + w.y * c.y) / 100;
  return (
    <section className="card" aria-labelledby="score-h">
      <h2 id="score-h">Your rubric cards</h2>
      <p className="small muted">
        Weights {w.e}/{w.r}/{w.c}/{w.v}/{w.y}.{' '}
        {Object.keys(sent).length ? 'Sending again replaces your cards.' : ''}
      </p>
      <div className="table-wrap">
        <table className="score-table">
          <thead>
            <tr>
              <th scope="col">Debater</th>
              {DIMS.map(([k, label]) => (
                <th key={k} scope="col" title={label}>
                  {k.toUpperCase()}
                </th>
              ))}
              <th scope="col" className="num">
                Score
              </th>
            </tr>
          </thead>
          <tbody>
            {props.legal.debaters.map((d) => (
              <tr key={d}>
                <td>{displayName(view, d)}</td>
                {DIMS.map(([k, label]) => (
                  <td key={k}>
                    <input
                      type="number"
                      min={0}
                      max={100}
                      aria-label={`${d} ${label}`}
                      value={cards[d]?.[k] ?? 50}
                      onChange={(e) => set(d, k, Number(e.target.value))}
                    />
                  </td>
                ))}
                <td className="num mono">{cards[d] ? weighted(cards[d]).toFixed(2) : ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="row">
        <button
          type="button"
          className="primary"
          disabled={busy}
          onClick={() =>
            void go(
              {
                type: 'score',
                cards: props.legal.debaters.map((d) => ({ debater: d, ...(cards[d] as Card) })),
              },
              'Cards recorded',
            )
          }
        >
          Send cards
        </button>
        {line}
      </div>
    </section>
  );
}

export function StanceForm(props: {
  view: DebateView;
  seat: string;
  legal: StanceLegal;
  send: (a: unknown) => Promise<Ack>;
}) {
  const { view, legal } = props;
  const prior = view.stances.values[props.seat]?.[legal.when] ?? null;
  const [values, setValues] = useState<Record<string, number>>(() =>
    Object.fromEntries(legal.debaters.map((d) => [d, prior?.[d] ?? 50])),
  );
  const { busy, go, line } = useSend(props.send);
  return (
    <section className="card" aria-labelledby="stance-h">
      <h2 id="stance-h">Your stance {legal.when === 'before' ? 'now' : 'after the debate'}</h2>
      <p className="small muted">
        How much do you agree with each debater (0 = not at all, 100 = fully)? The change from before to after
        is their movement bonus.
      </p>
      {legal.debaters.map((d) => (
        <label key={d} className="stance-row">
          <span>{displayName(view, d)}</span>
          <input
            type="range"
            min={0}
            max={100}
            value={values[d] ?? 50}
            onChange={(e) => setValues((v) => ({ ...v, [d]: Number(e.target.value) }))}
          />
          <span className="mono small">{values[d] ?? 50}</span>
        </label>
      ))}
      <div className="row">
        <button
          type="button"
          className="primary"
          disabled={busy}
          onClick={() =>
            void go(
              {
                type: 'stance',
                when: legal.when,
                stances: legal.debaters.map((d) => ({ debater: d, value: values[d] ?? 50 })),
              },
              'Stance recorded',
            )
          }
        >
          Send stance
        </button>
        {line}
      </div>
    </section>
  );
}
