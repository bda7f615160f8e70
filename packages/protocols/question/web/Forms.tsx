import { errorAt, Field } from '@db8/web/kit';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { z } from 'zod';
import {
  ADMITTED_ORIGINS,
  CloseSchema,
  MessageSchema,
  PolicySchema,
  PROFILES,
  type Profile,
  type QuestionView,
  SummarySchema,
  VerdictSchema,
} from '../rules/index.ts';
import { refusalText, swarmApi } from './api.ts';
import { ListInput } from './ListInput.tsx';

// What a signed-in person sends into an answer room, as drafts the node completes and signs with
// its node key (so the room sees this node's participant). Each form's schema is a part of the
// protocol's own input schema; the room's refusal (NOT_ADMITTED, ORIGIN_NOT_ALLOWED…) is shown as
// the server's code and nothing is written.

export type Role = 'asker' | 'secretary' | 'participant' | null;

export function useSend() {
  const [error, setError] = useState<string | null>(null);
  const run = async (fn: () => Promise<unknown>): Promise<boolean> => {
    setError(null);
    try {
      await fn();
      return true;
    } catch (e) {
      setError(refusalText(e));
      return false;
    }
  };
  return { error, run };
}

export const Refusal = ({ error, id }: { error: string | null; id: string }) =>
  error ? (
    <span className="error" role="alert" data-testid={id}>
      {error}
    </span>
  ) : null;

const AnswerSchema = MessageSchema.pick({
  'message/kind': true,
  'message/text': true,
  'origin/class': true,
  'origin/speaker': true,
});
type AnswerInput = z.input<typeof AnswerSchema>;

export function AnswerForm(props: { view: QuestionView; role: Role; speaker: string }) {
  const { view, role } = props;
  const q = view.question;
  // Live humans need a secretary present (upstream proposal 005); offer only what the room admits.
  const origins = (ADMITTED_ORIGINS[view.profile as Profile] ?? []).filter(
    (o) => o !== 'human-live' || view.secretary !== null,
  );
  const kinds = (['answer', 'follow-up', 'clarification'] as const).filter(
    (k) => k === 'answer' || (q.followUps && (k === 'follow-up' || role === 'asker' || role === 'secretary')),
  );
  const defaults: AnswerInput = {
    'message/kind': 'answer',
    'message/text': '',
    'origin/class': origins.includes('node-mediated-human')
      ? 'node-mediated-human'
      : (origins[0] ?? 'node-generated'),
    'origin/speaker': props.speaker,
  };
  const form = useForm<AnswerInput>({
    resolver: zodResolver(AnswerSchema, undefined, { raw: true }),
    defaultValues: defaults,
    mode: 'onChange',
  });
  const { error, run } = useSend();
  const err = (p: string) => errorAt(form.formState.errors, p);
  const submit = form.handleSubmit(async (v) => {
    const ok = await run(async () => {
      // Not yet in the room: join first, declaring the question's tags and languages (as the MCP
      // tool does); the room's filters may still refuse (MODEL_REQUIRED…), which stops here.
      if (role === null) {
        await swarmApi.input(q.id, {
          type: 'swarm/room-join',
          'responder/models': [],
          'responder/languages': q.languages,
          'responder/tags': q.tags,
        });
      }
      await swarmApi.input(q.id, { type: 'swarm/room-message', ...AnswerSchema.parse(v) });
    });
    if (ok) form.reset({ ...v, 'message/text': '' });
  });
  return (
    <form className="q-answer" onSubmit={submit} noValidate aria-label="answer">
      <Field
        id="q-msg-text"
        label={role === null ? 'your answer (joins the room)' : 'message'}
        error={err('message/text')}
      >
        <textarea id="q-msg-text" rows={3} {...form.register('message/text')} />
      </Field>
      <div className="grid-fields">
        <Field id="q-msg-kind" label="kind" error={err('message/kind')}>
          <select id="q-msg-kind" {...form.register('message/kind')}>
            {kinds.map((k) => (
              <option key={k}>{k}</option>
            ))}
          </select>
        </Field>
        <Field id="q-msg-origin" label="origin class" error={err('origin/class')}>
          <select id="q-msg-origin" {...form.register('origin/class')}>
            {origins.map((o) => (
              <option key={o}>{o}</option>
            ))}
          </select>
        </Field>
        <Field id="q-msg-speaker" label="speaker" error={err('origin/speaker')}>
          <input id="q-msg-speaker" type="text" {...form.register('origin/speaker')} />
        </Field>
      </div>
      <div className="row">
        <button type="submit" className="primary" disabled={form.formState.isSubmitting}>
          Send
        </button>
        <Refusal error={error} id="answer-error" />
      </div>
    </form>
  );
}

