import type { ReactNode } from 'react';
import type { FieldErrors, FieldValues } from 'react-hook-form';

// Small pieces the protocol modules' create forms share: a labelled field that shows the zod
// resolver's message for its path, and the error lookup by dotted path.

/** The resolver's message at a dotted path (`timings.submit_ms`), if any. */
export function errorAt<T extends FieldValues>(errors: FieldErrors<T>, path: string): string | undefined {
  let node: unknown = errors;
  for (const k of path.split('.')) node = (node as Record<string, unknown> | undefined)?.[k];
  const m = (node as { message?: unknown } | undefined)?.message;
  return typeof m === 'string' ? m : undefined;
}

export function Field(props: {
  id: string;
  label: string;
  error?: string | undefined;
  hint?: string;
  children: ReactNode;
}) {
  return (
    <div className="field">
      <label htmlFor={props.id}>{props.label}</label>
      {props.children}
      {props.error ? (
        <small className="error" role="alert" data-testid={`error-${props.id}`}>
          {props.error}
        </small>
      ) : props.hint ? (
        <small className="muted">{props.hint}</small>
      ) : null}
    </div>
  );
}

/** A duration typed in seconds and kept in milliseconds (use with react-hook-form's Controller). */
export function SecondsInput(props: {
  id: string;
  value: unknown;
  onChange: (ms: number | undefined) => void;
  onBlur?: () => void;
}) {
  const v = typeof props.value === 'number' ? props.value / 1000 : '';
  return (
    <input
      id={props.id}
      type="number"
      min={0}
      step="any"
      value={v}
      onBlur={props.onBlur}
      onChange={(e) =>
        props.onChange(e.target.value === '' ? undefined : Math.round(Number(e.target.value) * 1000))
      }
    />
  );
}
