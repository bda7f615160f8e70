import type { CreateFormProps } from '@db8/web/kit';
import { errorAt, Field, SecondsInput } from '@db8/web/kit';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useFieldArray, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { DeliberationConfigSchema, PHASES, ROLES } from '../rules/index.ts';

// A new deliberation: the task (text, or code with its language and tests), the seats and their
// roles, the topology and coordination, the approval gates, the voting method and the thresholds,
// checked as you type by the protocol's own zod schema. Who plays each seat (open, scripted or a
// model) is the shell's driver picker in the footer, fed by the seats this form lists.

type Input = z.input<typeof DeliberationConfigSchema>;

const STARTING_SEATS: Input['seats'] = [
  { id: 'architect', role: 'architect', score: 9, specialization: null, provider: 'any', model: 'any' },
  { id: 'critic', role: 'critic', score: 8.5, specialization: null, provider: 'any', model: 'any' },
  { id: 'reviewer', role: 'reviewer', score: 8, specialization: null, provider: 'any', model: 'any' },
  { id: 'optimizer', role: 'optimizer', score: 7.5, specialization: null, provider: 'any', model: 'any' },
];

/** A session id the lobby proposes (editable): readable, unique enough for one person's lobby. */
const freshSessionId = () => `delib-${Date.now().toString(36)}`;

const DEFAULTS = (): Input => ({
  sessionId: freshSessionId(),
  topic: '',
  task: { kind: 'text', language: null, complexity: 0.5, confidence: 0, tests: null },
  seats: STARTING_SEATS,
  maxRounds: 3,
  timeoutMs: 300_000,
  phaseTimeoutMs: 60_000,
  minConsensus: 0.75,
  earlyStop: true,
  topology: 'graph_mesh',
  coordination: 'adaptive',
  voting: 'weighted',
  gates: { phases: [], reviewers: ['operator'], timeoutMs: 3_600_000, onTimeout: 'reject' },
  tools: false,
});

const orNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);
const list = (v: unknown) =>
  typeof v === 'string'
    ? v
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean)
    : v;

