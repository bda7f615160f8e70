import { formatWhen, isInstant } from '../lib/when.ts';

// Pretty JSON in a scrollable, selectable block (Chromium makes scrollers keyboard-focusable itself).
// An instant (a unix-ms field named as one: `closesAt`, `deadline`…) gets its date beside it, drawn
// by CSS from `data-when` so the text stays JSON (copied, or read by a test); the top-level fields
// named in `changed` are marked (the inspector: what the last entry changed).

const LINE = /^( *)"((?:[^"\\]|\\.)*)": (-?\d+)(,?)$/;

export function JsonView(props: { value: unknown; testId?: string; changed?: ReadonlySet<string> }) {
  const text = JSON.stringify(props.value, null, 2) ?? 'undefined';
  const changed = props.changed;
  let top: string | null = null;
  return (
    <pre className="json" data-testid={props.testId}>
      {text.split('\n').map((line, i) => {
        const key = /^ {2}"((?:[^"\\]|\\.)*)":/.exec(line);
        if (key) top = key[1]!;
        else if (/^[{}[\]]/.test(line)) top = null;
        const m = LINE.exec(line);
        const when = m && isInstant(m[2]!, Number(m[3])) ? Number(m[3]) : null;
        const mark = changed && top !== null && changed.has(top);
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: lines of one rendering; their order is their identity.
          <span key={i} className={mark ? 'json-line changed' : 'json-line'} data-changed={mark || undefined}>
            {line}
            {when !== null ? (
              <time className="when" dateTime={new Date(when).toISOString()} data-when={formatWhen(when)} />
            ) : null}
            {'\n'}
          </span>
        );
      })}
    </pre>
  );
}
