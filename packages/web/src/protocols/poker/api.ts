import {
  type CreateTableBody,
  GameStatePayloadSchema,
  type HandCompletePayload,
  HandSummarySchema,
  handCompleteOf,
  TableSummarySchema,
} from '@db8/protocols/poker';
import { z } from 'zod';
import { getSession } from '../../lib/session.ts';

// The table server's REST routes (seed 002 §7). The SDK covers rooms, not tables, so these are thin
// fetches, every response parsed with the protocol's own zod schemas.

export class PokerApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

async function call<T>(schema: z.ZodType<T>, path: string, init: RequestInit = {}): Promise<T> {
  const token = getSession()?.token;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const r = await fetch(path, { ...init, headers });
  const text = await r.text();
  const json = text ? (JSON.parse(text) as unknown) : null;
  if (!r.ok) {
    const e = (json as { error?: { code?: string; message?: string } } | null)?.error;
    throw new PokerApiError(r.status, e?.code ?? `HTTP_${r.status}`, e?.message ?? r.statusText);
  }
  return schema.parse(json);
}

const Tables = z.object({ tables: z.array(TableSummarySchema) });
const TableWithState = z.object({ table: TableSummarySchema, state: GameStatePayloadSchema });
const Stopped = z.object({ table: TableSummarySchema });

export const AgentRowSchema = z.object({
  agent_id: z.string(),
  name: z.string().nullable(),
  connected: z.boolean(),
  last_seen_at: z.string().nullable(),
  seats: z.array(z.object({ table_id: z.string(), seat_id: z.number().int().nullable() })),
});
export type AgentRow = z.infer<typeof AgentRowSchema>;

/** Admin log entries are shown as they come: the page only needs seq, type and time. */
export const AdminEventSchema = z
  .object({ seq: z.number().int(), type: z.string().optional(), ts: z.number().optional() })
  .loose();
export type AdminEvent = z.infer<typeof AdminEventSchema>;
const Events = z.object({ events: z.array(AdminEventSchema), next_seq: z.number().int() });

/** The generic room state for an observer: its view carries the table's recent hands. */
const RecentOf = z.object({
  view: z.object({ recent: z.array(HandSummarySchema) }).loose(),
});

const enc = encodeURIComponent;

export const pokerApi = {
  tables: () => call(Tables, '/v1/tables').then((r) => r.tables),
  table: (id: string) => call(TableWithState, `/v1/tables/${enc(id)}`),
  /** Finished hands kept by the table (newest last), as hand_complete payloads. */
  recent: async (id: string): Promise<HandCompletePayload[]> => {
    const s = await fetch(`/v1/rooms/${enc(id)}/state`, { headers: { accept: 'application/json' } });
    if (!s.ok) return [];
    const r = RecentOf.safeParse(await s.json());
    return r.success ? r.data.view.recent.map(handCompleteOf) : [];
  },
  adminTables: () => call(Tables, '/v1/admin/tables').then((r) => r.tables),
  create: (body: Partial<CreateTableBody>) =>
    call(TableSummarySchema, '/v1/admin/tables', { method: 'POST', body: JSON.stringify(body) }),
  stop: (id: string) =>
    call(Stopped, `/v1/admin/tables/${enc(id)}/stop`, { method: 'POST', body: '{}' }).then((r) => r.table),
  agents: () => call(z.object({ agents: z.array(AgentRowSchema) }), '/v1/admin/agents').then((r) => r.agents),
  events: (id: string, fromSeq: number, limit: number) =>
    call(Events, `/v1/admin/tables/${enc(id)}/events?fromSeq=${fromSeq}&limit=${limit}`),
  /** The export needs the admin header, so it is fetched and handed to the browser as a file. */
  download: async (id: string, format: 'jsonl' | 'phh'): Promise<void> => {
    const token = getSession()?.token;
    const r = await fetch(`/v1/admin/tables/${enc(id)}/export?format=${format}`, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    if (!r.ok) throw new PokerApiError(r.status, `HTTP_${r.status}`, 'export failed');
    const url = URL.createObjectURL(await r.blob());
    const a = document.createElement('a');
    a.href = url;
    a.download = `${id}.${format === 'phh' ? 'phhs' : 'jsonl'}`;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  },
};
