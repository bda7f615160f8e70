import type { ReactNode } from 'react';

export type Tone = 'ok' | 'bad' | 'warn' | 'info' | 'muted';

export function Badge(props: { tone: Tone; children: ReactNode; title?: string; testId?: string }) {
  return (
    <span className={`badge badge-${props.tone}`} title={props.title} data-testid={props.testId}>
      {props.children}
    </span>
  );
}

export function statusTone(status: string): Tone {
  if (status === 'open' || status === 'running') return 'ok';
  if (status === 'closed' || status === 'done') return 'muted';
  return 'info';
}
