import { useState } from 'react';
import { Controller, type FieldValues, type UseFormReturn } from 'react-hook-form';
import type { ConfigField, SimpleField } from '../../lib/config-fields.ts';
import { errorAt, Field } from './fields.tsx';

// The inputs of the generated create form, one per kind of config field (lib/config-fields.ts),
// bound to react-hook-form by dotted path (`config.limits.max`); the zod resolver's message for a
// path shows under its input as you type.

export type Form = UseFormReturn<FieldValues>;
/** Paths of JSON parts whose text does not parse, with the parser's message (the resolver reports them). */
export type BadJson = Map<string, string>;

const idOf = (path: string) => `cfg-${path.replace(/^config\.?/, '').replaceAll('.', '-') || 'root'}`;
/** Its own name: a nested field sits in its object's fieldset, which names the object. */
const labelOf = (f: ConfigField) => `${f.name || 'config'}${f.required ? '' : ' (optional)'}`;

/** What an emptied input means: null for a nullable field, absent for an optional one, else as typed. */
function fromText(f: SimpleField, text: string): unknown {
  if (text === '') return f.nullable ? null : f.required && f.kind === 'string' ? '' : undefined;
  return f.kind === 'integer' || f.kind === 'number' ? Number(text) : text;
}

function SimpleInput(props: { field: SimpleField; path: string; form: Form }) {
  const { field: f, path, form } = props;
  const id = idOf(path);
  const error = errorAt(form.formState.errors, path);
  const opts = { setValueAs: (v: unknown) => (typeof v === 'string' ? fromText(f, v) : v) };
  let input: React.ReactElement;
  if (f.kind === 'boolean') input = <input id={id} type="checkbox" {...form.register(path)} />;
  else if (f.kind === 'enum')
    input = (
      <select id={id} {...form.register(path, opts)}>
        {f.required && !f.nullable ? null : <option value="">{f.nullable ? 'none' : '—'}</option>}
        {f.options?.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    );
  else if (f.kind === 'string') input = <input id={id} type="text" {...form.register(path, opts)} />;
  else
    input = (
      <input
        id={id}
        type="number"
        step={f.kind === 'integer' ? 1 : 'any'}
        min={f.min}
        max={f.max}
        placeholder={f.nullable ? 'none' : undefined}
        {...form.register(path, opts)}
      />
    );
  return (
    <Field id={id} label={labelOf(f)} error={error} {...(f.description ? { hint: f.description } : {})}>
      {input}
    </Field>
  );
}

/** A list of simple values: one input per item, with add and remove. */
function ListInput(props: { field: Extract<ConfigField, { kind: 'array' }>; path: string; form: Form }) {
  const { field: f, path, form } = props;
  const id = idOf(path);
  const item = f.item;
  const blank = {
    boolean: false,
    enum: item.options?.[0],
    string: '',
    integer: undefined,
    number: undefined,
  }[item.kind];
  return (
    <Controller
      control={form.control}
      name={path}
      render={({ field }) => {
        const list = Array.isArray(field.value) ? (field.value as unknown[]) : [];
        const put = (i: number, v: unknown) => field.onChange(list.map((x, j) => (j === i ? v : x)));
        return (
          <fieldset className="generated-list" data-testid={id}>
            <legend>{labelOf(f)}</legend>
            {f.description ? <small className="muted">{f.description}</small> : null}
            {list.map((v, i) => {
              const iid = `${id}-${i}`;
              const err = errorAt(form.formState.errors, `${path}.${i}`);
              return (
                // biome-ignore lint/suspicious/noArrayIndexKey: the items are plain values, their place is their identity
                <div className="generated-item" key={i}>
                  {item.kind === 'boolean' ? (
                    <input
                      id={iid}
                      aria-label={`item ${i + 1}`}
                      type="checkbox"
                      checked={v === true}
                      onChange={(e) => put(i, e.target.checked)}
                    />
                  ) : item.kind === 'enum' ? (
                    <select
                      id={iid}
                      aria-label={`item ${i + 1}`}
                      value={String(v ?? '')}
                      onChange={(e) => put(i, e.target.value)}
                    >
                      {item.options?.map((o) => (
                        <option key={o} value={o}>
                          {o}
                        </option>
                      ))}
                    </select>
                  ) : (
                    <input
                      id={iid}
                      aria-label={`item ${i + 1}`}
                      type={item.kind === 'string' ? 'text' : 'number'}
                      value={v === undefined || v === null ? '' : String(v)}
                      onChange={(e) => put(i, fromText(item, e.target.value))}
                    />
                  )}
                  <button
                    type="button"
                    className="chip"
                    aria-label={`Remove item ${i + 1}`}
                    onClick={() => field.onChange(list.filter((_, j) => j !== i))}
                  >
                    ×
                  </button>
                  {err ? (
                    <small className="error" role="alert" data-testid={`error-${iid}`}>
                      {err}
                    </small>
                  ) : null}
                </div>
              );
            })}
            <button type="button" className="chip" onClick={() => field.onChange([...list, blank])}>
              Add item
            </button>
            <Problem form={form} path={path} id={id} />
          </fieldset>
        );
      }}
    />
  );
}

/** A part the form cannot draw as inputs: JSON text, parsed as you type and checked by the schema too. */
function JsonInput(props: { field: ConfigField; path: string; form: Form; bad: BadJson }) {
  const { field: f, path, form, bad } = props;
  const id = idOf(path);
  return (
    <Controller
      control={form.control}
      name={path}
      render={({ field }) => (
        <Field
          id={id}
          label={`${labelOf(f)} — JSON`}
          error={errorAt(form.formState.errors, path)}
          {...(f.description ? { hint: f.description } : {})}
        >
          <JsonText
            id={id}
            value={field.value}
            onBlur={field.onBlur}
            onChange={(text) => {
              try {
                const v = text.trim() === '' ? undefined : JSON.parse(text);
                bad.delete(path);
                field.onChange(v);
              } catch (e) {
                bad.set(path, `not valid JSON: ${(e as Error).message}`);
                // The text itself, so the change is seen and the resolver reports the JSON error.
                field.onChange(text);
              }
            }}
          />
        </Field>
      )}
    />
  );
}

/** Keeps what the user types (which may not parse yet); starts from the value as indented JSON. */
function JsonText(props: { id: string; value: unknown; onChange: (t: string) => void; onBlur: () => void }) {
  const [text, setText] = useState(() =>
    props.value === undefined ? '' : JSON.stringify(props.value, null, 2),
  );
  return (
    <textarea
      id={props.id}
      className="code"
      rows={Math.min(10, Math.max(3, text.split('\n').length))}
      spellCheck={false}
      value={text}
      onBlur={props.onBlur}
      onChange={(e) => {
        setText(e.target.value);
        props.onChange(e.target.value);
      }}
    />
  );
}

/** A message about a whole object or list (a missing object, a cross-field rule, too few items). */
function Problem(props: { form: Form; path: string; id: string }) {
  const m = errorAt(props.form.formState.errors, props.path);
  return m ? (
    <small className="error" role="alert" data-testid={`error-${props.id}`}>
      {m}
    </small>
  ) : null;
}

/** The inputs for one config field at a dotted path; an object is a fieldset of its fields. */
export function ConfigInput(props: { field: ConfigField; path: string; form: Form; bad: BadJson }) {
  const { field: f, path, form, bad } = props;
  if (f.kind === 'json') return <JsonInput {...props} />;
  if (f.kind === 'array') return <ListInput field={f} path={path} form={form} />;
  if (f.kind !== 'object') return <SimpleInput field={f} path={path} form={form} />;
  const fields = (
    <div className="grid-fields">
      {f.fields.map((c) => (
        <ConfigInput key={c.name} field={c} path={`${path}.${c.name}`} form={form} bad={bad} />
      ))}
    </div>
  );
  const problem = <Problem form={form} path={path} id={idOf(path)} />;
  // The config itself sits in the form's own fieldset; nested objects get one each.
  if (path === 'config')
    return (
      <>
        {fields}
        {problem}
      </>
    );
  return (
    <fieldset className="generated-object" data-testid={idOf(path)}>
      <legend>{labelOf(f)}</legend>
      {f.description ? <small className="muted">{f.description}</small> : null}
      {fields}
      {problem}
    </fieldset>
  );
}
