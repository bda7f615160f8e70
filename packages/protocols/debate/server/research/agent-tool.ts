import type { ResearchEntry } from '../../rules/index.ts';

/**
 * The research tool as model seats reach it (docs/debate.md, "Research"): the driver host runs
 * debate's seat agent in the server process, and the agent is a plain function of what the seat
 * sees, so the running server binds its tool here (registerDebate) and the agent's decisions call
 * it — the same phase, role and rate checks as `POST /v1/debate/rooms/:id/research`.
 */
export interface ResearchTool {
  /** Fetches `url` into the room's cache as `seat`; throws an ApiError when refused. */
  fetch(roomId: string, seat: string, url: string): Promise<ResearchEntry & { cached: boolean }>;
  /** The room's cached pages, each with its text. */
  entries(roomId: string): Promise<ResearchEntry[]>;
}

let bound: ResearchTool | null = null;

/** Binds the server's tool; the returned function unbinds it (if still bound) when the server closes. */
export function bindResearchTool(tool: ResearchTool): () => void {
  bound = tool;
  return () => {
    if (bound === tool) bound = null;
  };
}

export function researchTool(): ResearchTool | null {
  return bound;
}
