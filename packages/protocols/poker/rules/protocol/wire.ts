import { z } from 'zod';
import type { HandAction, HandSummary } from './state.ts';
import type { LegalTableAction, TableView } from './view.ts';

/**
 * The poker table's wire protocol (seed 002 §7–§8): REST bodies, WebSocket messages, and the pure
 * mappings from the protocol's view to `game_state` / `hand_complete`. Server, agents and CLI all
 * parse with these schemas; /v1/tables/protocol.json is generated from them.
 */

export const POKER_PROTOCOL_VERSION = '0.1';
export const POKER_MIN_SUPPORTED_PROTOCOL_VERSION = '0.1';

const int = z.number().int();
const chips = int.min(0).max(1e12);
const SeatId = int.min(0).max(9);
const Version = z
  .string()
  .max(32)
  .regex(/^\d{1,6}(\.\d{1,6}){0,2}$/, 'expected a version like 0.1');

// ---------- REST ----------

/** A table made over REST whose agents have all gone stops after 10 minutes unless it says otherwise. */
export const DEFAULT_IDLE_STOP_MS = 600_000;

export const CreateTableBodySchema = z
  .object({
    title: z.string().min(1).max(100).optional(),
    seats: int.min(2).max(10).default(6),
    small_blind: chips.min(1),
    big_blind: chips.min(1),
    ante: chips.default(0),
    starting_stack: chips.min(1),
    action_timeout_ms: int.min(100).max(86_400_000).default(8000),
    hand_interval_ms: int.min(0).max(86_400_000).default(1000),
    max_hands: int.min(1).nullable().default(null),
    /** Deal only while at least this many seats can play. */
    min_players: int.min(2).max(10).default(2),
    max_consecutive_timeouts: int.min(1).max(1000).nullable().default(3),
    /**
     * Stop the table once every seat that sat in has left or sat out this long (null: never;
     * absent: DEFAULT_IDLE_STOP_MS).
     */
    idle_stop_ms: int.min(1000).max(86_400_000).nullable().optional(),
  })
  .strict();
export type CreateTableBody = z.infer<typeof CreateTableBodySchema>;

export const TableStatusSchema = z.enum(['waiting', 'running', 'ended']);

/** Who holds a player seat, by the name the agent registered with (null: it gave none). */
export const TablePlayerSchema = z.object({ seat_id: int, name: z.string().nullable() });
export type TablePlayer = z.infer<typeof TablePlayerSchema>;

/** An agent's record over the tables that have ended: its seats' hands and chips won (stack − bought). */
export const AgentResultsSchema = z.object({ tables: int, hands: int, net: int });
export type AgentResults = z.infer<typeof AgentResultsSchema>;

export const TableSummarySchema = z.object({
  table_id: z.string(),
  title: z.string().nullable(),
  status: TableStatusSchema,
  seats_total: int,
  seats_filled: int,
  hands_played: int,
  small_blind: int,
  big_blind: int,
  ante: int,
  starting_stack: int,
  action_timeout_ms: int,
  max_hands: int.nullable(),
  created_at: int,
  seq: int,
});
export type TableSummary = z.infer<typeof TableSummarySchema>;

export const JoinTableBodySchema = z.object({
  client_protocol_version: Version,
  /** A particular empty seat; default: the first empty one. */
  seat_id: SeatId.optional(),
});

export const JoinTableResponseSchema = z.object({
  table_id: z.string(),
  seat_id: SeatId,
  agent_id: z.string(),
  /** Short-lived, scoped to this table and seat: connect the WebSocket with it. */
  session_token: z.string(),
  expires_at: z.string(),
  ws_url: z.string(),
  protocol_version: z.string(),
  min_supported_protocol_version: z.string(),
  skill_doc_url: z.string(),
});
export type JoinTableResponse = z.infer<typeof JoinTableResponseSchema>;

export const TopUpBodySchema = z.object({ seat_id: SeatId, amount: chips.min(1) });
export const KickBodySchema = z.object({ seat_id: SeatId }).strict();

// ---------- WebSocket: shared parts ----------

export const WireActionKindSchema = z.enum(['fold', 'check', 'call', 'raiseTo']);

export const LegalWireActionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('fold') }),
  z.object({ kind: z.literal('check') }),
  z.object({ kind: z.literal('call'), amount: int }),
  z.object({ kind: z.literal('raiseTo'), min: int, max: int }),
]);
export type LegalWireAction = z.infer<typeof LegalWireActionSchema>;

export const WireHandActionSchema = z.object({
  seat_id: int,
  kind: z.string(),
  amount: int.optional(),
  street: z.string(),
  auto: z.boolean().optional(),
});

