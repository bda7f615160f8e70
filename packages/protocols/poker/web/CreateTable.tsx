import type { CreateFormProps } from '@db8/web/kit';
import { errorAt, Field, SecondsInput } from '@db8/web/kit';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';
import { DEFAULT_IDLE_STOP_MS, type TableConfigInput, TableConfigSchema } from '../rules/index.ts';

// A new poker table: seats, blinds, starting stack and the clock, checked by the table's zod schema.
// The one create-table form: the lobby and the admin tables page both render it (through the shell's
// CreateRoom), with the REST API's defaults (an idle table stops after DEFAULT_IDLE_STOP_MS) but
// one: it stops after FORM_MAX_HANDS hands unless cleared. A table whose seats the server's scripts
// play never goes idle and deals about a hand a second (600 hands, ~15,000 entries, in 10 minutes
// on a newcomer's first try), so a table made in a browser ends by itself unless asked not to.
const FORM_MAX_HANDS = 100;

const DEFAULTS: TableConfigInput = {
  seats: 6,
  smallBlind: 5,
  bigBlind: 10,
  ante: 0,
  startingStack: 1000,
  actionTimeoutMs: 8000,
  handIntervalMs: 1000,
  maxHands: FORM_MAX_HANDS,
  minPlayers: 2,
  idleStopMs: DEFAULT_IDLE_STOP_MS,
};

const orNull = (v: unknown) => (v === '' || v === null || v === undefined ? null : Number(v));

export function CreateTable(props: CreateFormProps) {
  const form = useForm<TableConfigInput>({
    resolver: zodResolver(TableConfigSchema, undefined, { raw: true }),
    defaultValues: DEFAULTS,
    mode: 'onChange',
  });
  const { register, control, formState } = form;
  const err = (path: string) => errorAt(formState.errors, path);
  // The refinements (big blind ≥ small blind, min players ≤ seats) report at the root.
  const root = errorAt(formState.errors, '');
  const num = { valueAsNumber: true } as const;
  return (
    <form onSubmit={form.handleSubmit((c) => props.onSubmit(c as Record<string, unknown>))} noValidate>
      <fieldset>
        <legend>table</legend>
        <div className="grid-fields">
          <Field id="poker-seats" label="player seats (2–10)" error={err('seats')}>
            <input id="poker-seats" type="number" min={2} max={10} {...register('seats', num)} />
          </Field>
          <Field id="poker-sb" label="small blind" error={err('smallBlind')}>
            <input id="poker-sb" type="number" min={1} {...register('smallBlind', num)} />
          </Field>
          <Field id="poker-bb" label="big blind" error={err('bigBlind')}>
            <input id="poker-bb" type="number" min={1} {...register('bigBlind', num)} />
          </Field>
          <Field id="poker-ante" label="ante" error={err('ante')}>
            <input id="poker-ante" type="number" min={0} {...register('ante', num)} />
          </Field>
          <Field id="poker-stack" label="starting stack" error={err('startingStack')}>
            <input id="poker-stack" type="number" min={1} {...register('startingStack', num)} />
          </Field>
          <Field id="poker-min" label="deal with at least (players)" error={err('minPlayers')}>
            <input id="poker-min" type="number" min={2} max={10} {...register('minPlayers', num)} />
          </Field>
          <Field id="poker-timeout" label="time to act (s)" error={err('actionTimeoutMs')}>
            <Controller
              control={control}
              name="actionTimeoutMs"
              render={({ field }) => (
                <SecondsInput
                  id="poker-timeout"
                  value={field.value}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                />
              )}
            />
          </Field>
          <Field id="poker-interval" label="pause between hands (s)" error={err('handIntervalMs')}>
            <Controller
              control={control}
              name="handIntervalMs"
              render={({ field }) => (
                <SecondsInput
                  id="poker-interval"
                  value={field.value}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                />
              )}
            />
          </Field>
          <Field
            id="poker-hands"
            label="stop after hands"
            error={err('maxHands')}
            hint="Empty: until stopped (a table of scripted seats never stops by itself)."
          >
            <input id="poker-hands" type="number" min={1} {...register('maxHands', { setValueAs: orNull })} />
          </Field>
          <Field
            id="poker-idle"
            label="stop once every seat has left, after (s)"
            error={err('idleStopMs')}
            hint="Empty: the table waits until stopped."
          >
            <Controller
              control={control}
              name="idleStopMs"
              render={({ field }) => (
                <SecondsInput
                  id="poker-idle"
                  value={field.value}
                  onChange={(ms) => field.onChange(ms ?? null)}
                  onBlur={field.onBlur}
                />
              )}
            />
          </Field>
        </div>
        {root ? (
          <p className="error" role="alert">
            {root}
          </p>
        ) : null}
      </fieldset>
      {props.footer(form.watch())}
    </form>
  );
}
