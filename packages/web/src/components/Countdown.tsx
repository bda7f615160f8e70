import { useEffect, useState } from 'react';

// Counts down to the server's deadline. `skewMs` (server − local clock, learnt from the WS welcome)
// makes the count follow the server's clock; the client never decides when a deadline passes.

export function remainingMs(deadlineMs: number, skewMs: number, now = Date.now()): number {
  return Math.max(0, deadlineMs - (now + skewMs));
}

export function formatRemaining(ms: number): string {
  const total = Math.ceil(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const mm = String(m).padStart(2, '0');
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}

export function Countdown(props: {
  deadlineUnix: number | null;
  deadlineMs?: number | null;
  skewMs: number;
}) {
  const deadline = props.deadlineMs ?? (props.deadlineUnix === null ? null : props.deadlineUnix * 1000);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (deadline === null) return;
    const t = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(t);
  }, [deadline]);
  if (deadline === null) {
    return (
      <section className="countdown idle" aria-label="deadline">
        <span className="countdown-value">—</span>
        <span className="countdown-label">no deadline</span>
      </section>
    );
  }
  const left = remainingMs(deadline, props.skewMs, now);
  const at = new Date(deadline).toLocaleTimeString();
  return (
    <section
      className={`countdown${left === 0 ? ' due' : left < 10_000 ? ' soon' : ''}`}
      aria-label="deadline"
      data-deadline-ms={deadline}
    >
      <span className="countdown-value" role="timer" aria-live="off" data-testid="countdown">
        {formatRemaining(left)}
      </span>
      <span className="countdown-label">
        {left === 0 ? 'due — waiting for the server' : `until ${at} (server time)`}
      </span>
    </section>
  );
}
