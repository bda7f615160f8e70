import { type FormEvent, type ReactElement, useMemo, useState } from 'react';
import { api } from '../lib/api.ts';
import { checkConfig, configFields, type FieldSpec, protocolNamed, protocols } from '../lib/protocols.ts';
import { navigate } from '../lib/router.tsx';
import { moduleFor } from '../protocols/registry.ts';

// Admin form: pick a protocol, fill its config (fields generated from the zod schema, or raw JSON),
// create the room and go to it.

type Values = Record<string, unknown>;

const presetFor = (protocol: string): Values => ({ ...moduleFor(protocol)?.createPreset });

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

export function CreateRoom(props: { onCreated?: () => void }) {
  const [protocol, setProtocol] = useState(protocols[0]?.name ?? '');
  const [title, setTitle] = useState('');
  const [values, setValues] = useState<Values>(() => presetFor(protocol));
  const [asJson, setAsJson] = useState(false);
  const [jsonText, setJsonText] = useState(() => JSON.stringify(presetFor(protocol), null, 2));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const proto = protocolNamed(protocol);
  const fields = useMemo(() => (proto ? configFields(proto) : null), [proto]);
  const json = asJson || !fields;

  const pick = (name: string) => {
    setProtocol(name);
    const preset = presetFor(name);
    setValues(preset);
    setJsonText(JSON.stringify(preset, null, 2));
    setError(null);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!proto) return;
    let config: unknown = values;
    if (json) {
      try {
        config = JSON.parse(jsonText);
      } catch (err) {
        setError(`config is not JSON: ${(err as Error).message}`);
        return;
      }
    }
    const problem = checkConfig(proto, config);
    if (problem) {
      setError(problem);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const room = await api.createRoom({
        protocol,
        config,
        ...(title.trim() ? { title: title.trim() } : {}),
      });
      props.onCreated?.();
      navigate(`/rooms/${encodeURIComponent(room.room_id)}`);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="card create-room" onSubmit={submit} aria-labelledby="create-room-h">
      <h2 id="create-room-h">New room</h2>
      <div className="field">
        <label htmlFor="cr-protocol">protocol</label>
        <select id="cr-protocol" value={protocol} onChange={(e) => pick(e.target.value)}>
          {protocols.map((p) => (
            <option key={p.name} value={p.name}>
              {p.name} (v{p.version})
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="cr-title">title (optional)</label>
        <input
          id="cr-title"
          type="text"
          maxLength={200}
          value={title}
          onChange={(e) => setTitle(e.target.value)}
        />
      </div>
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
      <button type="submit" className="primary" disabled={busy || !proto}>
        {busy ? 'Creating…' : 'Create room'}
      </button>
    </form>
  );
}
