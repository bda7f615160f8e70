import { errorAt, Field } from '@db8/web/kit';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import type { TurnAction } from '../rules/actions.ts';
import { emptyProposal, ProposeFormSchema, proposeAction, type ProposeForm as Values } from './turn-forms.ts';

// A seat's proposal in the work step: its text, how sure it is, the plan's tasks it settles (those
// the server says are ready for this seat) and, for a code task, the code.

export function ProposeForm(props: {
  tasks: readonly string[];
  code: boolean;
  language: string | null;
  submit: (action: TurnAction) => Promise<void>;
}) {
  const form = useForm<Values>({
    resolver: zodResolver(ProposeFormSchema),
    defaultValues: emptyProposal(props.tasks),
    mode: 'onChange',
  });
  const { register, formState } = form;
  const err = (path: string) => errorAt(formState.errors, path);
  return (
    <form
      onSubmit={form.handleSubmit((v) => props.submit(proposeAction(v, props.language)))}
      noValidate
      aria-label="proposal"
      data-testid="delib-propose-form"
    >
      <Field id="propose-content" label="proposal" error={err('content')}>
        <textarea id="propose-content" rows={6} {...register('content')} />
      </Field>
      <Field
        id="propose-confidence"
        label="confidence"
        error={err('confidence')}
        hint="How sure you are, from 0 to 1."
      >
        <input
          id="propose-confidence"
          type="number"
          min={0}
          max={1}
          step={0.05}
          {...register('confidence', { valueAsNumber: true })}
        />
      </Field>
      {props.tasks.length > 0 ? (
        <fieldset>
          <legend>tasks this settles</legend>
          {props.tasks.map((t) => (
            <label key={t} className="row small">
              <input type="checkbox" value={t} {...register('taskIds')} /> <span className="mono">{t}</span>
            </label>
          ))}
        </fieldset>
      ) : (
        <p className="muted small">No task of the plan is ready for you: the proposal settles none.</p>
      )}
      {props.code ? (
        <Field
          id="propose-code"
          label={`code (${props.language ?? 'code'})`}
          error={err('source')}
          hint="This is a code task: the server measures the code against its tests."
        >
          <textarea id="propose-code" className="mono" rows={8} spellCheck={false} {...register('source')} />
        </Field>
      ) : null}
      <p className="row">
        <button type="submit" className="primary" disabled={formState.isSubmitting || !formState.isValid}>
          {formState.isSubmitting ? 'Sending…' : 'Send proposal'}
        </button>
      </p>
    </form>
  );
}
