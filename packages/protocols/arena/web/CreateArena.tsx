import type { CreateFormProps } from '@db8/web/kit';
import { errorAt, Field } from '@db8/web/kit';
import { zodResolver } from '@hookform/resolvers/zod';
import { useRef } from 'react';
import { Controller, useFieldArray, useForm } from 'react-hook-form';
import {
  type ArenaConfigInput,
  ArenaConfigSchema,
  type Entrant,
  type Format,
  GAMES,
  SCRIPTED_STRATEGIES,
} from '../rules/index.ts';
import { defaultSettings, GameSettings } from './GameSettings.tsx';

// A new tournament: which game its matches play and with what settings (GameSettings), the
// format, the entrants (each a scripted strategy, a model, a person or an outside agent) and the
// seed everything derives from, checked as you type by the arena's own zod schema and, for scripted
// entrants, against the game's strategies. The room is the tournament's log: the server plays it
// when it can (scripted entrants of a game it plays, models of providers it configures), else its
// organizer seat writes the schedule and the results (docs/arena.md, Server-run tournaments);
// `db8 arena run` plays scripted and model entrants locally.

/** What each format counts, by kind: round robin its games per group, Swiss its rounds, duplicate its deals. */
const COUNT_OF = { 'round-robin': 'games', swiss: 'rounds', 'duplicate-poker': 'deals' } as const;
type Kind = keyof typeof COUNT_OF;
const COUNT_LABEL: Record<Kind, string> = {
  'round-robin': 'games per group',
  swiss: 'rounds',
  'duplicate-poker': 'duplicate deals',
};

const formatOf = (kind: Kind, n: number): Format => ({ kind, [COUNT_OF[kind]]: n }) as Format;
const countOf = (f: Format | undefined): number =>
  f ? ((f as Record<string, unknown>)[COUNT_OF[f.kind as Kind]] as number) : 1;

const DEFAULTS: ArenaConfigInput = {
  name: 'sealed-bid round robin',
  game: 'sealed-bid',
  gameConfig: {},
  format: { kind: 'round-robin', games: 2 },
  entrants: [
    { name: 'truthful', kind: 'scripted', strategy: 'truthful' },
    { name: 'shader', kind: 'scripted', strategy: 'shade' },
    { name: 'lowballer', kind: 'scripted', strategy: 'lowball' },
  ],
  seatsPerMatch: 2,
  seed: 'cup-1',
  concurrency: 4,
  bootstrap: 200,
};

type Game = ArenaConfigInput['game'];

/**
 * What the form fills in when a game is chosen, so a first tournament of it plays as it stands:
 * poker a duplicate match of two strategies of different strength, the others a round robin of
 * three. Only fields still as the form last filled them are replaced (see `onGame`).
 */
function startOf(game: Game): Pick<ArenaConfigInput, 'name' | 'format' | 'entrants'> {
  const scripted = (strategy: string, name = strategy): Entrant => ({ name, kind: 'scripted', strategy });
  if (game === 'poker')
    return {
      name: 'duplicate poker',
      format: { kind: 'duplicate-poker', deals: 10 },
      entrants: [scripted('tight'), scripted('random')],
    };
  if (game === 'debate')
    return {
      name: 'debate round robin',
      format: { kind: 'round-robin', games: 2 },
      entrants: [scripted('evidence'), scripted('hedge'), scripted('sloppy')],
    };
  if (game === 'deliberation')
    return {
      name: 'deliberation round robin',
      format: { kind: 'round-robin', games: 2 },
      entrants: [scripted('thorough'), scripted('hedge'), scripted('partial')],
    };
  if (game === 'sealed-bid')
    return { name: DEFAULTS.name, format: DEFAULTS.format, entrants: DEFAULTS.entrants };
  return { name: `${game} round robin`, format: { kind: 'round-robin', games: 2 }, entrants: [] };
}

/**
 * The form's schema: the arena's, and a scripted entrant must name one of its game's strategies —
 * the server plays only those, and would leave a tournament with a misspelt one to its organizer.
 */
