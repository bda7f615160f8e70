import type { FastifyInstance } from 'fastify';
import type { ServerConfig } from '../config.ts';
import { type AuthProvidersResponse, AuthProvidersResponseSchema } from '../schemas/rest.ts';
import type { AppContext } from './context.ts';
import type { ZodTypeProvider } from './zod.ts';

/**
 * What the web app signs people in with: the OIDC issuer, the web app's client id at it and the
 * scopes, or null. An OIDC_ISSUER's client id defaults to the audience (its id_token is then the
 * credential); Supabase Auth is offered only with an OIDC_CLIENT_ID (a client registered with its
 * OAuth server), and its access token (audience `authenticated`) is the credential.
 */
export function webSignIn(config: Pick<ServerConfig, 'oidc'>): AuthProvidersResponse['oidc'] {
  const o = config.oidc;
  if (!o) return null;
  const clientId = o.clientId ?? (o.audience === 'authenticated' ? null : o.audience);
  if (!clientId) return null;
  return {
    issuer: o.issuer,
    client_id: clientId,
    scopes: o.scopes,
    credential: clientId === o.audience ? 'id_token' : 'access_token',
  };
}

export function authProviderRoutes(root: FastifyInstance, ctx: AppContext): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const answer: AuthProvidersResponse = { oidc: webSignIn(ctx.config) };
  app.get(
    '/v1/auth/providers',
    {
      schema: {
        tags: ['access'],
        summary: 'How people sign in from the web app (an OIDC issuer and client id, or none)',
        response: { 200: AuthProvidersResponseSchema },
      },
    },
    async () => answer,
  );
}
