import { anonClient, personalClient } from '@db8/web/kit';
import { z } from 'zod';
import {
  AgentResultsSchema,
  type CreateTableBody,
  GameStatePayloadSchema,
  type HandCompletePayload,
  HandSummarySchema,
  handCompleteOf,
  TablePlayerSchema,
  TableSummarySchema,
} from '../rules/index.ts';

// The table routes (seed 002 §7) through the SDK's client (`request`: the person's credential, typed
// Db8Error, the reply parsed with the protocol's own zod schemas). The SDK has no poker methods: the
// routes belong to this module, as they do to the server's poker module.

const Tables = z.object({ tables: z.array(TableSummarySchema) });
const TableWithState = z.object({
  table: TableSummarySchema,
  state: GameStatePayloadSchema,
  players: z.array(TablePlayerSchema),
});
const Stopped = z.object({ table: TableSummarySchema });

export const AgentRowSchema = z.object({
  agent_id: z.string(),
  name: z.string().nullable(),
  connected: z.boolean(),
  last_seen_at: z.string().nullable(),
  seats: z.array(z.object({ table_id: z.string(), seat_id: z.number().int().nullable() })),
  results: AgentResultsSchema,
});
export type AgentRow = z.infer<typeof AgentRowSchema>;
const Agents = z.object({ agents: z.array(AgentRowSchema) });

/** Admin log entries are shown as they come: the page only needs seq, type and time. */
export const AdminEventSchema = z
  .object({ seq: z.number().int(), type: z.string().optional(), ts: z.number().optional() })
  .loose();
export type AdminEvent = z.infer<typeof AdminEventSchema>;
const Events = z.object({ events: z.array(AdminEventSchema), next_seq: z.number().int() });

/** The generic room state for an observer: its view carries the table's recent hands. */
const RecentOf = z.object({ recent: z.array(HandSummarySchema) }).loose();
/** …and every seat's stack, chips bought and hands played (public: the table's end settles them). */
const SeatsOf = z
  .object({
    seats: z.array(
      z.object({ stack: z.number().int(), bought: z.number().int(), handsPlayed: z.number().int() }).loose(),
    ),
  })
  .loose();
export interface Standing {
  seat: number;
  stack: number;
  bought: number;
  net: number;
  handsPlayed: number;
}

const enc = encodeURIComponent;
const get = <S extends z.ZodType>(schema: S, path: string) => personalClient().request(schema, 'GET', path);
const post = <S extends z.ZodType>(schema: S, path: string, body: unknown) =>
  personalClient().request(schema, 'POST', path, body);

export const pokerApi = {
  tables: () => get(Tables, '/v1/tables').then((r) => r.tables),
  table: (id: string) => get(TableWithState, `/v1/tables/${enc(id)}`),
  /** Finished hands kept by the table (newest last), as hand_complete payloads; read as an observer. */
  recent: async (id: string): Promise<HandCompletePayload[]> => {
    const s = await anonClient()
      .state(id)
      .catch(() => null);
    const r = RecentOf.safeParse(s?.view);
    return r.success ? r.data.recent.map(handCompleteOf) : [];
  },
  /** Each seat that played, best net first: the table's standings (read once it has stopped). */
  standings: async (id: string): Promise<Standing[]> => {
    const v = SeatsOf.parse((await anonClient().state(id)).view);
    return v.seats
      .map((s, seat) => ({
        seat,
        stack: s.stack,
        bought: s.bought,
        net: s.stack - s.bought,
        handsPlayed: s.handsPlayed,
      }))
      .filter((s) => s.handsPlayed > 0 || s.bought > 0)
      .sort((a, b) => b.net - a.net || a.seat - b.seat);
  },
  adminTables: () => get(Tables, '/v1/admin/tables').then((r) => r.tables),
  create: (body: Partial<CreateTableBody>) => post(TableSummarySchema, '/v1/admin/tables', body),
  stop: (id: string) => post(Stopped, `/v1/admin/tables/${enc(id)}/stop`, {}).then((r) => r.table),
  /** Play-money chips for a seat (a busted one sits at 0 otherwise). */
  topUp: (id: string, seatId: number, amount: number) =>
    post(z.object({ seq: z.number().int() }), `/v1/admin/tables/${enc(id)}/top-up`, {
      seat_id: seatId,
      amount,
    }),
  /** Remove a seat from play (seed 002 §10.1): folded at its turn, never seated again. */
  kick: (id: string, seatId: number) =>
    post(z.object({ seq: z.number().int() }), `/v1/admin/tables/${enc(id)}/kick`, { seat_id: seatId }),
  agents: () => get(Agents, '/v1/admin/agents').then((r) => r.agents),
  events: (id: string, fromSeq: number, limit: number) =>
    get(Events, `/v1/admin/tables/${enc(id)}/events?fromSeq=${fromSeq}&limit=${limit}`),
  /** The export needs the admin header, so it is fetched and handed to the browser as a file. */
  download: async (id: string, format: 'jsonl' | 'phh'): Promise<void> => {
    const r = await personalClient().raw('GET', `/v1/admin/tables/${enc(id)}/export?format=${format}`);
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