const FormSchema = ArenaConfigSchema.superRefine((c, ctx) => {
  const known = SCRIPTED_STRATEGIES[c.game];
  if (known.length === 0) return;
  c.entrants.forEach((e, i) => {
    if (e.kind === 'scripted' && !known.includes(e.strategy))
      ctx.addIssue({
        code: 'custom',
        path: ['entrants', i, 'strategy'],
        message: `not a ${c.game} strategy: one of ${known.join(', ')}`,
      });
  });
});

/** The scripted strategies of the chosen game (one table, shared with `db8 arena run`). */
function strategyHint(game: ArenaConfigInput['game']): string {
  const names = SCRIPTED_STRATEGIES[game] ?? [];
  return names.length > 0
    ? `Scripted ${game} strategies: ${names.join(', ')}.`
    : `${game} has no scripted strategies: its matches need a server.`;
}

export function CreateArena(props: CreateFormProps) {
  const form = useForm<ArenaConfigInput>({
    resolver: zodResolver(FormSchema, undefined, { raw: true }),
    defaultValues: DEFAULTS,
    mode: 'onChange',
  });
  const { register, control, formState, watch } = form;
  const entrants = useFieldArray({ control, name: 'entrants' });
  /** What the form itself last filled in, so choosing another game replaces only what nobody edited. */
  const filled = useRef(startOf(DEFAULTS.game));
  const onGame = (game: Game) => {
    const next = startOf(game);
    const same = (k: keyof typeof next) =>
      JSON.stringify(form.getValues(k)) === JSON.stringify(filled.current[k]);
    if (same('name')) form.setValue('name', next.name);
    if (same('format')) form.setValue('format', next.format);
    else if (game !== 'poker' && form.getValues('format').kind === 'duplicate-poker')
      // Duplicate deals are poker's alone: keep the count, as a round robin's games.
      form.setValue('format', { kind: 'round-robin', games: countOf(form.getValues('format') as Format) });
    const replace = same('entrants') && next.entrants.length > 0;
    if (replace) entrants.replace(next.entrants);
    filled.current = replace ? next : { ...next, entrants: filled.current.entrants };
    form.setValue('gameConfig', defaultSettings(game));
    void form.trigger();
  };
  const err = (path: string) => errorAt(formState.errors, path);
  const root = errorAt(formState.errors, '');
  const num = { valueAsNumber: true } as const;
  return (
    <form onSubmit={form.handleSubmit((c) => props.onSubmit(c as Record<string, unknown>))} noValidate>
      <fieldset>
        <legend>tournament</legend>
        <div className="grid-fields">
          <Field id="arena-name" label="name" error={err('name')}>
            <input id="arena-name" type="text" {...register('name')} />
          </Field>
          <Field id="arena-game" label="game its matches play" error={err('game')}>
            <select
              id="arena-game"
              {...register('game', { onChange: (e) => onGame(e.target.value as Game) })}
            >
              {GAMES.map((g) => (
                <option key={g} value={g}>
                  {g}
                </option>
              ))}
            </select>
          </Field>
          <Controller
            control={control}
            name="format"
            render={({ field }) => {
              const f = field.value as Format | undefined;
              const kind = (f?.kind ?? 'round-robin') as Kind;
              return (
                <>
                  <Field id="arena-format" label="format" error={err('format')}>
                    <select
                      id="arena-format"
                      value={kind}
                      onChange={(e) => field.onChange(formatOf(e.target.value as Kind, countOf(f)))}
                    >
                      <option value="round-robin">round robin</option>
                      <option value="swiss">Swiss</option>
                      <option value="duplicate-poker">duplicate poker</option>
                    </select>
                  </Field>
                  <Field id="arena-count" label={COUNT_LABEL[kind]} error={err(`format.${COUNT_OF[kind]}`)}>
                    <input
                      id="arena-count"
                      type="number"
                      min={1}
                      value={Number.isFinite(countOf(f)) ? countOf(f) : ''}
                      onChange={(e) => field.onChange(formatOf(kind, e.target.valueAsNumber))}
                    />
                  </Field>
                </>
              );
            }}
          />
          <Field id="arena-seats" label="seats per match" error={err('seatsPerMatch')}>
            <input id="arena-seats" type="number" min={2} max={10} {...register('seatsPerMatch', num)} />
          </Field>
          <Field
            id="arena-seed"
            label="seed"
            error={err('seed')}
            hint="Match seeds, deals and the rating intervals all derive from it: the same seed replays."
          >
            <input id="arena-seed" type="text" {...register('seed')} />
          </Field>
          <Field id="arena-bootstrap" label="bootstrap resamples (0: no intervals)" error={err('bootstrap')}>
            <input id="arena-bootstrap" type="number" min={0} max={2000} {...register('bootstrap', num)} />
          </Field>
        </div>
      </fieldset>
      <GameSettings form={form} game={watch('game')} />
      <fieldset data-testid="arena-entrants">
        <legend>entrants (2–64)</legend>
        <p className="small muted" data-testid="arena-strategies">
          {strategyHint(watch('game'))}
        </p>
        <datalist id="arena-strategy-list">
          {SCRIPTED_STRATEGIES[watch('game')].map((s) => (
            <option key={s} value={s} />
          ))}
        </datalist>
        {entrants.fields.map((row, i) => {
          const kind = watch(`entrants.${i}.kind`);
          return (
            <div className="grid-fields" key={row.id} data-entrant={i}>
              <Field id={`arena-e${i}-name`} label={`entrant ${i + 1}`} error={err(`entrants.${i}.name`)}>
                <input id={`arena-e${i}-name`} type="text" {...register(`entrants.${i}.name`)} />
              </Field>
              <Field id={`arena-e${i}-kind`} label="kind" error={err(`entrants.${i}.kind`)}>
                <select
                  id={`arena-e${i}-kind`}
                  value={kind}
                  onChange={(e) => {
                    // Each kind has its own fields (the schema is strict): start the row afresh.
                    const name = form.getValues(`entrants.${i}.name`);
                    const k = e.target.value;
                    entrants.update(
                      i,
                      k === 'scripted'
                        ? { name, kind: 'scripted', strategy: '' }
                        : k === 'model'
                          ? { name, kind: 'model', provider: '', model: '' }
                          : { name, kind: k as 'person' | 'outside' },
                    );
                  }}
                >
                  <option value="scripted">scripted</option>
                  <option value="model">model</option>
                  <option value="person">person</option>
                  <option value="outside">outside agent</option>
                </select>
              </Field>
              {kind === 'scripted' ? (
                <Field id={`arena-e${i}-strategy`} label="strategy" error={err(`entrants.${i}.strategy`)}>
                  <input
                    id={`arena-e${i}-strategy`}
                    type="text"
                    list="arena-strategy-list"
                    {...register(`entrants.${i}.strategy`)}
                  />
                </Field>
              ) : null}
              {kind === 'model' ? (
                <>
                  <Field id={`arena-e${i}-provider`} label="provider" error={err(`entrants.${i}.provider`)}>
                    <input id={`arena-e${i}-provider`} type="text" {...register(`entrants.${i}.provider`)} />
                  </Field>
                  <Field id={`arena-e${i}-model`} label="model" error={err(`entrants.${i}.model`)}>
                    <input id={`arena-e${i}-model`} type="text" {...register(`entrants.${i}.model`)} />
                  </Field>
                </>
              ) : null}
              <button
                type="button"
                className="ghost"
                // The grid would stretch it to the row's height: it sits on the inputs' line.
                style={{ alignSelf: 'end' }}
                disabled={entrants.fields.length <= 2}
                onClick={() => entrants.remove(i)}
              >
                Remove
              </button>
            </div>
          );
        })}
        <button
          type="button"
          className="ghost"
          disabled={entrants.fields.length >= 64}
          onClick={() =>
            entrants.append({ name: `entrant ${entrants.fields.length + 1}`, kind: 'scripted', strategy: '' })
          }
        >
          Add an entrant
        </button>
        {err('entrants') ? (
          <p className="error" role="alert">
            {err('entrants')}
          </p>
        ) : null}
      </fieldset>
      {root ? (
        <p className="error" role="alert">
          {root}
        </p>
      ) : null}
      <p className="small muted">
        This server plays the tournament itself, match by match, when every entrant is scripted or a model of
        a provider it configures; otherwise the organizer seat writes the schedule and each match's result.
        `db8 arena run` plays the same spec locally and `db8 arena verify` checks it (docs/arena.md).
      </p>
      {props.footer(form.watch())}
    </form>
  );
}
