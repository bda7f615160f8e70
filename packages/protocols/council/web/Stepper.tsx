import { type CouncilView, type StepState, steps } from './model.ts';

// The eight-state machine as a stepper: done (ok or degraded), the current state, and those ahead.

const MARK: Record<StepState, string> = {
  done: '✓',
  degraded: '!',
  current: '●',
  pending: '○',
  aborted: '✕',
};

export function Stepper(props: { view: CouncilView }) {
  const { view } = props;
  const end = view.status === 'completed' ? 'completed' : view.status === 'aborted' ? 'aborted' : 'running';
  return (
    <nav className="card council-steps" aria-label="council state">
      <ol data-testid="council-stepper">
        {steps(view).map((s) => (
          <li
            key={s.stage}
            className={`step step-${s.state}`}
            data-testid={`step-${s.stage}`}
            data-state={s.state}
            aria-current={s.state === 'current' ? 'step' : undefined}
            title={s.detail ?? undefined}
          >
            <span className="step-mark" aria-hidden="true">
              {MARK[s.state]}
            </span>
            <span className="step-name">{s.stage}</span>
            {s.state === 'degraded' ? <span className="step-sub">degraded</span> : null}
          </li>
        ))}
        <li className={`step step-end step-${end}`} data-testid="step-end" data-state={end}>
          <span className="step-mark" aria-hidden="true">
            {end === 'completed' ? '✓' : end === 'aborted' ? '✕' : '…'}
          </span>
          <span className="step-name">{end === 'running' ? 'end' : end}</span>
        </li>
      </ol>
      {view.abort ? (
        <p className="error" role="alert">
          Aborted in {view.abort.stage}: <code>{view.abort.error.code}</code> {view.abort.error.message}
        </p>
      ) : null}
    </nav>
  );
}
