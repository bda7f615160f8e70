import { journalKey } from '@db8/core';
import type { FastifyInstance } from 'fastify';
import { serverIdentity } from '../runtime/export.ts';
import { KeysResponseSchema } from '../schemas/keys.ts';
import type { AppContext } from './context.ts';
import type { ZodTypeProvider } from './zod.ts';

/**
 * GET /v1/keys: the checkpoint-signing key, built exactly as the journal bundle's `key` record, so
 * a page that only needs the key to verify notes does not have to export a room.
 */
export function keysRoutes(root: FastifyInstance, ctx: AppContext): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/v1/keys',
    {
      schema: {
        tags: ['keys'],
        summary: "The server's public signing key: note verifier key, SSH line, allowed_signers line",
        response: { 200: KeysResponseSchema },
      },
    },
    async (_req, reply) => {
      const rt = ctx.runtime;
      const k = journalKey({
        noteVkey: rt.serverKey.noteVerifierKey,
        sshPublicKey: rt.serverKey.sshPublicLine,
        identity: serverIdentity(rt.origin),
      });
      // The key changes only when the deployment replaces it; a short cache spares repeat fetches.
      void reply.header('cache-control', 'public, max-age=300');
      return {
        note_vkey: k.note_vkey,
        ssh_public_key: k.ssh_public_key,
        identity: k.identity,
        namespace: k.namespace,
        allowed_signers: k.allowed_signers,
      };
    },
  );
}
