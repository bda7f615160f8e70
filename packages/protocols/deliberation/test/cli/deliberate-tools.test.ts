// `db8 deliberate --tools`: model seats call tools before drafting, locally and with --url. The
// seats are played by a labelled local model server (ModelServer: the OpenAI wire, scripted
// replies) that asks for the three tools whenever it is offered them; without --tools it is never
// offered them. The report counts the tool calls recorded in the turns, the same way both ways.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ModelServer, type RecordedRequest } from '@db8/agents/test/model-server.ts';
import { spawnDb8 } from '@db8/cli/test/helpers.ts';
import { type RunningServer, startServer } from 'db8/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeliberationReportSchema } from '../../cli/report.ts';
import { deliberationScriptReply } from '../../server/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'db8-deliberate-tools-'));
const dataDir = join(dir, 'data');
const env = {
  DB8_HOME: join(dir, 'home'),
  DB8_DATA_DIR: dataDir,
  DB8_URL: '',
  DATABASE_URL: '',
  OPENAI_API_KEY: 'sk-test',
};
let server: RunningServer;
let models: ModelServer;

const schemaOf = (r: RecordedRequest): string =>
  r.body.tools?.[0]?.function?.name ?? r.body.response_format?.json_schema?.name;
const userOf = (r: RecordedRequest): string =>
  (r.body.messages as { role: string; content: string }[]).find((m) => m.role === 'user')?.content ?? '';

beforeAll(async () => {
  mkdirSync(dataDir);
  models = await ModelServer.start();
  server = await startServer({ port: 0, dataDir, env: false, logLevel: 'silent', print: () => {} });
});
afterAll(async () => {
  await server?.close();
  await models?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The model: asks for two tools whenever it is offered them, else answers as the scripted cast. */
function script(): void {
  models.respond((req) =>
    schemaOf(req) === 'deliberation_tools'
      ? {
          reply: {
            calls: [
              { tool: 'read_version', source: null, version: 1, query: null },
              { tool: 'search_lessons', source: null, version: null, query: 'queues' },
            ],
          },
        }
      : { reply: deliberationScriptReply({ schemaName: schemaOf(req), prompt: userOf(req) }) },
  );
}

const args = (extra: string[]) => [
  'deliberate',
  'Pick a queue',
  '--seats',
  '3',
  '--rounds',
  '1',
  '--provider',
  'openai',
  '--model',
  'gpt-tools',
  '--base-url',
  models.openaiBaseUrl,
  '--json',
  ...extra,
];

async function run(extra: string[]) {
  models.reset(); // clears the recorded requests and the responder
  script();
  const r = await spawnDb8(args(extra), dir, env);
  expect(r.status, r.stderr).toBe(0);
  const out = DeliberationReportSchema.parse(JSON.parse(r.stdout));
  const offered = models.requests.filter((q) => schemaOf(q) === 'deliberation_tools').length;
  return { out, offered };
}

describe('db8 deliberate --tools', () => {
  it('--help says it', async () => {
    const r = await spawnDb8(['deliberate', '--help'], dir, env);
    expect(r.stdout).toMatch(/--tools\s+model seats may call tools/);
  });

  it('locally: off by default, on with --tools, each call recorded in the turns', async () => {
    const off = await run([]);
    expect(off.out.status).toBe('completed');
    expect(off.offered).toBe(0);
    expect(off.out.toolCalls).toBe(0);
    const on = await run(['--tools']);
    expect(on.out).toMatchObject({ status: 'completed', scripted: false, url: null });
    expect(on.offered).toBeGreaterThan(0);
    // Two calls per tools request the model answered.
    expect(on.out.toolCalls).toBe(2 * on.offered);
  }, 120_000);

  it('with --url: the server runs the seats with tools on', async () => {
    const login = await spawnDb8(['login', '--local', '--url', server.url], dir, env);
    expect(login.status, login.stderr).toBe(0);
    const on = await run(['--tools', '--url', server.url]);
    expect(on.out).toMatchObject({ status: 'completed', url: server.url });
    expect(on.offered).toBeGreaterThan(0);
    expect(on.out.toolCalls).toBe(2 * on.offered);
    const room = await fetch(`${server.url}/v1/rooms/${on.out.id}`).then((x) => x.json());
    expect(room.protocol).toBe('deliberation');
    const off = await run(['--url', server.url]);
    expect(off.offered).toBe(0);
    expect(off.out.toolCalls).toBe(0);
  }, 120_000);
});
