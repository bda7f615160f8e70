// `db8 swarm ask|list|watch|answer|summarize|close|delegate|takeover`: swarm questions (seed 003) on a node's
// /v1/swarm routes. Light imports only; each action loads impl.ts when it runs.

import type { CliModule } from '@db8/cli/kit';
import { runAction } from '@db8/cli/kit';
import { type Command, InvalidArgumentError } from 'commander';
import type * as Impl from './impl.ts';
import type { Common } from './impl.ts';

const impl = () => import('./impl.ts');
const SCOPES = ['private-to-swarm', 'federation-local', 'cross-federation', 'global'];
const collect = (v: string, prev: string[]) => [...prev, v];
const num = (v: string) => {
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n)) throw new InvalidArgumentError('expected a number');
  return n;
};
const int = (v: string) => {
  const n = num(v);
  if (!Number.isSafeInteger(n) || n < 1) throw new InvalidArgumentError('expected a positive integer');
  return n;
};
const unit = (v: string) => {
  const n = num(v);
  if (n < 0 || n > 1) throw new InvalidArgumentError('expected a number from 0 to 1');
  return n;
};
const scope = (v: string) => {
  if (!SCOPES.includes(v)) throw new InvalidArgumentError(`expected one of ${SCOPES.join(', ')}`);
  return v;
};

const URL_HELP = 'server base URL (default: $DB8_URL, the saved session, or http://127.0.0.1:8787)';
const KEY_HELP =
  'sign with your own OpenSSH Ed25519 private key (participant:did:key of it); default: the node signs with your own key on that node';

function common(cmd: Command, signs = true): Command {
  cmd.option('--url <url>', URL_HELP);
  if (signs) cmd.option('--key <file>', KEY_HELP);
  return cmd.option('--json', 'print the answer as JSON');
}

