import { Countdown } from '@db8/web/kit';
import { type DebateView, phaseText, STEPS, stepIndex } from './model.ts';

// The room's rail: topic, the phase (with where it sits in seed §4's FSM) and a large countdown to
// the server's deadline. The countdown only counts; the server decides when a phase ends.

export function PhaseBar(props: {
  view: DebateView;
  deadlineMs: number | null;
  deadlineUnix: number | null;
  skewMs: number;
}) {
  const { view } = props;
  const current = stepIndex(view.phase);
  const text = phaseText(view.phase);
  const round = view.rounds[view.round - 1];
  const roundLabel =
    round === undefined
      ? null
      : round.kind === 'final'
        ? 'Final round'
        : `Round ${round.index} of ${view.config.max_rounds}`;
  return (
    <section className="phase-bar" aria-label="debate phase">
      <div className="phase-main">
        <p className="phase-topic" data-testid="topic">
          {view.config.topic}
        </p>
        <p className="phase-now">
          <span className={`phase-chip phase-${view.phase}`} data-testid="phase" data-phase={view.phase}>
            {text.title}
          </span>
          {roundLabel ? <span className="phase-round">{roundLabel}</span> : null}
          {round ? <span className="muted small mono">{round.label}</span> : null}
        </p>
        <p className="phase-hint muted small">{text.hint}</p>
        <ol className="phase-steps" aria-label="phases">
          {STEPS.map((s, i) => (
            <li
              key={s.phase}
              className={i < current ? 'done' : i === current ? 'now' : ''}
              aria-current={i === current ? 'step' : undefined}
            >
              {s.label}
            </li>
          ))}
        </ol>
      </div>
      <Countdown deadlineUnix={props.deadlineUnix} deadlineMs={props.deadlineMs} skewMs={props.skewMs} />
    </section>
  );
}