export const GameStatePayloadSchema = z.object({
  protocol_version: z.string(),
  min_supported_protocol_version: z.string(),
  /** 0 before the first hand. */
  hand_number: int,
  status: z.enum(['waiting', 'playing', 'between', 'stopped']),
  street: z.enum(['preflop', 'flop', 'turn', 'river', 'showdown', 'complete']).nullable(),
  board: z.array(z.string()),
  pot: int,
  button: int.nullable(),
  small_blind_seat: int.nullable(),
  big_blind_seat: int.nullable(),
  to_act: int.nullable(),
  blinds: z.object({ small: int, big: int, ante: int }),
  seats: z.array(
    z.object({
      seat_id: int,
      status: z.enum(['empty', 'active', 'sittingOut']),
      stack: int,
      bet: int,
      in_hand: z.boolean(),
      folded: z.boolean(),
      all_in: z.boolean(),
      /** Only once shown at showdown (your own cards are in your_hole). */
      hole: z.array(z.string()).nullable(),
    }),
  ),
  your_seat: int.nullable(),
  /** Your two hole cards, only on your own connection while you are in the hand. */
  your_hole: z.array(z.string()).optional(),
  /** Only for the seat to act: echo it in your action. */
  turn_token: z.string().optional(),
  legal_actions: z.array(LegalWireActionSchema).optional(),
  amount_to_call: int.optional(),
  min_raise_to: int.optional(),
  max_raise_to: int.optional(),
  /** When the table acts for the seat to act (check if free, else fold), unix ms. */
  deadline_ms: int.nullable(),
  action_timeout_ms: int,
  /** sha256 of canonical JSON {deck, salt} for this hand; both are revealed in hand_complete. */
  deck_commitment: z.string().nullable(),
  /** This hand so far: posts, bets, timeouts (auto). */
  actions: z.array(WireHandActionSchema),
  last_action: z
    .object({ seat_id: int, kind: z.string(), amount: int.optional(), auto: z.boolean().optional() })
    .nullable(),
});
export type GameStatePayload = z.infer<typeof GameStatePayloadSchema>;

/**
 * The few fields of a full `game_state` a seat reads to learn whether it is its turn; a seat checks
 * the whole payload (GameStatePayloadSchema) only for the states it answers.
 */
export const GameStateHeadSchema = z
  .object({
    status: GameStatePayloadSchema.shape.status,
    to_act: int.nullable(),
    turn_token: z.string().optional(),
    blinds: GameStatePayloadSchema.shape.blinds,
  })
  // Not .loose(): a loose object visits (and copies) every other key of the payload, which is
  // the cost the head exists to avoid; the caller keeps the raw payload for the full check.
  .strip();
export type GameStateHead = z.infer<typeof GameStateHeadSchema>;

export const HandCompletePayloadSchema = z.object({
  hand_number: int,
  button: int,
  /** Seats dealt in, in order from the small blind (heads-up: big blind first) to the button. */
  seats: z.array(int),
  start_stacks: z.array(int),
  end_stacks: z.array(int),
  net: z.array(int),
  board: z.array(z.string()),
  shown: z.array(z.object({ seat_id: int, cards: z.array(z.string()) })),
  pots: z.array(z.object({ amount: int, winners: z.array(int), shares: z.array(int) })),
  cancelled: z.boolean(),
  deck_commitment: z.string(),
  deck: z.array(z.string()),
  salt: z.string(),
  actions: z.array(WireHandActionSchema),
});
export type HandCompletePayload = z.infer<typeof HandCompletePayloadSchema>;

/** `format=compact`: the same decision in far fewer tokens (for language-model agents). */
export const CompactStateSchema = z.object({
  v: z.string(),
  /** hand number */
  h: int,
  /** street, or the table status between hands */
  st: z.string(),
  /** board, e.g. "AsKd7c" */
  b: z.string(),
  p: int,
  btn: int.nullable(),
  me: int.nullable(),
  /** your hole cards, e.g. "AhAd" */
  hole: z.string().nullable(),
  /** per seat "stack/bet" plus a flag: f folded, a all-in, o out of the hand */
  s: z.array(z.string()),
  act: int.nullable(),
  tt: z.string().optional(),
  /** legal actions: "f", "x" (check), "c20" (call 20), "r40-980" (raise to 40…980) */
  la: z.string().optional(),
  dl: int.nullable(),
});
export type CompactState = z.infer<typeof CompactStateSchema>;

// ---------- WebSocket: messages ----------

const ReqId = z.string().min(1).max(128).optional();

