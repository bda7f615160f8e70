import { errorAt, Field } from '@db8/web/kit';
import type { UseFormReturn } from 'react-hook-form';
import {
  type ArenaConfigInput,
  DEBATE_DEFAULT_WINDOW_MS,
  DELIBERATION_DEFAULT_WINDOW_MS,
  POKER_DEFAULT_ACTION_WINDOW_MS,
  POKER_DEFAULT_BLINDS,
} from '../rules/index.ts';

// The settings each match of the chosen game plays with (the arena's `gameConfig`, checked by the
// rules' GAME_SETTINGS): poker's hands per match, blinds and outside seats' window, the auction's
// item, the debate's topic, rounds and phase window, the deliberation's topic, checklist and step window. An empty field is left out of the config, and
// the game plays its default (the hint).

type Form = UseFormReturn<ArenaConfigInput>;
type Game = ArenaConfigInput['game'];

/** What the games play when a setting is left out (app/src/arena-games.ts, arena-debate.ts). */
const POKER_DEFAULTS = { hands: 50, ...POKER_DEFAULT_BLINDS, startingStack: 1000 };

/** The settings a game starts with when it is chosen in the form: poker's spelt out, so the blinds are seen. */
export function defaultSettings(game: Game): Record<string, unknown> {
  return game === 'poker' ? { ...POKER_DEFAULTS } : {};
}

const optionalNumber = (v: unknown) => (v === '' || v === null || v === undefined ? undefined : Number(v));
const optionalText = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v : undefined);
const optionalLines = (v: unknown) => {
  if (Array.isArray(v)) return v.length > 0 ? v : undefined;
  const lines =
    typeof v === 'string'
      ? v
          .split('\n')
          .map((l) => l.trim())
          .filter((l) => l !== '')
      : [];
  return lines.length > 0 ? lines : undefined;
};

/** A list setting's error: the list's own, else its first point's, named by its line. */
function listError(form: Form, path: string): string | undefined {
  const own = errorAt(form.formState.errors, path);
  if (own) return own;
  let node: unknown = form.formState.errors;
  for (const k of path.split('.')) node = (node as Record<string, unknown> | undefined)?.[k];
  if (!Array.isArray(node)) return undefined;
  const i = node.findIndex((e) => typeof (e as { message?: unknown } | undefined)?.message === 'string');
  return i < 0 ? undefined : `line ${i + 1}: ${(node[i] as { message: string }).message}`;
}

function NumberSetting(props: { form: Form; game: Game; field: string; label: string; hint: string }) {
  const id = `arena-${props.game}-${props.field}`;
  const path = `gameConfig.${props.field}` as const;
  return (
    <Field id={id} label={props.label} error={errorAt(props.form.formState.errors, path)} hint={props.hint}>
      <input
        id={id}
        type="number"
        min={1}
        step={1}
        {...props.form.register(path, { setValueAs: optionalNumber })}
      />
    </Field>
  );
}

export function GameSettings({ form, game }: { form: Form; game: Game }) {
  if (game === 'poker')
    return (
      <fieldset data-testid="arena-game-settings">
        <legend>poker: each match</legend>
        <div className="grid-fields">
          <NumberSetting
            form={form}
            game={game}
            field="hands"
            label="hands per match"
            hint={`Empty: ${POKER_DEFAULTS.hands}. A bust ends a match early.`}
          />
          <NumberSetting
            form={form}
            game={game}
            field="smallBlind"
            label="small blind"
            hint={`Empty: ${POKER_DEFAULTS.smallBlind}.`}
          />
          <NumberSetting
            form={form}
            game={game}
            field="bigBlind"
            label="big blind"
            hint={`Empty: ${POKER_DEFAULTS.bigBlind}. bb/100 counts in these.`}
          />
          <NumberSetting
            form={form}
            game={game}
            field="startingStack"
            label="starting stack"
            hint={`Empty: ${POKER_DEFAULTS.startingStack}.`}
          />
          <NumberSetting
            form={form}
            game={game}
            field="actionWindowMs"
            label="outside seat's window (ms)"
            hint={`Per decision of an outside or person entrant, then the table checks or folds for it. Empty: ${POKER_DEFAULT_ACTION_WINDOW_MS}.`}
          />
        </div>
      </fieldset>
    );
  if (game === 'sealed-bid') {
    const err = errorAt(form.formState.errors, 'gameConfig.item');
    return (
      <fieldset data-testid="arena-game-settings">
        <legend>sealed-bid: each auction</legend>
        <Field id="arena-item" label="item" error={err} hint="Empty: a prize.">
          <input
            id="arena-item"
            type="text"
            {...form.register('gameConfig.item', { setValueAs: optionalText })}
          />
        </Field>
      </fieldset>
    );
  }
  if (game === 'debate') {
    const err = errorAt(form.formState.errors, 'gameConfig.topic');
    return (
      <fieldset data-testid="arena-game-settings">
        <legend>debate: each match</legend>
        <div className="grid-fields">
          <Field id="arena-topic" label="topic" error={err} hint="Empty: the house topic.">
            <input
              id="arena-topic"
              type="text"
              {...form.register('gameConfig.topic', { setValueAs: optionalText })}
            />
          </Field>
          <NumberSetting
            form={form}
            game={game}
            field="rounds"
            label="argument rounds"
            hint="Before the closing round. Empty: 1."
          />
          <NumberSetting
            form={form}
            game={game}
            field="windowMs"
            label="phase window (ms)"
            hint={`How long each phase waits for an outside debater. Empty: ${DEBATE_DEFAULT_WINDOW_MS} (a minute).`}
          />
        </div>
      </fieldset>
    );
  }
  if (game === 'deliberation') {
    return (
      <fieldset data-testid="arena-game-settings">
        <legend>deliberation: each match</legend>
        <div className="grid-fields">
          <Field
            id="arena-delib-topic"
            label="topic"
            error={errorAt(form.formState.errors, 'gameConfig.topic')}
            hint="Empty: the house topic (rate limiting for a public API)."
          >
            <input
              id="arena-delib-topic"
              type="text"
              {...form.register('gameConfig.topic', { setValueAs: optionalText })}
            />
          </Field>
          <Field
            id="arena-delib-points"
            label="checklist (one point a line)"
            error={listError(form, 'gameConfig.points')}
            hint="The house judge scores each proposal by the points it covers. Empty: the house checklist."
          >
            <textarea
              id="arena-delib-points"
              rows={4}
              {...form.register('gameConfig.points', { setValueAs: optionalLines })}
            />
          </Field>
          <NumberSetting
            form={form}
            game={game}
            field="windowMs"
            label="step window (ms)"
            hint={`How long each step waits for an outside proposer. Empty: ${DELIBERATION_DEFAULT_WINDOW_MS} (a minute).`}
          />
        </div>
      </fieldset>
    );
  }
  return null;
}
