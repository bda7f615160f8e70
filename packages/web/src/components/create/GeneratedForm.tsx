import { type FormEvent, type ReactElement, type ReactNode, useMemo, useState } from 'react';
import { checkConfig, configFields, type FieldSpec, protocolNamed } from '../../lib/protocols.ts';

// The create form of a protocol whose web module has none of its own: fields generated from the
// zod config schema (or raw JSON when the config is not a flat object), starting from the preset.

type Values = Record<string, unknown>;

/** A one-line JSON value; keeps what the user types and reports only values that parse. */
function JsonInput(props: { id: string; value: unknown; onChange: (v: unknown) => void }) {
  const [text, setText] = useState(() => (props.value === undefined ? '' : JSON.stringify(props.value)));
  const [bad, setBad] = useState(false);
  return (
    <input
      id={props.id}
      type="text"
      className="mono"
      aria-invalid={bad}
      value={text}
      onChange={(e) => {
        setText(e.target.value);
        try {
          props.onChange(e.target.value === '' ? undefined : JSON.parse(e.target.value));
          setBad(false);
        } catch {
          setBad(true);
        }
      }}
    />
  );
}

function FieldInput(props: { field: FieldSpec; value: unknown; onChange: (v: unknown) => void }) {
  const { field: f, value, onChange } = props;
  const id = `cfg-${f.name}`;
  const label = (
    <label htmlFor={id}>
      {f.name}
      {f.required ? '' : ' (optional)'}
    </label>
  );
  let input: ReactElement;
  if (f.kind === 'enum') {
    input = (
      <select id={id} value={String(value ?? '')} onChange={(e) => onChange(e.target.value)}>
        {f.options?.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    );
  } else if (f.kind === 'integer' || f.kind === 'number') {
    input = (
      <input
        id={id}
        type="number"
        step={f.kind === 'integer' ? 1 : 'any'}
        min={f.min}
        max={f.max}
        value={value === undefined || value === null ? '' : String(value)}
        placeholder={f.nullable ? 'none' : undefined}
        onChange={(e) =>
          onChange(e.target.value === '' ? (f.nullable ? null : undefined) : Number(e.target.value))
        }
      />
    );
  } else if (f.kind === 'boolean') {
    input = (
      <input id={id} type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked)} />
    );
  } else if (f.kind === 'string') {
    input = (
      <input id={id} type="text" value={String(value ?? '')} onChange={(e) => onChange(e.target.value)} />
    );
  } else {
    input = <JsonInput id={id} value={value} onChange={onChange} />;
  }
  return (
    <div className="field">
      {label}
      {input}
      {f.description ? <small>{f.description}</small> : null}
    </div>
  );
}

export function GeneratedForm(props: {
  protocol: string;
  preset: Values;
  onSubmit: (config: Record<string, unknown>) => void | Promise<void>;
  footer: (config: unknown) => ReactNode;
}) {
  const proto = protocolNamed(props.protocol);
  const fields = useMemo(() => (proto ? configFields(proto) : null), [proto]);
  const [values, setValues] = useState<Values>(props.preset);
  const [asJson, setAsJson] = useState(false);
  const [jsonText, setJsonText] = useState(() => JSON.stringify(props.preset, null, 2));
  const [error, setError] = useState<string | null>(null);
  const json = asJson || !fields;
  let current: unknown = values;
  if (json) {
    try {
      current = JSON.parse(jsonText);
    } catch {
      current = null;
    }
  }

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!proto) return;
    if (current === null || typeof current !== 'object') {
      setError('config is not a JSON object');
      return;
    }
    const problem = checkConfig(proto, current);
    setError(problem);
    if (!problem) void props.onSubmit(current as Record<string, unknown>);
  };

  return (
    <form onSubmit={submit}>
      <fieldset>
        <legend>config</legend>
        {fields ? (
          <label className="inline">
            <input
              type="checkbox"
              checked={asJson}
              onChange={(e) => {
                if (e.target.checked) setJsonText(JSON.stringify(values, null, 2));
                else {
                  try {
                    setValues(JSON.parse(jsonText) as Values);
                  } catch {
                    // Stay on the form values if the JSON does not parse.
                  }
                }
                setAsJson(e.target.checked);
              }}
            />{' '}
            edit as JSON
          </label>
        ) : null}
        {json ? (
          <textarea
            aria-label="config JSON"
            className="code"
            rows={10}
            value={jsonText}
            onChange={(e) => setJsonText(e.target.value)}
            spellCheck={false}
          />
        ) : (
          <div className="grid-fields">
            {fields.map((f) => (
              <FieldInput
                key={f.name}
                field={f}
                value={f.name in values ? values[f.name] : f.default}
                onChange={(v) => setValues((prev) => ({ ...prev, [f.name]: v }))}
              />
            ))}
          </div>
        )}
      </fieldset>
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
      {props.footer(current)}
    </form>
  );
}