export const PokerHelloSchema = z.object({
  type: z.literal('hello'),
  id: ReqId,
  payload: z.object({ client_protocol_version: Version }),
});

export const PokerActionPayloadSchema = z
  .object({
    turn_token: z.string().min(1).max(200),
    seat_id: SeatId,
    kind: WireActionKindSchema,
    /** Required for raiseTo: the total bet this street. */
    amount: chips.min(1).optional(),
    /** The seq of the game_state you answer; STALE_SEQ if the table has moved on. */
    expected_seq: int.min(0).optional(),
  })
  .refine((a) => a.kind !== 'raiseTo' || a.amount !== undefined, {
    message: 'raiseTo needs an amount',
    path: ['amount'],
  });

export const PokerActionMessageSchema = z.object({
  type: z.literal('action'),
  id: ReqId,
  table_id: z.string().optional(),
  payload: PokerActionPayloadSchema,
});

export const PokerPingSchema = z.object({
  type: z.literal('ping'),
  id: ReqId,
  payload: z.unknown().optional(),
});

export const PokerClientMessageSchema = z.discriminatedUnion('type', [
  PokerHelloSchema,
  PokerActionMessageSchema,
  PokerPingSchema,
]);
export type PokerClientMessage = z.infer<typeof PokerClientMessageSchema>;

const envelope = <T extends string, P extends z.ZodType>(type: T, payload: P) =>
  z.object({
    type: z.literal(type),
    table_id: z.string().nullable(),
    seq: int,
    ts: z.string(),
    id: z.string().optional(),
    payload,
  });

export const PokerWelcomeSchema = envelope(
  'welcome',
  z.object({
    protocol_version: z.string(),
    min_supported_protocol_version: z.string(),
    skill_doc_url: z.string(),
    seat_id: int.nullable(),
    agent_id: z.string().nullable(),
    action_timeout_ms: int,
    format: z.enum(['full', 'compact']),
  }),
);
export const PokerGameStateSchema = envelope(
  'game_state',
  z.union([GameStatePayloadSchema, CompactStateSchema]),
);
export const PokerHandCompleteSchema = envelope('hand_complete', HandCompletePayloadSchema);
/** A `game_state` envelope with only its head checked (see GameStateHeadSchema). */
export const PokerGameStateHeadSchema = envelope('game_state', GameStateHeadSchema);
export const PokerAckSchema = envelope(
  'ack',
  z.object({ seq: int, duplicate: z.boolean(), turn_token: z.string().optional() }),
);
export const PokerErrorSchema = envelope(
  'error',
  z.object({ code: z.string(), message: z.string(), details: z.unknown().optional() }),
);
export const PokerPongSchema = envelope('pong', z.object({}).loose());

export const PokerServerMessageSchema = z.discriminatedUnion('type', [
  PokerWelcomeSchema,
  PokerGameStateSchema,
  PokerHandCompleteSchema,
  PokerAckSchema,
  PokerErrorSchema,
  PokerPongSchema,
]);
export type PokerServerMessage = z.infer<typeof PokerServerMessageSchema>;

// ---------- mappings ----------

function wireActions(actions: readonly HandAction[]) {
  return actions.map((a) => ({
    seat_id: a.seat,
    kind: a.kind,
    street: a.street,
    ...(a.amount !== undefined ? { amount: a.amount } : {}),
    ...(a.auto ? { auto: true } : {}),
  }));
}

type Legal = { actions: readonly LegalTableAction[]; turnToken?: string } | undefined;

/** A `game_state`'s table part: every viewer of one state gets the same (no seat's own fields). */
export type GameStateTable = Omit<GameStatePayload, 'seats' | GameStateSeatField>;
/** The fields only the viewer's own seat gets. */
export type GameStateSeatField =
  | 'your_seat'
  | 'your_hole'
  | 'turn_token'
  | 'legal_actions'
  | 'amount_to_call'
  | 'min_raise_to'
  | 'max_raise_to';

/** The table part of a view's `game_state` (public: the same from every viewer's view). */
export function gameStateTableOf(view: TableView, deadlineMs: number | null): GameStateTable {
  const h = view.hand;
  return {
    protocol_version: POKER_PROTOCOL_VERSION,
    min_supported_protocol_version: POKER_MIN_SUPPORTED_PROTOCOL_VERSION,
    hand_number: h?.number ?? view.recent.at(-1)?.number ?? 0,
    status: view.status,
    street: h?.street ?? null,
    board: h?.board ?? [],
    pot: h?.pot ?? 0,
    button: h?.button ?? (view.button >= 0 ? view.button : null),
    small_blind_seat: h?.smallBlindSeat ?? null,
    big_blind_seat: h?.bigBlindSeat ?? null,
    to_act: h?.toAct ?? null,
    blinds: { small: view.config.smallBlind, big: view.config.bigBlind, ante: view.config.ante },
    deadline_ms: deadlineMs,
    action_timeout_ms: view.config.actionTimeoutMs,
    deck_commitment: h?.commitment ?? null,
    actions: h ? wireActions(h.actions) : [],
    last_action: view.lastAction
      ? {
          seat_id: view.lastAction.seat,
          kind: view.lastAction.kind,
          ...(view.lastAction.amount !== undefined ? { amount: view.lastAction.amount } : {}),
          ...(view.lastAction.auto ? { auto: true } : {}),
        }
      : null,
  };
}