export function CreateDeliberation(props: CreateFormProps) {
  const form = useForm<Input>({
    resolver: zodResolver(DeliberationConfigSchema, undefined, { raw: true }),
    defaultValues: DEFAULTS(),
    mode: 'onChange',
  });
  const { register, control, formState, watch } = form;
  const seats = useFieldArray({ control, name: 'seats' });
  const err = (path: string) => errorAt(formState.errors, path);
  const num = { valueAsNumber: true } as const;
  const code = watch('task.kind') === 'code';
  const seatCount = watch('seats').length;
  return (
    <form onSubmit={form.handleSubmit((c) => props.onSubmit(c as Record<string, unknown>))} noValidate>
      <fieldset>
        <legend>task</legend>
        <Field id="delib-topic" label="task" error={err('topic')} hint="What the seats deliberate on.">
          <textarea
            id="delib-topic"
            rows={3}
            placeholder="Design a rate limiter for the public API"
            {...register('topic')}
          />
        </Field>
        <div className="grid-fields">
          <Field id="delib-kind" label="kind" error={err('task.kind')}>
            <select id="delib-kind" {...register('task.kind')}>
              <option value="text">text (a proposal)</option>
              <option value="code">code (checked by tests)</option>
            </select>
          </Field>
          <Field id="delib-session" label="session id" error={err('sessionId')}>
            <input id="delib-session" type="text" {...register('sessionId')} />
          </Field>
          <Field
            id="delib-confidence"
            label="confidence in the task (0–1)"
            error={err('task.confidence')}
            hint="At the skip threshold or above, no clarifying phase."
          >
            <input
              id="delib-confidence"
              type="number"
              min={0}
              max={1}
              step={0.05}
              {...register('task.confidence', num)}
            />
          </Field>
          <Field id="delib-complexity" label="complexity (0–1)" error={err('task.complexity')}>
            <input
              id="delib-complexity"
              type="number"
              min={0}
              max={1}
              step={0.05}
              {...register('task.complexity', num)}
            />
          </Field>
        </div>
        {code ? (
          <>
            <Field id="delib-language" label="language" error={err('task.language')}>
              <input
                id="delib-language"
                type="text"
                placeholder="javascript"
                {...register('task.language', { setValueAs: orNull })}
              />
            </Field>
            <Field
              id="delib-tests"
              label="tests (an ES module run against each code version)"
              error={err('task.tests')}
              hint="Default export: an object of named test functions; a version that fails them cannot win."
            >
              <textarea
                id="delib-tests"
                rows={6}
                className="mono"
                spellCheck={false}
                {...register('task.tests', { setValueAs: orNull })}
              />
            </Field>
          </>
        ) : null}
      </fieldset>
      <fieldset data-testid="delib-seats">
        <legend>seats (3–16)</legend>
        <p className="small muted">
          Each seat has a role and a score (0–10: leader choice, tie-breaks, vote weight). Who plays each seat
          is chosen below.
        </p>
        {seats.fields.map((f, i) => (
          <div className="delib-seat-row" key={f.id} data-testid="delib-seat-row">
            <Field id={`delib-seat-${i}-id`} label="seat" error={err(`seats.${i}.id`)}>
              <input id={`delib-seat-${i}-id`} type="text" {...register(`seats.${i}.id`)} />
            </Field>
            <Field id={`delib-seat-${i}-role`} label="role" error={err(`seats.${i}.role`)}>
              <select id={`delib-seat-${i}-role`} {...register(`seats.${i}.role`)}>
                {ROLES.map((r) => (
                  <option key={r} value={r}>
                    {r.replace('_', ' ')}
                  </option>
                ))}
              </select>
            </Field>
            <Field id={`delib-seat-${i}-score`} label="score" error={err(`seats.${i}.score`)}>
              <input
                id={`delib-seat-${i}-score`}
                type="number"
                min={0}
                max={10}
                step={0.1}
                {...register(`seats.${i}.score`, num)}
              />
            </Field>
            <button
              type="button"
              className="ghost small"
              aria-label={`remove seat ${i + 1}`}
              disabled={seatCount <= 3}
              onClick={() => seats.remove(i)}
            >
              Remove
            </button>
          </div>
        ))}
        {err('seats') ? (
          <p className="error" role="alert">
            {err('seats')}
          </p>
        ) : null}
        <button
          type="button"
          className="ghost small"
          disabled={seatCount >= 16}
          onClick={() =>
            seats.append({
              id: `seat${seatCount + 1}`,
              role: 'proposer',
              score: 7,
              specialization: null,
              provider: 'any',
              model: 'any',
            })
          }
        >
          Add a seat
        </button>
      </fieldset>
      <fieldset>
        <legend>how they deliberate</legend>
        <div className="grid-fields">
          <Field id="delib-topology" label="topology" error={err('topology')}>
            <select id="delib-topology" {...register('topology')}>
              <option value="graph_mesh">mesh (everyone hears everyone)</option>
              <option value="star">star (a hub and spokes)</option>
              <option value="chain">chain (each hears the one before)</option>
              <option value="tree">tree</option>
            </select>
          </Field>
          <Field id="delib-coordination" label="coordination" error={err('coordination')}>
            <select id="delib-coordination" {...register('coordination')}>
              <option value="adaptive">adaptive</option>
              <option value="cpde">centralised (CPDE)</option>
              <option value="dpde">decentralised (DPDE)</option>
            </select>
          </Field>
          <Field id="delib-voting" label="voting method" error={err('voting')}>
            <select id="delib-voting" {...register('voting')}>
              {['weighted', 'majority', 'plurality', 'borda', 'condorcet', 'unanimous'].map((m) => (
                <option key={m} value={m}>
                  {m}
                </option>
              ))}
            </select>
          </Field>
          <Field id="delib-rounds" label="rounds at most (1–10)" error={err('maxRounds')}>
            <input id="delib-rounds" type="number" min={1} max={10} {...register('maxRounds', num)} />
          </Field>
          <Field id="delib-consensus" label="consensus threshold (0–1)" error={err('minConsensus')}>
            <input
              id="delib-consensus"
              type="number"
              min={0}
              max={1}
              step={0.05}
              {...register('minConsensus', num)}
            />
          </Field>
          <Field id="delib-early" label="stop at consensus" error={err('earlyStop')}>
            <input id="delib-early" type="checkbox" {...register('earlyStop')} />
          </Field>
          <Field
            id="delib-tools"
            label="model seats may use tools"
            error={err('tools')}
            hint="Run the tests on a draft, read a version, search the lessons."
          >
            <input id="delib-tools" type="checkbox" {...register('tools')} />
          </Field>
          <Field id="delib-phase-timeout" label="phase timeout (s)" error={err('phaseTimeoutMs')}>
            <Controller
              control={control}
              name="phaseTimeoutMs"
              render={({ field }) => (
                <SecondsInput id="delib-phase-timeout" value={field.value} onChange={field.onChange} />
              )}
            />
          </Field>
          <Field id="delib-timeout" label="session timeout (s)" error={err('timeoutMs')}>
            <Controller
              control={control}
              name="timeoutMs"
              render={({ field }) => (
                <SecondsInput id="delib-timeout" value={field.value} onChange={field.onChange} />
              )}
            />
          </Field>
        </div>
      </fieldset>
      <fieldset data-testid="delib-gates-form">
        <legend>approval gates</legend>
        <p className="small muted">The session pauses after each ticked phase until a reviewer decides.</p>
        <div className="delib-gate-phases">
          {PHASES.map((p) => (
            <label key={p} className="small">
              <input type="checkbox" value={p} {...register('gates.phases')} /> {p.replace('_', ' ')}
            </label>
          ))}
        </div>
        <div className="grid-fields">
          <Field
            id="delib-reviewers"
            label="reviewers (seats, comma-separated)"
            error={err('gates.reviewers')}
          >
            <input id="delib-reviewers" type="text" {...register('gates.reviewers', { setValueAs: list })} />
          </Field>
          <Field id="delib-gate-timeout" label="gate timeout (s)" error={err('gates.timeoutMs')}>
            <Controller
              control={control}
              name="gates.timeoutMs"
              render={({ field }) => (
                <SecondsInput id="delib-gate-timeout" value={field.value} onChange={field.onChange} />
              )}
            />
          </Field>
          <Field id="delib-gate-on-timeout" label="on timeout" error={err('gates.onTimeout')}>
            <select id="delib-gate-on-timeout" {...register('gates.onTimeout')}>
              <option value="reject">reject</option>
              <option value="approve">approve</option>
            </select>
          </Field>
        </div>
      </fieldset>
      {props.footer(watch())}
    </form>
  );
}
