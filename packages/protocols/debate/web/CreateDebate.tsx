import type { CreateFormProps } from '@db8/web/kit';
import { errorAt, Field, SecondsInput } from '@db8/web/kit';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';
import { DEMO_TIMINGS, type DebateConfigInput, DebateConfigSchema, TimingsSchema } from '../rules/index.ts';

// A new debate: the topic (the one required field), the cast sizes, the rounds and the phase
// windows, checked as you type by the protocol's own zod schema. What is sent is what the form
// holds; the server fills the rest from the schema's defaults.

const T = TimingsSchema.parse({});
const WINDOWS = [
  ['submit_ms', 'submit window (s)'],
  ['verify_ms', 'fact-check window (s)'],
  ['continue_vote_ms', 'continue vote (s)'],
  ['final_submit_ms', 'closing statements (s)'],
  ['final_vote_ms', 'final vote (s)'],
  ['research_ms', 'research before each round (s, 0 skips)'],
  ['results_ms', 'results before the unmasking (s)'],
  ['reveal_ms', 'unmasked stats before closing (s)'],
] as const;

const DEFAULTS: DebateConfigInput = {
  topic: '',
  tags: [],
  debaters: 5,
  judges: 3,
  viewers: 5,
  max_rounds: 3,
  signatures: 'optional',
  placement: 'approval',
  timings: { ...T },
};

const splitTags = (v: unknown) =>
  typeof v === 'string'
    ? v
        .split(',')
        .map((t) => t.trim().toLowerCase())
        .filter(Boolean)
    : v;

export function CreateDebate(props: CreateFormProps) {
  const form = useForm<DebateConfigInput>({
    resolver: zodResolver(DebateConfigSchema, undefined, { raw: true }),
    defaultValues: DEFAULTS,
    mode: 'onChange',
  });
  const { register, control, formState } = form;
  const err = (path: string) => errorAt(formState.errors, path);
  const num = { valueAsNumber: true } as const;
  return (
    <form onSubmit={form.handleSubmit((c) => props.onSubmit(c as Record<string, unknown>))} noValidate>
      <fieldset>
        <legend>debate</legend>
        <Field id="debate-topic" label="topic" error={err('topic')} hint="The motion the debaters argue.">
          <input
            id="debate-topic"
            type="text"
            placeholder="Cities should replace parking minimums with congestion pricing"
            {...register('topic')}
          />
        </Field>
        <Field id="debate-tags" label="tags (comma-separated)" error={err('tags')} hint="Rated per tag too.">
          <input
            id="debate-tags"
            type="text"
            placeholder="urbanism, policy"
            {...register('tags', { setValueAs: splitTags })}
          />
        </Field>
        <div className="grid-fields">
          <Field id="debate-debaters" label="debaters (2–12)" error={err('debaters')}>
            <input id="debate-debaters" type="number" min={2} max={12} {...register('debaters', num)} />
          </Field>
          <Field id="debate-judges" label="judges" error={err('judges')}>
            <input id="debate-judges" type="number" min={0} max={15} {...register('judges', num)} />
          </Field>
          <Field id="debate-viewers" label="viewers" error={err('viewers')}>
            <input id="debate-viewers" type="number" min={0} max={100} {...register('viewers', num)} />
          </Field>
          <Field id="debate-rounds" label="rounds at most" error={err('max_rounds')}>
            <input id="debate-rounds" type="number" min={1} max={20} {...register('max_rounds', num)} />
          </Field>
          <Field id="debate-signatures" label="signatures" error={err('signatures')}>
            <select id="debate-signatures" {...register('signatures')}>
              <option value="optional">optional</option>
              <option value="required">required</option>
            </select>
          </Field>
          <Field
            id="debate-rate-scripted"
            label="rating"
            error={err('rate_scripted')}
            hint="Scripted seats (demos) are left out of the ratings unless you ask."
          >
            <label className="inline">
              <input id="debate-rate-scripted" type="checkbox" {...register('rate_scripted')} /> rate scripted
              seats too
            </label>
          </Field>
          <Field id="debate-placement" label="placements by" error={err('placement')}>
            <select id="debate-placement" {...register('placement')}>
              <option value="approval">approval ballots</option>
              <option value="score">total score</option>
            </select>
          </Field>
        </div>
      </fieldset>
      <fieldset>
        <legend>phase windows</legend>
        <p className="small">
          <button
            type="button"
            data-testid="demo-pace"
            onClick={() => {
              for (const [k, v] of Object.entries(DEMO_TIMINGS))
                form.setValue(`timings.${k as keyof typeof DEMO_TIMINGS}`, v, { shouldValidate: true });
            }}
          >
            demo pace
          </button>{' '}
          <button
            type="button"
            data-testid="standard-pace"
            onClick={() => {
              for (const [k] of WINDOWS) form.setValue(`timings.${k}`, T[k], { shouldValidate: true });
            }}
          >
            standard pace
          </button>{' '}
          <span className="muted">
            Demo pace: windows of seconds, so an all-scripted debate ends in about a minute.
          </span>
        </p>
        <div className="grid-fields">
          {WINDOWS.map(([key, label]) => (
            <Field key={key} id={`debate-${key}`} label={label} error={err(`timings.${key}`)}>
              <Controller
                control={control}
                name={`timings.${key}`}
                render={({ field }) => (
                  <SecondsInput
                    id={`debate-${key}`}
                    value={field.value}
                    onChange={field.onChange}
                    onBlur={field.onBlur}
                  />
                )}
              />
            </Field>
          ))}
        </div>
      </fieldset>
      {props.footer(form.watch())}
    </form>
  );
}
