import { CouncilConfigSchema, ROLES } from '@db8/protocols/council';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { errorAt, Field, SecondsInput } from '../../components/create/fields.tsx';
import type { CreateFormProps } from '../module.tsx';

// A new council run: the question, its context, and which provider and model play each of the five
// roles (the roster is public: it is written into the room's genesis). Scripted roles say so.

type Input = z.input<typeof CouncilConfigSchema>;

const runId = () => `run-${new Date().toISOString().slice(0, 16).replace(/[:T]/g, '-')}`;

const defaults = (): Input => ({
  runId: runId(),
  question: '',
  context: '',
  outputType: 'decision',
  roster: ROLES.map((role) => ({ role, provider: 'scripted', model: 'scripted', scripted: true })),
  stageWindowMs: 10 * 60_000,
});

export function CreateCouncil(props: CreateFormProps) {
  const form = useForm<Input>({
    resolver: zodResolver(CouncilConfigSchema, undefined, { raw: true }),
    defaultValues: defaults(),
    mode: 'onChange',
  });
  const { register, control, formState } = form;
  const err = (path: string) => errorAt(formState.errors, path);
  return (
    <form onSubmit={form.handleSubmit((c) => props.onSubmit(c as Record<string, unknown>))} noValidate>
      <fieldset>
        <legend>council</legend>
        <Field id="council-question" label="question" error={err('question')}>
          <input
            id="council-question"
            type="text"
            placeholder="Should we ship the new cache?"
            {...register('question')}
          />
        </Field>
        <Field id="council-context" label="context (optional)" error={err('context')}>
          <textarea id="council-context" rows={3} {...register('context')} />
        </Field>
        <div className="grid-fields">
          <Field id="council-run" label="run id" error={err('runId')}>
            <input id="council-run" type="text" className="mono" {...register('runId')} />
          </Field>
          <Field id="council-output" label="record type" error={err('outputType')}>
            <select id="council-output" {...register('outputType')}>
              <option value="decision">decision</option>
              <option value="worklog">worklog</option>
            </select>
          </Field>
          <Field id="council-window" label="stage window (s)" error={err('stageWindowMs')}>
            <Controller
              control={control}
              name="stageWindowMs"
              render={({ field }) => (
                <SecondsInput
                  id="council-window"
                  value={field.value}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                />
              )}
            />
          </Field>
        </div>
      </fieldset>
      <fieldset>
        <legend>roster</legend>
        {ROLES.map((role, i) => (
          <div className="driver-row" key={role}>
            <span className="mono small" style={{ minWidth: '8rem' }}>
              {role}
            </span>
            <input aria-label={`${role} provider`} {...register(`roster.${i}.provider`)} />
            <input aria-label={`${role} model`} {...register(`roster.${i}.model`)} />
            <label className="inline small">
              <input type="checkbox" {...register(`roster.${i}.scripted`)} /> scripted
            </label>
            {(err(`roster.${i}.provider`) ?? err(`roster.${i}.model`)) ? (
              <small className="error">{err(`roster.${i}.provider`) ?? err(`roster.${i}.model`)}</small>
            ) : null}
          </div>
        ))}
      </fieldset>
      {props.footer(form.watch())}
    </form>
  );
}
