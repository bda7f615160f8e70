import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Delivery, ProbeTarget, ReadPath } from './probe.ts';

/**
 * MCP at /mcp, played by the SDK's own client over HTTP: every tool and resource that returns room
 * content, as each viewer (a signed-out visitor is refused at the door: one probe of that refusal).
 * One client per viewer credential, opened on first use and kept for every checkpoint.
 */

const clients = new Map<string, Promise<Client>>();

export async function closeMcpClients(): Promise<void> {
  const all = [...clients.values()];
  clients.clear();
  for (const c of all) await (await c.catch(() => null))?.close().catch(() => {});
}

function client(t: ProbeTarget): Promise<Client> {
  const token = t.viewer.token!;
  let c = clients.get(token);
  if (!c) {
    c = (async () => {
      const cl = new Client({ name: 'db8-privacy-kit', version: '1.0.0' });
      await cl.connect(
        new StreamableHTTPClientTransport(new URL(`${t.base}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${token}` } },
        }),
      );
      return cl;
    })();
    clients.set(token, c);
  }
  return c;
}

/** Everything a result carries, with the JSON text inside it decoded beside the raw form. */
function texts(result: unknown): string {
  const contents = ((result as { content?: unknown[]; contents?: unknown[] }).content ??
    (result as { contents?: unknown[] }).contents ??
    []) as Array<{ text?: string }>;
  return [JSON.stringify(result), ...contents.map((c) => c.text ?? '')].join('\n');
}

type ToolOut = { structuredContent?: Record<string, unknown>; isError?: boolean; content?: unknown[] };

async function tool(t: ProbeTarget, name: string, args: Record<string, unknown>, label = name) {
  const r = (await (await client(t)).callTool({ name, arguments: args })) as ToolOut;
  const d: Delivery = { path: `mcp tool ${label}`, status: r.isError ? 400 : 200, text: texts(r) };
  return { d, out: r.isError ? null : (r.structuredContent ?? null), raw: r };
}

async function resource(t: ProbeTarget, uri: string, label: string) {
  try {
    const r = await (await client(t)).readResource({ uri });
    const text = r.contents.map((c) => ('text' in c ? String(c.text) : '')).join('\n');
    return {
      d: { path: `mcp resource ${label}`, status: 200, text: texts(r) } as Delivery,
      json: JSON.parse(text),
    };
  } catch (err) {
    return { d: { path: `mcp resource ${label}`, status: 400, text: String(err) } as Delivery, json: null };
  }
}

const journalEntries = (text: string) =>
  text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as { type: string; entry?: object; sealed?: object })
    .filter((r) => r.type === 'entry')
    .map((r) => ({ ...r.entry, ...(r.sealed ? { sealed: r.sealed } : {}) }));

/** A signed-out visitor cannot open MCP at all: that refusal is the one probe of every MCP path. */
async function refused(t: ProbeTarget, label: string): Promise<Delivery[]> {
  const r = await fetch(`${t.base}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }),
  });
  return [{ path: `mcp ${label}`, status: r.status, text: await r.text() }];
}

const mcp = (covers: string[], probe: (t: ProbeTarget) => Promise<Delivery[]>): ReadPath => ({
  covers,
  probe: (t) => (t.viewer.token ? probe(t) : refused(t, covers.join(', '))),
});

export const mcpPaths: readonly ReadPath[] = [
  // The transport itself (every method of /mcp) and the room list.
  mcp(['POST /mcp', 'GET /mcp', 'DELETE /mcp', 'mcp tool list_rooms'], async (t) => [
    (await tool(t, 'list_rooms', { limit: 200 })).d,
  ]),
  mcp(['mcp tool view_room'], async (t) => {
    const { d, out } = await tool(t, 'view_room', { room_id: t.roomId });
    return [{ ...d, views: out ? [out.view] : [] }];
  }),
  mcp(['mcp tool wait'], async (t) => {
    const { d, out } = await tool(t, 'wait', {
      room_id: t.roomId,
      for: 'entry',
      since_seq: -1,
      timeout_ms: 0,
    });
    const state = out?.state as { view?: unknown } | undefined;
    return [
      {
        ...d,
        views: state ? [state.view] : [],
        entries: { as: t.viewer.viewer, list: (out?.entries as unknown[] | undefined) ?? [] },
      },
    ];
  }),
  // As the token grants: its `as` goes to the REST export route, which is read as every class.
  mcp(['mcp tool export_room'], async (t) => {
    const { d, raw } = await tool(t, 'export_room', { room_id: t.roomId });
    if (d.status !== 200) return [d];
    const bundle = String((raw.content?.[0] as { text?: string } | undefined)?.text ?? '');
    return [{ ...d, entries: { as: t.viewer.viewer, list: journalEntries(bundle) }, bundle }];
  }),
  {
    ...mcp(['mcp tool swarm_list', 'mcp tool swarm_room'], async (t) => [
      (await tool(t, 'swarm_list', { status: 'all' })).d,
      (await tool(t, 'swarm_room', { question_id: t.questionId })).d,
    ]),
    only: 'question',
  },
  {
    // The caller's own pending arena matches (GET /v1/arena/matches through MCP).
    ...mcp(['mcp tool arena_matches'], async (t) => [(await tool(t, 'arena_matches', {})).d]),
    only: 'arena',
  },
  mcp(['mcp resource room-view'], async (t) => {
    const { d, json } = await resource(t, `db8://rooms/${t.roomId}/view`, 'room-view');
    return [{ ...d, views: json ? [(json as { view: unknown }).view] : [] }];
  }),
  mcp(['mcp resource room-log'], async (t) => {
    const { d, json } = await resource(t, `db8://rooms/${t.roomId}/log`, 'room-log');
    return [
      {
        ...d,
        entries: { as: t.viewer.viewer, list: (json as { entries?: unknown[] } | null)?.entries ?? [] },
      },
    ];
  }),
  mcp(['mcp resources/list'], async (t) => {
    const r = await (await client(t)).listResources();
    return [{ path: 'mcp resources/list', status: 200, text: texts(r) }];
  }),
];

/** The tools and resource templates the server offers (as the admin sees them). */
export async function mcpSurface(t: ProbeTarget): Promise<string[]> {
  const c = await client(t);
  const tools = (await c.listTools()).tools.map((x) => `mcp tool ${x.name}`);
  const templates = (await c.listResourceTemplates()).resourceTemplates.map((x) => `mcp resource ${x.name}`);
  return [...tools, ...templates, 'mcp resources/list'];
}
