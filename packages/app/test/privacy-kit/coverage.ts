import type { FastifyInstance } from 'fastify';

/**
 * Every route the server registered (the app's route table) and every MCP tool and resource
 * it offers, against what the kit reads plus this explicit list of paths that serve no room content
 * (with the reason). A path in neither fails the kit: a new read path cannot be forgotten.
 */

/** `METHOD /url` for every route of `app` (its route table; HEAD, GET's automatic twin, left out). */
export function registeredRoutes(app: FastifyInstance): string[] {
  const out = app.routeTable.filter((r) => r.method !== 'HEAD').map((r) => `${r.method} ${r.url}`);
  return [...new Set(out)].sort();
}

const WRITE = 'a write: answers an acknowledgement, never room content another viewer may not see';

/** Paths that return no room content, each with why. Matched exactly, or by a `prefix*` pattern. */
export const EXCLUDED: Readonly<Record<string, string>> = {
  'GET /docs*': 'the OpenAPI document and its UI: the API, no room data',
  'GET /healthz': 'liveness: {ok}',
  'GET /readyz': 'readiness: store and bus up or not',
  'GET /protocol.json': "JSON Schemas of the wire formats (the modules' too): no room data",
  'GET /skill.md': "the agents' guide: no room data",
  'GET /v1/protocols/:name/skill.md': "a protocol's guide: no room data",
  'GET /v1/tables/skill.md': "poker's guide: no room data",
  'GET /v1/tables/protocol.json': "poker's wire schemas: no room data",
  'GET /v1/keys': "the server's public keys",
  'GET /v1/auth/me': "the caller's own identity and scope",
  'GET /v1/auth/providers': "how people sign in (the server's OIDC issuer and web client id): no room data",
  'POST /v1/agents': 'registers an agent: answers its id and key',
  'POST /v1/auth/*': 'logins, challenges, sessions and logout: answer tokens for the caller',
  'GET /auth/challenge': "seed 000's login challenge: a fresh nonce, no room data",
  'POST /auth/verify': "seed 000's login: answers a session token for the caller",
  'POST /rpc/submission.create': `seed 000's submit: ${WRITE}; its hash is of the caller's own payload (a dry run writes nothing)`,
  'POST /rpc/vote.continue': `seed 000's continue vote: ${WRITE}`,
  'POST /v1/rooms': 'creates a room (admin): answers its seats and the config the admin gave',
  'POST /v1/rooms/:id/invites': 'creates an invite (admin): answers the invite token',
  'POST /v1/rooms/:id/join': "takes a seat: answers the caller's seat and session token",
  'POST /v1/rooms/:id/actions': WRITE,
  'POST /v1/debate/rooms/:id/research':
    "the research tool (a seat holder): answers the fetched page's cache entry, which GET /v1/debate/rooms/:id/research shows the same readers",
  'POST /v1/debate/rooms/:id/research/check':
    'checks a quote the caller sends against a cached snapshot (participants; anyone once closed): answers found or not and the hash GET …/research shows',
  'POST /v1/rooms/:id/certs': "certifies the caller's SSH key for its own seat",
  'POST /v1/tables': 'creates a poker table (admin): answers its public summary',
  'POST /v1/admin/tables': 'creates a poker table (admin): answers its public summary',
  'POST /v1/tables/:id/join': "takes a table seat: answers the caller's seat and session token",
  'POST /v1/admin/tables/:id/stop': 'stops a table (admin): answers its public summary',
  'POST /v1/admin/tables/:id/top-up': WRITE,
  'POST /v1/admin/tables/:id/kick': WRITE,
  'POST /v1/tables/:id/leave': WRITE,
  'POST /v1/admin/rooms/:id/end':
    "ends a room (admin): answers the close entry's seq and who ended it and why, which that entry publishes",
  'POST /v1/debate/rooms/:id/operate':
    "operates a debate (admin): answers the operation's seq, an entry the room's public log shows",
  'POST /v1/debates': 'creates a deliberation (admin): answers its config and participants',
  'POST /v1/debates/:id/approve': "decides a gate (a reviewer): answers the gate's record",
  'POST /v1/debates/:id/reject': "decides a gate (a reviewer): answers the gate's record",
  'DELETE /v1/debates/:id': 'cancels a deliberation (admin): answers its status and who cancelled',
  'POST /v1/debates/:id/purge': "drops an ended deliberation's projection rows (admin): answers counts only",
  'POST /v1/deliberation/lessons/:id/uses':
    'records a use of a lesson: answers the lesson GET …/lessons/:id serves',
  'POST /v1/swarm/questions': 'asks the swarm: answers the stream position',
  'POST /v1/swarm/questions/:qid/inputs': 'posts a signed room input: answers the stream position',
  'POST /v1/swarm/questions/:qid/model': "asks the node's model agent to post: answers the stream position",
  'POST /v1/arena/tournaments/:id/invites':
    "invites a tournament's outside entrants (its creator or an admin): answers the invitation tokens",
  'POST /v1/arena/tournaments/:id/claim':
    "claims an entrant: answers the tournament and the entrant the caller's invitation named",
  'mcp tool arena_claim': 'POST /v1/arena/tournaments/:id/claim through MCP',
  'mcp tool list_protocols': "each protocol's config and action schemas: no room data",
  'mcp tool verify_bundle':
    "the verdict on the caller's own export (counts, hashes, failure codes), never an entry: export_room is read",
  'mcp tool join_room': "takes a seat: answers the caller's seat (its session token withheld)",
  'mcp tool act_*': `the generated act tools: ${WRITE}`,
  'mcp tool swarm_ask': 'POST /v1/swarm/questions through MCP',
  'mcp tool swarm_answer': 'POST /v1/swarm/questions/:qid/inputs through MCP',
  'mcp tool swarm_input': 'POST /v1/swarm/questions/:qid/inputs through MCP',
};

export function excludedWhy(path: string): string | undefined {
  for (const [pattern, why] of Object.entries(EXCLUDED)) {
    if (pattern === path) return why;
    if (pattern.endsWith('*') && path.startsWith(pattern.slice(0, -1))) return why;
  }
  return undefined;
}

/** Paths neither read by the kit nor excluded, and exclusions or covers that match nothing. */
export function uncovered(present: readonly string[], covered: ReadonlySet<string>): string[] {
  return present.filter((p) => !covered.has(p) && excludedWhy(p) === undefined);
}

export function stale(present: readonly string[], covered: ReadonlySet<string>): string[] {
  const all = new Set(present);
  const patterns = Object.keys(EXCLUDED).filter(
    (pattern) =>
      !present.some((p) => (pattern.endsWith('*') ? p.startsWith(pattern.slice(0, -1)) : p === pattern)),
  );
  return [...[...covered].filter((c) => !all.has(c)), ...patterns];
}
