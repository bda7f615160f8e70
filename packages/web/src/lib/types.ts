// Wire shapes the pages read. Placeholder until @db8/sdk exports the server's zod-derived types;
// kept to the fields the UI uses so the swap is a one-line import change.

export type Visibility = { kind: string; seat?: string };

export type Entry = {
  v: number;
  room: string;
  seq: number;
  ts: number;
  kind: string;
  actor: string;
  vis: Visibility;
  payload?: unknown;
  commit?: string;
  reveals?: Array<{ seq: number; payload: unknown; salt: string }>;
  sealed?: { payload: unknown; salt: string };
};

export type Seat = { seat: string; role: string; taken: boolean };

export type Room = {
  room_id: string;
  protocol: string;
  title: string | null;
  status: string;
  seq: number;
  created_at: number;
  seats: Seat[];
  config?: unknown;
};

export type RoomState = {
  room_id: string;
  seq: number;
  protocol: string;
  status: string;
  viewer: { kind: 'seat' | 'observer' | 'admin'; seat?: string };
  view: unknown;
  legal: { actions: unknown[] } | null;
  turn_token: string | null;
  deadline_unix: number | null;
  deadline_ms: number | null;
  protocol_version: string;
};

export type Ack = { room_id: string; seq: number; duplicate: boolean; ts: number };

export type EntriesPage = { room_id: string; entries: Entry[]; next_seq: number | null };

export type Proof = {
  room_id: string;
  seq: number;
  leaf_hash: string;
  index: number;
  tree_size: number;
  proof: string[];
  checkpoint: string;
};

export type Session = {
  token: string;
  expires_at: string;
  principal: string;
  role: 'admin' | 'agent' | 'person';
  room_id: string | null;
  seat: string | null;
};

export type JoinResult = {
  room_id: string;
  seat: string;
  principal: string;
  session_token: string;
  expires_at: string;
  ws_url: string;
};
