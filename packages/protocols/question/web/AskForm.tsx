import { errorAt, Field } from '@db8/web/kit';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { AskDraftSchema, PROFILES, SCOPES } from '../rules/index.ts';
import { refusalText, swarmApi } from './api.ts';
import { ListInput } from './ListInput.tsx';

// Ask the swarm: the text, tags, scope, TTL, follow-ups, the room's operator-participation profile
// and the answerer filters (languages, models required/excluded, minimum reputation, urgency),
// checked by the protocol package's ask schema. The node signs the envelope with its node
// key; a refused question (bad TTL, a global room asking for live humans…) publishes nothing.

const FormSchema = AskDraftSchema.pick({
  text: true,
  tags: true,
  scope: true,
  ttl_sec: true,
  follow_ups: true,
  profile: true,
  languages: true,
  models_require: true,
  models_exclude: true,
  min_reputation: true,
  urgency: true,
});
type Input = z.input<typeof FormSchema>;

const DEFAULTS: Input = { text: '', tags: [], scope: 'federation-local', ttl_sec: 3600, follow_ups: true };

const URGENCIES = ['low', 'normal', 'high', 'critical'] as const;
type ListName = 'languages' | 'models_require' | 'models_exclude';

/** An empty filter list means "no filter": it is left out of the ask rather than sent as `[]`. */
function withoutEmptyLists(v: z.output<typeof FormSchema>): z.output<typeof FormSchema> {
  const out = { ...v };
  for (const k of ['languages', 'models_require', 'models_exclude'] as const)
    if (out[k]?.length === 0) delete out[k];
  return out;
}

export function AskForm(props: {
  onAsked: (questionId: string, roomId: string | undefined) => void;
  submitLabel?: string;
}) {
  const [error, setError] = useState<string | null>(null);
  const form = useForm<Input>({
    resolver: zodResolver(FormSchema, undefined, { raw: true }),
    defaultValues: DEFAULTS,
    mode: 'onChange',
  });
  const { register, control, formState } = form;
  // Bumped on reset so the list inputs remount empty (they keep their own text).
  const [generation, setGeneration] = useState(0);
  const err = (p: string) => errorAt(formState.errors, p);
  const list = (name: ListName, label: string, placeholder: string) => (
    <Field id={`q-${name}`} label={label} error={err(name)}>
      <Controller
        control={control}
        name={name}
        render={({ field }) => (
          <ListInput
            key={generation}
            id={`q-${name}`}
            sep="comma"
            placeholder={placeholder}
            value={field.value ?? []}
            onChange={field.onChange}
            onBlur={field.onBlur}
          />
        )}
      />
    </Field>
  );
  const submit = form.handleSubmit(async (v) => {
    setError(null);
    try {
      const r = await swarmApi.ask(withoutEmptyLists(FormSchema.parse(v)));
      form.reset(DEFAULTS);
      setGeneration((g) => g + 1);
      props.onAsked(r.question_id ?? '', r.room_id);
    } catch (e) {
      setError(refusalText(e));
    }
  });
  return (
    <form className="q-ask" onSubmit={submit} noValidate aria-label="ask the swarm">
      <Field id="q-text" label="question" error={err('text')}>
        <textarea id="q-text" rows={3} placeholder="What should the swarm answer?" {...register('text')} />
      </Field>
      <div className="grid-fields">
        <Field id="q-tags" label="tags (comma-separated)" error={err('tags')}>
          <Controller
            control={control}
            name="tags"
            render={({ field }) => (
              <ListInput
                key={generation}
                id="q-tags"
                sep="comma"
                placeholder="rust, storage"
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
              />
            )}
          />
        </Field>
        <Field id="q-scope" label="scope" error={err('scope')}>
          <select id="q-scope" {...register('scope')}>
            {SCOPES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </Field>
        <Field id="q-ttl" label="time to live (s)" error={err('ttl_sec')}>
          <input id="q-ttl" type="number" min={1} {...register('ttl_sec', { valueAsNumber: true })} />
        </Field>
        <Field
          id="q-profile"
          label="operator participation"
          error={err('profile')}
          hint="Empty: the scope's default."
        >
          <select
            id="q-profile"
            {...register('profile', { setValueAs: (v) => (v === '' || v == null ? undefined : v) })}
          >
            <option value="">scope default</option>
            {PROFILES.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <label className="inline">
        <input type="checkbox" {...register('follow_ups')} /> follow-up questions allowed
      </label>
      <fieldset className="q-filters">
        <legend>who may answer (optional filters)</legend>
        <div className="grid-fields">
          {list('languages', 'languages (comma-separated)', 'en, de')}
          {list('models_require', 'models required', 'claude-sonnet')}
          {list('models_exclude', 'models excluded', 'gpt-3.5')}
          <Field id="q-min-rep" label="minimum reputation (0–1)" error={err('min_reputation')}>
            <input
              id="q-min-rep"
              type="number"
              min={0}
              max={1}
              step="any"
              {...register('min_reputation', {
                setValueAs: (v) => (v === '' || v == null ? undefined : Number(v)),
              })}
            />
          </Field>
          <Field id="q-urgency" label="urgency" error={err('urgency')}>
            <select
              id="q-urgency"
              {...register('urgency', { setValueAs: (v) => (v === '' || v == null ? undefined : v) })}
            >
              <option value="">unspecified</option>
              {URGENCIES.map((u) => (
                <option key={u} value={u}>
                  {u}
                </option>
              ))}
            </select>
          </Field>
        </div>
      </fieldset>
      <div className="row">
        <button type="submit" className="primary" disabled={formState.isSubmitting}>
          {props.submitLabel ?? 'Ask'}
        </button>
        {error ? (
          <span className="error" role="alert" data-testid="ask-error">
            {error}
          </span>
        ) : null}
      </div>
    </form>
  );
}
