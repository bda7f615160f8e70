import type { CreateFormProps } from '@db8/web/kit';
import { errorAt, Field, SecondsInput } from '@db8/web/kit';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { CouncilConfigSchema, ROLES } from '../rules/index.ts';

// A new council run: the question, its context, the record type and the stage window, checked by
// the protocol's schema. The run id and the roster (who plays each role) are the server's to fill:
// from the drivers chosen below, `remote` for roles people or agents join (docs/drivers.md).

const FormSchema = CouncilConfigSchema.omit({ runId: true, roster: true, usageInPacket: true });
type Input = z.input<typeof FormSchema>;

const DEFAULTS: Input = { question: '', context: '', outputType: 'decision', stageWindowMs: 10 * 60_000 };

/** Only for listing the seats in the driver picker (the seats do not depend on the roster). */
const PREVIEW = {
  runId: 'preview',
  roster: ROLES.map((role) => ({ role, provider: 'remote', model: 'remote', scripted: false })),
};

export function CreateCouncil(props: CreateFormProps) {
  const form = useForm<Input>({
    resolver: zodResolver(FormSchema, undefined, { raw: true }),
    defaultValues: DEFAULTS,
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
        <p className="small muted">
          Roles: {ROLES.join(', ')}. Choose below who plays each; the run's roster records it.
        </p>
      </fieldset>
      {props.footer({ ...form.watch(), ...PREVIEW })}
    </form>
  );
}
