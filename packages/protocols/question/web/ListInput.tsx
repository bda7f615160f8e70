import { useEffect, useState } from 'react';

// A list typed as text (tags split on commas, summary items one per line), kept as a string array
// for react-hook-form's Controller. The raw text stays local so typing "a, " is not rewritten to
// "a" mid-word; the form only ever sees the parsed list.

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
  const [raw, setRaw] = useState(list.join(joiner));
  // A reset from outside (the form cleared after a send) shows the new list.
  const outside = list.join(joiner);
  useEffect(() => {
    setRaw((r) => (splitList(r, props.sep).join(joiner) === outside ? r : outside));
  }, [outside, joiner, props.sep]);
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