const SumSchema = SummarySchema.pick({
  status: true,
  'content/facts': true,
  'content/hypotheses': true,
  'content/recommendations': true,
  'content/uncertainty': true,
});
type SumInput = z.input<typeof SumSchema>;
const SUM_DEFAULTS: SumInput = {
  status: 'intermediate',
  'content/facts': [],
  'content/hypotheses': [],
  'content/recommendations': [],
  'content/uncertainty': 0.5,
};
const LISTS = [
  ['content/facts', 'facts'],
  ['content/hypotheses', 'hypotheses'],
  ['content/recommendations', 'recommendations'],
] as const;

/** For the asker or the secretary: a summary (one item per line) with its uncertainty. */
export function SummaryForm(props: { view: QuestionView; role: 'asker' | 'secretary' }) {
  const form = useForm<SumInput>({
    resolver: zodResolver(SumSchema, undefined, { raw: true }),
    defaultValues: SUM_DEFAULTS,
    mode: 'onChange',
  });
  const { error, run } = useSend();
  // Bumped on reset so the list inputs remount empty (they keep their own text).
  const [generation, setGeneration] = useState(0);
  const err = (p: string) => errorAt(form.formState.errors, p);
  const submit = form.handleSubmit(async (v) => {
    const draft = { type: 'swarm/question-summary', 'author/role': props.role, ...SumSchema.parse(v) };
    if (await run(() => swarmApi.input(props.view.question.id, draft))) {
      form.reset(SUM_DEFAULTS);
      setGeneration((g) => g + 1);
    }
  });
  return (
    <form className="q-summary-form" onSubmit={submit} noValidate aria-label="summary">
      {LISTS.map(([name, label]) => (
        <Field key={name} id={`q-sum-${label}`} label={`${label} (one per line)`} error={err(name)}>
          <Controller
            control={form.control}
            name={name}
            render={({ field }) => (
              <ListInput
                key={generation}
                id={`q-sum-${label}`}
                sep="line"
                rows={2}
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
              />
            )}
          />
        </Field>
      ))}
      <div className="grid-fields">
        <Field id="q-sum-unc" label="uncertainty (0–1)" error={err('content/uncertainty')}>
          <input
            id="q-sum-unc"
            type="number"
            min={0}
            max={1}
            step={0.05}
            {...form.register('content/uncertainty', { valueAsNumber: true })}
          />
        </Field>
        <Field id="q-sum-status" label="status" error={err('status')}>
          <select id="q-sum-status" {...form.register('status')}>
            <option>intermediate</option>
            <option>final</option>
          </select>
        </Field>
      </div>
      <div className="row">
        <button type="submit">Publish summary</button>
        <Refusal error={error} id="summary-error" />
      </div>
    </form>
  );
}

// The close schema is a union on `resolution`: `accepted-summary/id` exactly for accepted-answer.
const [Accepted, Other] = CloseSchema.options;
const CloseFormSchema = z.discriminatedUnion('resolution', [
  Accepted.pick({ resolution: true, 'accepted-summary/id': true }),
  Other.pick({ resolution: true }),
]);
type CloseInput = z.input<typeof CloseFormSchema>;