/** The hole cards row `i` shows this viewer: only cards shown to all, never the viewer's own. */
export function gameStateHoleOf(view: TableView, i: number): string[] | null {
  const s = view.seats[i]!;
  return s.seat !== view.you.seat && s.hole && !s.hole.includes('??') ? s.hole : null;
}

/** Row `i` of a view's `game_state` seats. */
export function gameStateRowOf(view: TableView, i: number): GameStatePayload['seats'][number] {
  const s = view.seats[i]!;
  return {
    seat_id: s.seat,
    status: s.status,
    stack: s.stack,
    bet: s.bet,
    in_hand: s.inHand,
    folded: s.folded,
    all_in: s.allIn,
    hole: gameStateHoleOf(view, i),
  };
}

/** The viewer's own fields: its seat, its hole cards, and for the seat to act its turn and moves. */
export function gameStateSeatOf(view: TableView, legal: Legal): Pick<GameStatePayload, GameStateSeatField> {
  const me = view.you.seat;
  const seatRow = me === null ? undefined : view.seats[me];
  const out: Pick<GameStatePayload, GameStateSeatField> = { your_seat: me };
  if (seatRow?.hole && seatRow.inHand) out.your_hole = seatRow.hole;
  if (legal?.turnToken !== undefined) {
    out.turn_token = legal.turnToken;
    const bets = legal.actions.filter((a): a is LegalWireAction =>
      ['fold', 'check', 'call', 'raiseTo'].includes(a.kind),
    );
    out.legal_actions = bets;
    const call = bets.find((a) => a.kind === 'call');
    out.amount_to_call = call?.kind === 'call' ? call.amount : 0;
    const raise = bets.find((a) => a.kind === 'raiseTo');
    if (raise?.kind === 'raiseTo') {
      out.min_raise_to = raise.min;
      out.max_raise_to = raise.max;
    }
  }
  return out;
}

/** A protocol view (plus legal moves for the viewer's seat) as the seed's `game_state` payload. */
export function gameStateOf(view: TableView, legal: Legal, deadlineMs: number | null): GameStatePayload {
  return {
    ...gameStateTableOf(view, deadlineMs),
    seats: view.seats.map((_, i) => gameStateRowOf(view, i)),
    ...gameStateSeatOf(view, legal),
  };
}

export function handCompleteOf(h: HandSummary): HandCompletePayload {
  return {
    hand_number: h.number,
    button: h.button,
    seats: h.seats,
    start_stacks: h.startStacks,
    end_stacks: h.endStacks,
    net: h.net,
    board: h.board,
    shown: h.shown.map((s) => ({ seat_id: s.seat, cards: s.cards })),
    pots: h.pots,
    cancelled: h.cancelled,
    deck_commitment: h.commitment,
    deck: h.deck,
    salt: h.salt,
    actions: wireActions(h.actions),
  };
}

export function compactOf(g: GameStatePayload): CompactState {
  const la = g.legal_actions
    ?.map((a) =>
      a.kind === 'fold'
        ? 'f'
        : a.kind === 'check'
          ? 'x'
          : a.kind === 'call'
            ? `c${a.amount}`
            : `r${a.min}-${a.max}`,
    )
    .join(',');
  return {
    v: g.protocol_version,
    h: g.hand_number,
    st: g.street ?? g.status,
    b: g.board.join(''),
    p: g.pot,
    btn: g.button,
    me: g.your_seat,
    hole: g.your_hole ? g.your_hole.join('') : null,
    s: g.seats.map((s) => {
      const flag = !s.in_hand ? 'o' : s.folded ? 'f' : s.all_in ? 'a' : '';
      return `${s.stack}/${s.bet}${flag}`;
    }),
    act: g.to_act,
    ...(g.turn_token !== undefined ? { tt: g.turn_token } : {}),
    ...(la !== undefined ? { la } : {}),
    dl: g.deadline_ms,
  };
}
