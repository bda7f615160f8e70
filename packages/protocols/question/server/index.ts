import { fileURLToPath } from 'node:url';
import type { ModuleContext, ProtocolModule } from '@db8/server/kit';
import { migrationsIn, runtimeError } from '@db8/server/kit';
import { closeJsonSchema, question, summaryJsonSchema, UPSTREAM_SCHEMAS } from '../rules/index.ts';
import { questionAgentRecord } from './agent-record.ts';
import { modelRoutes } from './agents.ts';
import { SwarmBinding } from './binding.ts';
import { startIrcBridge } from './bridges/irc.ts';
import { startMatrixBridge } from './bridges/matrix.ts';
import { questionMcpTools } from './mcp.ts';
import { swarmOptions } from './options.ts';
import { ScriptedResponder } from './responder.ts';
import { startRetention } from './retention.ts';
import { swarmRoutes } from './routes.ts';
import { AutoSecretary } from './secretary.ts';
import { questionSkillDoc } from './skill.ts';

/** What the module's routes return: the node's JetStream binding (null without NATS). */
export interface QuestionHandle {
  binding: SwarmBinding | null;
}

/**
 * Swarm questions (seed 003). Rooms are never created through the generic route: every node opens
 * a question's room from the stream, with the question id as its id, and folds the room's inputs
 * at their stream times, so it ticks its rooms itself (externalClock) from tick markers on the stream.
 */
export const questionModule: ProtocolModule = {
  protocol: question,
  externalClock: true,
  agentRecord: questionAgentRecord,
  prepareConfig() {
    throw runtimeError(
      'BAD_CONFIG',
      'question rooms open from the swarm stream: POST /v1/swarm/questions asks a question',
    );
  },
  async routes(app, ctx: ModuleContext): Promise<void> {
    const key = ctx.app.serverKey;
    const opts = swarmOptions(ctx.env, ctx.app.config.natsUrl ?? null, key.publicKey);
    const node = {
      nodeId: opts.nodeId,
      federationId: opts.federationId,
      seed: key.seed,
      publicKey: key.publicKey,
    };
    const handle: QuestionHandle = { binding: null };
    if (opts.natsUrl) {
      handle.binding = await SwarmBinding.start(ctx.runtime, { ...opts, natsUrl: opts.natsUrl });
      if (opts.scriptedResponder) {
        handle.binding.responder = new ScriptedResponder(ctx.runtime, handle.binding, node);
      }
      if (opts.settings.roster?.['takeover/policy'] === 'roster-election') {
        await handle.binding.watchOpenRooms(new AutoSecretary(ctx.runtime, handle.binding, node, opts));
      }
      app.addHook('onClose', async () => {
        await handle.binding?.stop();
      });
    }
    // After the binding: rooms it opened while starting are joined as resumed, not replayed.
    const irc = startIrcBridge(ctx.runtime, ctx.app.bus, ctx.env, opts.nodeId, (m) => app.log.warn(m));
    if (irc) app.addHook('onClose', () => irc.stop());
    const matrix = startMatrixBridge(ctx.runtime, ctx.app.bus, ctx.env, opts.nodeId, (m) => app.log.warn(m));
    if (matrix) app.addHook('onClose', () => matrix.stop());
    // Every process purges (idempotent) and drops what it purged from its own cache.
    const retention = startRetention(ctx.runtime, opts.retentionMs, (m) => app.log.warn(m));
    app.addHook('onClose', async () => retention.stop());
    swarmRoutes(app, { runtime: ctx.runtime, binding: handle.binding, opts, node });
    modelRoutes(app, ctx.env);
  },
  // History retention's tombstones (`retention.ts`).
  migrations: migrationsIn(fileURLToPath(new URL('./migrations', import.meta.url))),
  skillDoc: questionSkillDoc,
  actTool: false,
  mcpTools: questionMcpTools,
  protocolJson: () => ({
    'swarm/question-summary': summaryJsonSchema(),
    'swarm/question-close': closeJsonSchema(),
    'question-envelope.v1': UPSTREAM_SCHEMAS['question-envelope.v1.schema.json'],
    'answer-room-metadata.v1': UPSTREAM_SCHEMAS['answer-room-metadata.v1.schema.json'],
  }),
};