/** For the asker or the secretary: close the room, accepting a summary or not. */
export function CloseForm(props: { view: QuestionView; role: 'asker' | 'secretary' }) {
  const summaries = props.view.summaries;
  const form = useForm<CloseInput>({
    resolver: zodResolver(CloseFormSchema, undefined, { raw: true }),
    defaultValues: summaries.length
      ? {
          resolution: 'accepted-answer',
          'accepted-summary/id': summaries.at(-1)?.key ?? summaries.at(-1)?.id ?? '',
        }
      : { resolution: 'closed' },
  });
  const { error, run } = useSend();
  const resolution = form.watch('resolution');
  const submit = form.handleSubmit(async (v) => {
    const draft = { type: 'swarm/question-close', 'closed-by/role': props.role, ...CloseFormSchema.parse(v) };
    await run(() => swarmApi.input(props.view.question.id, draft));
  });
  return (
    <form className="q-close-form" onSubmit={submit} noValidate aria-label="close">
      <div className="grid-fields">
        <Field id="q-close-res" label="resolution" error={errorAt(form.formState.errors, 'resolution')}>
          <select id="q-close-res" {...form.register('resolution')}>
            {summaries.length ? <option>accepted-answer</option> : null}
            <option>closed</option>
            <option>handed-off</option>
          </select>
        </Field>
        {resolution === 'accepted-answer' ? (
          <Field
            id="q-close-sum"
            label="accepted summary"
            error={errorAt(form.formState.errors, 'accepted-summary/id')}
          >
            <select id="q-close-sum" {...form.register('accepted-summary/id')}>
              {summaries.map((s) => (
                <option key={s.key ?? s.id} value={s.key ?? s.id}>
                  #{s.seq} {s.status} by the {s.role}
                </option>
              ))}
            </select>
          </Field>
        ) : null}
      </div>
      <div className="row">
        <button type="submit">Close the question</button>
        <Refusal error={error} id="close-error" />
      </div>
    </form>
  );
}

const PolicyFormSchema = PolicySchema.pick({ 'room-policy/profile': true });
type PolicyInput = z.input<typeof PolicyFormSchema>;

/** For the asker or the secretary: the room's operator-participation profile (a change is an entry). */
export function PolicyForm(props: { view: QuestionView }) {
  const form = useForm<PolicyInput>({
    resolver: zodResolver(PolicyFormSchema, undefined, { raw: true }),
    defaultValues: { 'room-policy/profile': props.view.profile as Profile },
  });
  const { error, run } = useSend();
  const submit = form.handleSubmit(async (v) => {
    await run(() =>
      swarmApi.input(props.view.question.id, { type: 'swarm/room-policy', ...PolicyFormSchema.parse(v) }),
    );
  });
  return (
    <form className="row q-policy-form" onSubmit={submit} noValidate aria-label="profile">
      <select id="q-policy" aria-label="profile" {...form.register('room-policy/profile')}>
        {PROFILES.map((p) => (
          <option key={p}>{p}</option>
        ))}
      </select>
      <button type="submit">Set profile</button>
      <Refusal error={error} id="policy-error" />
    </form>
  );
}

/** The asker's accept / reject of one answer (`swarm/room-verdict`). */
export function VerdictButtons(props: { questionId: string; messageId: string }) {
  const { error, run } = useSend();
  const send = (decision: 'accept' | 'reject') =>
    void run(() =>
      swarmApi.input(props.questionId, {
        type: 'swarm/room-verdict',
        ...VerdictSchema.pick({ 'verdict/input-id': true, 'verdict/decision': true }).parse({
          'verdict/input-id': props.messageId,
          'verdict/decision': decision,
        }),
      }),
    );
  return (
    <span className="q-verdict">
      <button type="button" className="chip" onClick={() => send('accept')}>
        Accept
      </button>
      <button type="button" className="chip" onClick={() => send('reject')}>
        Reject
      </button>
      <Refusal error={error} id="verdict-error" />
    </span>
  );
}
