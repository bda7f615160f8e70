import { type Ack, type ActionError, api, Countdown, Link } from '@db8/web/kit';
import { useRef, useState } from 'react';
import type { TurnAction } from '../rules/actions.ts';
import type { DeliberationView, LegalAction } from '../rules/view.ts';
import { sendWithFreshToken } from './fresh-token.ts';
import { JudgeForm } from './JudgeForm.tsx';
import { PlanForm } from './PlanForm.tsx';
import { ProposeForm } from './ProposeForm.tsx';

// The viewer's own seat: the form for the turn the server offers it now (its legal actions), the
// step's deadline, and the server's answer. Only a legal turn gets a form; otherwise the panel says
// why there is none. One send at a time: a second click while one is in flight sends nothing.

type Outcome = { ok: true; text: string } | { ok: false; text: string };

const FORMS = new Set(['plan', 'propose', 'critique', 'review']);

function whyNot(view: DeliberationView, seat: string): string {
  if (['completed', 'failed', 'cancelled'].includes(view.status)) return 'The session is over.';
  if (view.status === 'paused') return 'Paused at an approval gate: no turns until a reviewer decides it.';
  if (!view.active.includes(seat)) return 'Your seat has left the session.';
  const waiting = view.waitingFor.join(', ');
  return `Not your turn: ${view.phase}/${view.step} waits for ${waiting || 'no seat'}.`;
}

export function SeatTurn(props: {
  roomId: string;
  view: DeliberationView;
  legal: readonly LegalAction[];
  turnToken: string | null;
  deadlineMs: number | null;
  deadlineUnix: number | null;
  skewMs: number;
  send: (action: unknown, turnToken: string | null) => Promise<Ack>;
}) {
  const { view } = props;
  const seat = view.you.seat;
  const inFlight = useRef(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  if (view.you.kind !== 'debater' || seat === null) return null;
  const turn = props.legal.find((a) => a.type !== 'failed' && a.type !== 'forfeit' && a.type !== 'cancel');
  const token = props.turnToken;
  // A form lives as long as its step: the turn token also moves when other seats act, which must
  // not wipe what the person is typing.
  const step = `${view.round}.${view.phase}.${view.pass}.${view.step}`;

  // Resolves either way (the form's submit state ends with it); the outcome says what happened.
  const submit = async (action: TurnAction) => {
    if (inFlight.current) return;
    inFlight.current = true;
    setOutcome(null);
    try {
      const readToken = async () =>
        ((await api.state(props.roomId)) as { turn_token?: string | null }).turn_token ?? null;
      const ack = await sendWithFreshToken((t) => props.send(action, t), readToken, token, step);
      setOutcome({ ok: true, text: `Your ${action.type} is in the log (entry ${ack.seq}).` });
    } catch (err) {
      const e = err as ActionError;
      setOutcome({ ok: false, text: `Refused: ${e.code ?? 'ERROR'}: ${e.message ?? String(err)}` });
    } finally {
      inFlight.current = false;
    }
  };

  const language = view.config.task.language;
  let body: React.ReactNode;
  if (!turn)
    body = (
      <p className="muted" data-testid="delib-turn-none">
        {whyNot(view, seat)}
      </p>
    );
  else if (!FORMS.has(turn.type))
    body = (
      <p className="muted" data-testid="delib-turn-none">
        This step takes <strong>{turn.type}</strong>, which this page has no form for yet: send it from the{' '}
        <Link to={`/rooms/${encodeURIComponent(props.roomId)}`} search={{ raw: '1' }}>
          raw room's action form
        </Link>
        .
      </p>
    );
  else if (turn.type === 'plan')
    body = <PlanForm key={step} style={turn.style} seats={turn.seats} self={seat} submit={submit} />;
  else if (turn.type === 'critique' || turn.type === 'review')
    body = <JudgeForm key={step} kind={turn.type} candidates={turn.candidates} submit={submit} />;
  else if (turn.type === 'propose')
    body = <ProposeForm key={step} tasks={turn.tasks} code={turn.code} language={language} submit={submit} />;

  return (
    <section className="card delib-turn" aria-label="your turn" data-testid="delib-turn">
      <header className="row">
        <h2>
          Your seat <span className="mono">{seat}</span>
          {turn ? <span className="muted small"> · {turn.type} now</span> : null}
        </h2>
        {view.status === 'running' ? (
          <Countdown deadlineMs={props.deadlineMs} deadlineUnix={props.deadlineUnix} skewMs={props.skewMs} />
        ) : null}
      </header>
      <p className="muted small">
        Round {view.round} · {view.phase}/{view.step}
      </p>
      {body}
      {outcome ? (
        <p
          className={outcome.ok ? 'small' : 'error'}
          role={outcome.ok ? 'status' : 'alert'}
          data-testid={outcome.ok ? 'delib-turn-sent' : 'delib-turn-error'}
        >
          {outcome.text}
        </p>
      ) : null}
    </section>
  );
}