function register(program: Command): void {
  const swarm = program
    .command('swarm')
    .description(
      'swarm questions (seed 003): ask the swarm through a node, list, watch, answer, summarise and close answer rooms, delegate or take over the secretary role',
    );

  const ask = common(
    swarm
      .command('ask')
      .description('publish a signed question envelope; prints its question id')
      .argument('<text>', 'the question')
      .requiredOption('--tag <tag>', 'a question tag (repeat for more)', collect, [])
      .option('--scope <scope>', `delivery scope: ${SCOPES.join(', ')}`, scope, 'federation-local')
      .option('--ttl <sec>', 'seconds until the question expires', int, 600)
      .option('--id <question-id>', 'the question id (default question-<random>)')
      .option('--language <code>', 'a language answers should be in (repeat for more)', collect, [])
      .option(
        '--require-model <label>',
        'only responders declaring this model (repeat for more)',
        collect,
        [],
      )
      .option('--exclude-model <label>', 'no responder declaring this model (repeat for more)', collect, [])
      .option(
        '--min-reputation <0..1>',
        "only responders whose relaying node's roster reputation is at least this",
        unit,
      )
      .option('--no-follow-ups', 'refuse follow-up questions in the room')
      .option('--federation <id>', 'sender/federation-id when you sign (--key)', 'federation:local'),
  );
  ask.action(
    runAction(ask, async (text: string, o: Record<string, unknown>) =>
      (await impl()).ask(text, {
        ...o,
        tags: o.tag as string[],
        ttl_sec: o.ttl as number,
        follow_ups: o.followUps as boolean,
        languages: o.language as string[],
        models_require: o.requireModel as string[],
        models_exclude: o.excludeModel as string[],
        ...(o.minReputation !== undefined ? { min_reputation: o.minReputation as number } : {}),
        ...(o.id ? { question_id: o.id as string } : {}),
      } as never),
    ),
  );

  const list = common(
    swarm
      .command('list')
      .description("the questions this node holds (its copies of the swarm's answer rooms)")
      .option('--scope <scope>', 'only this scope', scope)
      .option('--tag <tag>', 'only questions with this tag')
      .option('--status <status>', 'active (open, deadline ahead), open, closed or all', 'active'),
    false,
  );
  list.action(runAction(list, async (o: Parameters<typeof Impl.list>[0]) => (await impl()).list(o)));

  const watch = common(
    swarm
      .command('watch')
      .description('print an answer room line by line (messages, summaries); exits when it closes or expires')
      .argument('<question-id>')
      .option('--interval-ms <ms>', 'poll interval', int, 1000),
    false,
  );
  watch.action(
    runAction(watch, async (qid: string, o: Parameters<typeof Impl.watch>[1]) =>
      (await impl()).watch(qid, o),
    ),
  );

  const answer = common(
    swarm
      .command('answer')
      .description('answer in a room (joins first when the signer has not joined)')
      .argument('<question-id>')
      .argument('<text>')
      .option('--kind <kind>', 'answer, follow-up or clarification', 'answer')
      .option(
        '--origin <class>',
        'node-generated, node-mediated-human or human-live (default: node-generated with --model, else node-mediated-human)',
      )
      .option('--speaker <name>', 'who speaks (default: model:<the first --model>, else the signer)')
      .option(
        '--model <label>',
        'a model that wrote the answer, e.g. openai/gpt-5 (repeat for more; the room filters on them)',
        collect,
        [],
      )
      .option(
        '--language <code>',
        'a language you answer in (default: the question’s, else en)',
        collect,
        [],
      ),
  );
  answer.action(
    runAction(answer, async (qid: string, text: string, o: Record<string, unknown>) =>
      (await impl()).answer(qid, text, {
        ...o,
        models: o.model as string[],
        languages: o.language as string[],
      } as never),
    ),
  );

  const summarize = common(
    swarm
      .command('summarize')
      .description('publish a summary: facts, hypotheses, recommendations and an uncertainty 0..1')
      .argument('<question-id>')
      .option('--fact <text>', 'a fact (repeat)', collect, [])
      .option('--hypothesis <text>', 'a hypothesis (repeat)', collect, [])
      .option('--recommendation <text>', 'a recommendation (repeat)', collect, [])
      .requiredOption('--uncertainty <0..1>', 'how uncertain the summary is', num)
      .option('--final', 'a final summary (default intermediate)')
      .option('--role <role>', 'asker, secretary or participant (default: your role in the room)'),
  );
  summarize.action(
    runAction(summarize, async (qid: string, o: Record<string, unknown>) =>
      (await impl()).summarize(qid, {
        ...o,
        facts: o.fact as string[],
        hypotheses: o.hypothesis as string[],
        recommendations: o.recommendation as string[],
      } as never),
    ),
  );

  const close = common(
    swarm
      .command('close')
      .description('close a room as its asker or secretary')
      .argument('<question-id>')
      .option('--accept <summary-id>', 'close as accepted-answer with this summary')
      .option('--resolution <r>', 'closed, accepted-answer, expired or handed-off (default closed)')
      .option('--role <role>', 'asker or secretary (default: your role in the room)'),
  );
  close.action(
    runAction(close, async (qid: string, o: Parameters<typeof Impl.close>[1]) =>
      (await impl()).close(qid, o),
    ),
  );

  const delegate = common(
    swarm
      .command('delegate')
      .description(
        'as the asker, make a participant the secretary (it summarises; with --close-allowed it may close)',
      )
      .argument('<question-id>')
      .argument('<participant-id>', 'the participant (participant:did:key:…) to delegate to')
      .option('--node <node-id>', 'the node relaying it (default: the one the room lists for it)')
      .option('--close-allowed', 'the secretary may close the question'),
  );
  delegate.action(
    runAction(delegate, async (qid: string, to: string, o: Parameters<typeof Impl.delegate>[2]) =>
      (await impl()).delegate(qid, to, o),
    ),
  );

  const takeover = common(
    swarm
      .command('takeover')
      .description(
        "take over as secretary once the asker lapsed (the federation's policy decides who may: ASKER_PRESENT, NOT_ELECTED)",
      )
      .argument('<question-id>'),
  );
  takeover.action(runAction(takeover, async (qid: string, o: Common) => (await impl()).takeover(qid, o)));
}

export const swarmCli: CliModule = { protocol: 'question', register };
