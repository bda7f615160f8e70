import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.ts';
import type { AgentSeat } from '../kit/agent-record.ts';
import type { ModuleContext, ProtocolModule } from '../kit/module.ts';
import {
  type AgentIdentity,
  AgentParamsSchema,
  AgentProfileSchema,
  AgentsQuerySchema,
  AgentsResponseSchema,
} from '../schemas/agents.ts';
import { AgentRecordsRepo, type HeldSeat } from '../store/agents.ts';
import type { PrincipalRow } from '../store/schemas.ts';
import type { AppContext } from './context.ts';
import type { ZodTypeProvider } from './zod.ts';

/**
 * One identity across every protocol (issue 28):
 *   GET /v1/agents      agents and people with a record, most rooms first
 *   GET /v1/agents/:id  one profile: name, kind, each protocol's section, model usage
 * A room's seat holders are sealed until it closes (a debate unmasks its seats in its close entry),
 * so for anyone but an admin both count closed rooms only, and a principal with no closed room is
 * not found. Each protocol's section comes from its module (`agentRecord`), given only those seats.
 */

type Mounted = { module: ProtocolModule; ctx: ModuleContext };

/** What plays, from the principal's kind and the metadata its registration (or driver) gave it. */
export function identityOf(p: PrincipalRow): AgentIdentity {
  const driver = typeof p.meta.driver === 'string' ? p.meta.driver : null;
  const model = typeof p.meta.model === 'string' ? p.meta.model : null;
  const scripted = p.meta.scripted === true || driver === 'scripted';
  const kind = scripted ? 'scripted' : driver ? 'model' : p.kind === 'person' ? 'person' : 'outside';
  return {
    id: p.id,
    name: p.displayName,
    kind,
    provider: kind === 'model' ? driver : null,
    model: kind === 'model' ? model : null,
  };
}

export function agentRoutes(root: FastifyInstance, ctx: AppContext, mounted: readonly Mounted[]): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const repo = new AgentRecordsRepo(ctx.store.db);
  const tags = ['agents'];

  app.get(
    '/v1/agents',
    {
      schema: {
        tags,
        summary: 'Agents and people with a record (closed rooms; an admin also sees open ones)',
        querystring: AgentsQuerySchema,
        response: { 200: AgentsResponseSchema },
      },
    },
    async (req) => {
      const admin = req.auth?.role === 'admin';
      const holders = await repo.holders({ closedOnly: !admin, limit: req.query.limit });
      return {
        agents: holders.map((h) => ({
          ...identityOf(h.principal),
          rooms: h.rooms,
          protocols: h.protocols,
        })),
      };
    },
  );

  app.get(
    '/v1/agents/:id',
    {
      schema: {
        tags,
        summary: "One agent's profile: kind, each protocol's record, model usage",
        params: AgentParamsSchema,
        response: { 200: AgentProfileSchema },
      },
    },
    async (req) => {
      const admin = req.auth?.role === 'admin';
      const p = await ctx.store.principals.get(req.params.id);
      // Seats the asker may link to the principal: closed rooms, or all of them for an admin.
      const seats = (p ? await repo.seatsOf(p.id) : []).filter((s) => admin || s.status === 'closed');
      // Not found alike whether the id is unknown or has no public record: nothing is confirmed.
      if (!p || (p.kind !== 'agent' && p.kind !== 'person') || (seats.length === 0 && !admin))
        throw new ApiError(404, 'AGENT_NOT_FOUND', 'no agent with a public record has this id');
      const sections = [];
      for (const { module, ctx: mctx } of mounted) {
        const source = module.agentRecord;
        const own = seats.filter((s) => s.protocol === module.protocol.name).map(toAgentSeat);
        if (!source || own.length === 0) continue;
        const section = await source.read({ principal: p.id, seats: own, admin }, mctx);
        if (!section) continue;
        // Only what the module's detail schema names is served (zod strips the rest).
        const { detail, ...rest } = section;
        sections.push({
          ...rest,
          protocol: module.protocol.name,
          ...(source.detail && detail !== undefined ? { detail: source.detail.parse(detail) } : {}),
        });
      }
      const usage = await repo.usage(
        p.id,
        seats.map((s) => s.roomId),
        admin,
      );
      return { agent: identityOf(p), sections, usage, includes_open: admin };
    },
  );
}

function toAgentSeat(s: HeldSeat): AgentSeat {
  return {
    roomId: s.roomId,
    title: s.title,
    seat: s.seat,
    role: s.role,
    status: s.status,
    closedAt: s.closedAt,
  };
}
