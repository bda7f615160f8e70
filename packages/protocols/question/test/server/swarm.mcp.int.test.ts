// The swarm's MCP tools, played by the SDK's own client over real HTTP against two nodes on the
// local nats-server: no act_question (the relay seat is reserved for the stream); an agent asks
// on A with swarm_ask, an agent on B finds it with swarm_list and answers with swarm_answer (which
// joins first), the asker summarises and closes with swarm_input; refusals are the REST error
// bodies; /skill.md names the tools beside the protocol's guide.
import { randomBytes } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SwarmNode, startSwarmNode, until } from './swarm-node.ts';

const RUN = randomBytes(5).toString('hex');
const run = { prefix: `m${RUN}.`, stream: `SWARM_M${RUN}`, settings: {} };
let A: SwarmNode;
let B: SwarmNode;
const clients: Client[] = [];

async function mcp(node: SwarmNode): Promise<Client> {
  const client = new Client({ name: 'db8-swarm-test', version: '1.0.0' });
  const headers = { authorization: `Bearer ${node.admin}` };
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${node.server.url}/mcp`), { requestInit: { headers } }),
  );
  clients.push(client);
  return client;
}
// biome-ignore lint/suspicious/noExplicitAny: test reads of JSON answers, checked field by field.
type Out = Record<string, any>;
async function tool(c: Client, name: string, args: Record<string, unknown>): Promise<Out> {
  const r = await c.callTool({ name, arguments: args });
  expect(r.isError, `${name}: ${JSON.stringify(r.content)}`).toBeFalsy();
  return r.structuredContent as Out;
}
async function toolError(c: Client, name: string, args: Record<string, unknown>): Promise<Out> {
  const r = await c.callTool({ name, arguments: args });
  expect(r.isError, `${name} should fail`).toBe(true);
  return (r.structuredContent as Out)?.error ?? { text: JSON.stringify(r.content) };
}

beforeAll(async () => {
  A = await startSwarmNode('a', run);
  B = await startSwarmNode('b', run);
});
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  await A?.close();
  await B?.close();
});

describe('swarm MCP tools', () => {
  it('offers swarm_* tools and no act_question; /skill.md names them', async () => {
    const c = await mcp(A);
    const tools = (await c.listTools()).tools;
    const names = tools.map((t) => t.name);
    for (const n of ['swarm_ask', 'swarm_list', 'swarm_room', 'swarm_answer', 'swarm_input'])
      expect(names).toContain(n);
    expect(names).not.toContain('act_question');
    const ask = tools.find((t) => t.name === 'swarm_ask')!;
    expect(ask.inputSchema.required).toEqual(expect.arrayContaining(['text', 'tags', 'scope', 'ttl_sec']));
    const listed = await tool(c, 'list_protocols', { protocol: 'question' });
    expect(listed.protocols[0].act_tool).toBeNull();

    const skill = await (await fetch(`${A.server.url}/skill.md`)).text();
    expect(skill).toContain(
      '/v1/protocols/question/skill.md (MCP tools: swarm_ask, swarm_list, swarm_room, swarm_answer, swarm_input)',
    );
    const guide = await (await fetch(`${A.server.url}/v1/protocols/question/skill.md`)).text();
    for (const s of [
      '/v1/swarm/questions',
      'swarm/room-join',
      'swarm/question-summary',
      'swarm_answer',
      'db8 swarm',
    ])
      expect(guide).toContain(s);
  });

  it('an agent asks on A, another answers on B; the asker summarises and closes', async () => {
    const a = await mcp(A);
    const b = await mcp(B);
    const asked = await tool(a, 'swarm_ask', {
      text: 'Which JSON canonicalisation?',
      tags: ['json'],
      scope: 'global',
      ttl_sec: 600,
    });
    const qid = asked.question_id as string;
    expect(asked.status).toBe('opened');

    const listed = await until('listed on B', async () => {
      const l = await tool(b, 'swarm_list', { tag: 'json' });
      return l.questions.some((q: Out) => q.question_id === qid) ? l : null;
    });
    expect(listed.questions[0].text).toBe('Which JSON canonicalisation?');

    const ans = await tool(b, 'swarm_answer', {
      question_id: qid,
      text: 'RFC 8785 (JCS).',
      speaker: 'model:b',
      models: ['model:b'],
    });
    expect(ans.status).toBe('applied');
    // A second answer does not join again.
    await tool(b, 'swarm_answer', { question_id: qid, text: 'Also NFC.', speaker: 'model:b' });

    const room = await until('answers on A', async () => {
      const r = await tool(a, 'swarm_room', { question_id: qid });
      return r.room.messages.length === 2 ? r.room : null;
    });
    expect(room.participants).toHaveLength(1);
    expect(room.messages.map((m: Out) => [m.origin, m.speaker])).toEqual([
      ['node-generated', 'model:b'],
      ['node-generated', 'model:b'],
    ]);

    // A participant may not close: the room's refusal comes back as the REST error.
    const denied = await toolError(b, 'swarm_input', {
      question_id: qid,
      draft: { type: 'swarm/question-close', 'closed-by/role': 'asker', resolution: 'closed' },
    });
    expect(denied.code).toBeTypeOf('string');

    const sum = await tool(a, 'swarm_input', {
      question_id: qid,
      draft: {
        type: 'swarm/question-summary',
        'author/role': 'asker',
        status: 'final',
        'content/facts': ['JCS is RFC 8785'],
        'content/hypotheses': [],
        'content/recommendations': ['use JCS'],
        'content/uncertainty': 0.2,
      },
    });
    expect(sum.status).toBe('applied');
    const sid = (await tool(a, 'swarm_room', { question_id: qid })).room.summaries[0].id;
    await tool(a, 'swarm_input', {
      question_id: qid,
      draft: {
        type: 'swarm/question-close',
        'closed-by/role': 'asker',
        resolution: 'accepted-answer',
        'accepted-summary/id': sid,
      },
    });
    await until('closed on B', async () => {
      const r = await tool(b, 'swarm_room', { question_id: qid });
      return r.room.status === 'closed';
    });
    expect((await toolError(a, 'swarm_room', { question_id: 'nope' })).code).toBe('QUESTION_NOT_FOUND');
    const bad = await a.callTool({
      name: 'swarm_ask',
      arguments: { text: 'Q?', tags: ['t'], scope: 'galaxy', ttl_sec: 60 },
    });
    expect(bad.isError).toBe(true);
  });
});
