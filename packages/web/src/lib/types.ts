// Wire types come from the server's zod schemas through the SDK, so the UI cannot drift from the API.
export type {
  Ack,
  AdminRoom,
  AgentProfile,
  AgentRecordSection as AgentSection,
  EntriesResponse as EntriesPage,
  EntryWire as Entry,
  JoinResponse as JoinResult,
  ProofResponse as Proof,
  Room,
  SessionResponse as Session,
  State as RoomState,
} from '@db8/sdk';
