import { AskDraftSchema, PROFILES, SCOPES } from '@db8/protocols/question';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { errorAt, Field } from '../../components/create/fields.tsx';
import { refusalText, swarmApi } from './api.ts';
import { ListInput } from './ListInput.tsx';

// Ask the swarm: the text, tags, scope, TTL, follow-ups and the room's operator-participation
// profile, checked by the protocol package's ask schema. The node signs the envelope with its node
// key; a refused question (bad TTL, a global room asking for live humans…) publishes nothing.

const FormSchema = AskDraftSchema.pick({
  text: true,
  tags: true,
  scope: true,
  ttl_sec: true,
  follow_ups: true,
  profile: true,
});
type Input = z.input<typeof FormSchema>;

const DEFAULTS: Input = { text: '', tags: [], scope: 'federation-local', ttl_sec: 3600, follow_ups: true };

export function AskForm(props: { onAsked: (questionId: string, roomId: string | undefined) => void }) {
  const [error, setError] = useState<string | null>(null);
  const form = useForm<Input>({
    resolver: zodResolver(FormSchema, undefined, { raw: true }),
    defaultValues: DEFAULTS,
    mode: 'onChange',
  });
  const { register, control, formState } = form;
  const err = (p: string) => errorAt(formState.errors, p);
  const submit = form.handleSubmit(async (v) => {
    setError(null);
    try {
      const r = await swarmApi.ask(FormSchema.parse(v));
      form.reset(DEFAULTS);
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
      <div className="row">
        <button type="submit" className="primary" disabled={formState.isSubmitting}>
          Ask
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
