import type { FastifyInstance } from 'fastify';
import type { Bus } from '../bus/types.ts';
import { ApiError } from '../errors.ts';
import type { ProtocolModule } from '../kit/module.ts';
import { viewerIn } from '../routes/access.ts';
import { requireAuth } from '../routes/context.ts';
import type { ZodTypeProvider } from '../routes/zod.ts';
import type { Runtime } from '../runtime/index.ts';
import { RoomParamsSchema } from '../schemas/rest.ts';
import type { Store } from '../store/index.ts';
import { DriverHost } from './host.ts';
import { redactDriverSpecs } from './redact.ts';
import { DriverStore } from './store.ts';

export { type Decision, fixedDecision, modelDecision, type SeatAgent, type SeatContext } from './agent.ts';
export { DriverHost, type DriverHostOptions } from './host.ts';
export { redactDriverSpec, redactDriverSpecs } from './redact.ts';
export {
  type DriverSpec,
  DriverSpecSchema,
  type Drivers,
  DriversBodySchema,
  delayedScript,
  providerFor,
} from './spec.ts';
export { type DriverCallRow, DriverStore } from './store.ts';

export interface RegisterDriversOptions {
  runtime: Runtime;
  store: Store;
  bus: Pick<Bus, 'subscribe'>;
  modules: ReadonlyMap<string, ProtocolModule>;
  env?: Readonly<Record<string, string | undefined>>;
}

/**
 * Model-driven seats (docs/drivers.md): the host that plays them, handed to the room routes (which
 * check `drivers` before a room exists and attach them after), and GET /v1/rooms/:id/drivers
 * (specs, redacted, and call records — never keys; the room's admin only). Driven rooms still open
 * are picked up again on start.
 */
export async function registerDrivers(
  app: FastifyInstance,
  opts: RegisterDriversOptions,
): Promise<DriverHost> {
  const drivers = new DriverStore(opts.store);
  const env = opts.env ?? process.env;
  const host = new DriverHost({
    runtime: opts.runtime,
    bus: opts.bus,
    drivers,
    modules: opts.modules,
    env,
    log: app.log,
  });
  app.db8.drivers = host;
  app.addHook('onClose', async () => host.close());

  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/rooms/:id/drivers',
    {
      schema: {
        tags: ['rooms'],
        summary: "The room's driver specs (credentials redacted), call records and totals: its admin only",
        params: RoomParamsSchema,
      },
    },
    async (req) => {
      const id = req.params.id;
      const auth = requireAuth(req);
      await opts.runtime.getRoom(id);
      if ((await viewerIn(app.db8, auth, id)).kind !== 'admin')
        throw new ApiError(403, 'FORBIDDEN', "only the room's admin sees its drivers");
      const calls = await drivers.calls(id);
      const specs = await drivers.forRoom(id);
      const totals = calls.reduce(
        (t, c) => ({
          calls: t.calls + 1,
          failures: t.failures + (c.ok ? 0 : 1),
          inputTokens: t.inputTokens + c.inputTokens,
          outputTokens: t.outputTokens + c.outputTokens,
          costUsd: t.costUsd + (c.costUsd ?? 0),
        }),
        { calls: 0, failures: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 },
      );
      return { room_id: id, drivers: redactDriverSpecs(specs), calls, totals };
    },
  );

  await host.resume().catch((err) => app.log.warn({ err }, 'drivers: resume failed'));
  return host;
}
