import { errorAt, Field } from '@db8/web/kit';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import type { TurnAction } from '../rules/actions.ts';
import { emptyJudge, JudgeFormSchema, judgeAction, type JudgeForm as Values } from './turn-forms.ts';

// A critique or a review of a proposal this seat can see (the legal action's candidates): which
// one, what the seat says and how sure it is; a critique's point with its severity, or a review's
// verdict and score.

export function JudgeForm(props: {
  kind: 'critique' | 'review';
  candidates: readonly string[];
  submit: (action: TurnAction) => Promise<void>;
}) {
  const form = useForm<Values>({
    resolver: zodResolver(JudgeFormSchema),
    defaultValues: emptyJudge(props.candidates),
    mode: 'onChange',
  });
  const { register, formState } = form;
  const err = (path: string) => errorAt(formState.errors, path);
  const num = { valueAsNumber: true } as const;
  return (
    <form
      onSubmit={form.handleSubmit((v) => props.submit(judgeAction(props.kind, v)))}
      noValidate
      aria-label={props.kind}
      data-testid={`delib-${props.kind}-form`}
    >
      <Field id="judge-target" label="proposal" error={err('target')}>
        <select id="judge-target" {...register('target')}>
          {props.candidates.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
          <option value="">none in particular</option>
        </select>
      </Field>
      <Field id="judge-content" label={props.kind} error={err('content')}>
        <textarea id="judge-content" rows={5} {...register('content')} />
      </Field>
      {props.kind === 'critique' ? (
        <>
          <Field id="judge-issue" label="issue" error={err('issue')} hint="The main point (optional).">
            <input id="judge-issue" type="text" {...register('issue')} />
          </Field>
          <Field id="judge-severity" label="severity" error={err('severity')}>
            <select id="judge-severity" {...register('severity')}>
              {['low', 'medium', 'high', 'critical'].map((s) => (
                <option key={s}>{s}</option>
              ))}
            </select>
          </Field>
        </>
      ) : (
        <>
          <Field id="judge-verdict" label="verdict" error={err('verdict')}>
            <select id="judge-verdict" {...register('verdict')}>
              {['approve', 'revise', 'reject'].map((s) => (
                <option key={s}>{s}</option>
              ))}
            </select>
          </Field>
          <Field id="judge-score" label="score" error={err('score')} hint="From 0 to 1.">
            <input id="judge-score" type="number" min={0} max={1} step={0.05} {...register('score', num)} />
          </Field>
        </>
      )}
      <Field id="judge-confidence" label="confidence" error={err('confidence')} hint="From 0 to 1.">
        <input
          id="judge-confidence"
          type="number"
          min={0}
          max={1}
          step={0.05}
          {...register('confidence', num)}
        />
      </Field>
      <p className="row">
        <button type="submit" className="primary" disabled={formState.isSubmitting || !formState.isValid}>
          {formState.isSubmitting ? 'Sending…' : `Send ${props.kind}`}
        </button>
      </p>
    </form>
  );
}
