import { errorAt, Field } from '@db8/web/kit';
import { zodResolver } from '@hookform/resolvers/zod';
import { useFieldArray, useForm } from 'react-hook-form';
import type { TurnAction } from '../rules/actions.ts';
import { emptyPlan, PlanFormSchema, planAction, type PlanForm as Values } from './turn-forms.ts';

// A seat's plan: the tasks it sets (cpde: the leader's plan for every seat; dpde: its own sub-plan),
// each with an id, a description, who does it and what it waits for. Validated as typed against the
// protocol's task schema; the server's own checks answer on send.

export function PlanForm(props: {
  style: 'cpde' | 'dpde';
  seats: readonly string[];
  self: string;
  submit: (action: TurnAction) => Promise<void>;
}) {
  const form = useForm<Values>({
    resolver: zodResolver(PlanFormSchema),
    defaultValues: emptyPlan(props.style === 'dpde' ? props.self : ''),
    mode: 'onChange',
  });
  const { register, control, formState } = form;
  const tasks = useFieldArray({ control, name: 'tasks' });
  const err = (path: string) => errorAt(formState.errors, path);
  // Under dpde a sub-plan's tasks are its author's: the assignee is the seat itself.
  const assignees = props.style === 'dpde' ? [props.self] : props.seats;
  return (
    <form
      onSubmit={form.handleSubmit((v) => props.submit(planAction(v)))}
      noValidate
      aria-label="plan"
      data-testid="delib-plan-form"
    >
      <p className="muted small">
        {props.style === 'cpde'
          ? 'You plan for every seat: each task goes to a seat, or to anyone.'
          : 'Your own sub-plan: the tasks you will do in the work step.'}
      </p>
      {tasks.fields.map((f, i) => (
        <fieldset key={f.id} className="delib-task" data-testid="delib-plan-task">
          <legend>task {i + 1}</legend>
          <Field id={`plan-${i}-id`} label="id" error={err(`tasks.${i}.id`)}>
            <input id={`plan-${i}-id`} type="text" {...register(`tasks.${i}.id`)} />
          </Field>
          <Field id={`plan-${i}-description`} label="description" error={err(`tasks.${i}.description`)}>
            <textarea id={`plan-${i}-description`} rows={2} {...register(`tasks.${i}.description`)} />
          </Field>
          <Field id={`plan-${i}-assignee`} label="assignee" error={err(`tasks.${i}.assignee`)}>
            <select id={`plan-${i}-assignee`} {...register(`tasks.${i}.assignee`)}>
              {props.style === 'cpde' ? <option value="">anyone</option> : null}
              {assignees.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </Field>
          <Field
            id={`plan-${i}-depends`}
            label="depends on"
            error={err(`tasks.${i}.dependsOn`)}
            hint="Task ids, separated by commas."
          >
            <input id={`plan-${i}-depends`} type="text" {...register(`tasks.${i}.dependsOn`)} />
          </Field>
          {tasks.fields.length > 1 ? (
            <button type="button" className="ghost small" onClick={() => tasks.remove(i)}>
              Remove task {i + 1}
            </button>
          ) : null}
        </fieldset>
      ))}
      {(err('tasks') ?? err('tasks.root')) ? (
        <p className="error small" role="alert">
          {err('tasks') ?? err('tasks.root')}
        </p>
      ) : null}
      <p className="row">
        <button
          type="button"
          className="ghost"
          disabled={tasks.fields.length >= 32}
          onClick={() =>
            tasks.append({
              id: `task-${tasks.fields.length + 1}`,
              description: '',
              assignee: props.style === 'dpde' ? props.self : '',
              dependsOn: '',
            })
          }
        >
          Add task
        </button>
        <button type="submit" className="primary" disabled={formState.isSubmitting || !formState.isValid}>
          {formState.isSubmitting ? 'Sending…' : 'Send plan'}
        </button>
      </p>
    </form>
  );
}
