import { useState } from 'react';

// A list typed as text (tags split on commas, summary items one per line), kept as a string array
// for react-hook-form's Controller. The raw text stays local so typing "a, " is not rewritten to
// "a" mid-word; the form only ever sees the parsed list. Text flows one way only (what is typed →
// the list): an effect that copied the form's list back into the text raced with typing (a stale
// list arriving after a newer keystroke rewrote the text) and once sent a summary short of its last
// line. A form that resets remounts the input instead (give it a new `key`).

export const splitList = (raw: string, sep: 'comma' | 'line'): string[] =>
  raw
    .split(sep === 'comma' ? ',' : '\n')
    .map((s) => s.trim())
    .filter(Boolean);

export function ListInput(props: {
  id: string;
  value: unknown;
  onChange: (v: string[]) => void;
  onBlur?: () => void;
  sep: 'comma' | 'line';
  placeholder?: string;
  rows?: number;
}) {
  const list = Array.isArray(props.value) ? (props.value as string[]) : [];
  const joiner = props.sep === 'comma' ? ', ' : '\n';
  const [raw, setRaw] = useState(() => list.join(joiner));
  const change = (v: string) => {
    setRaw(v);
    props.onChange(splitList(v, props.sep));
  };
  if (props.sep === 'line') {
    return (
      <textarea
        id={props.id}
        rows={props.rows ?? 3}
        value={raw}
        placeholder={props.placeholder}
        onBlur={props.onBlur}
        onChange={(e) => change(e.target.value)}
      />
    );
  }
  return (
    <input
      id={props.id}
      type="text"
      value={raw}
      placeholder={props.placeholder}
      onBlur={props.onBlur}
      onChange={(e) => change(e.target.value)}
    />
  );
}
