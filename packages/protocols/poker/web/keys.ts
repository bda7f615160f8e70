import { webKeys } from '@db8/web/kit';

// The poker module's query keys, in one place (reads through @db8/web/kit's TanStack Query). A
// table is a room: its recorded events sit under webKeys.room(id), which the room's live feed (the
// admin's table page) invalidates as the log grows.

export const pokerKeys = {
  tables: () => ['poker', 'tables'] as const,
  adminTables: () => ['poker', 'admin-tables'] as const,
  agents: () => ['poker', 'agents'] as const,
  table: (id: string) => ['poker', 'table', id] as const,
  /** Finished hands kept by the table; the poker socket invalidates it on every (re)connect. */
  recent: (id: string) => ['poker', 'recent', id] as const,
  /** A stopped table's final stacks. */
  standings: (id: string) => ['poker', 'standings', id] as const,
  events: (id: string, from: number) => [...webKeys.room(id), 'poker', 'events', from] as const,
};
