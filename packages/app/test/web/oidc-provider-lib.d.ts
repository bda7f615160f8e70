// oidc-provider 8 ships no types: the little of its API the test stand-in (oidc-provider.ts) uses.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface ClientMetadata {
    client_id: string;
    token_endpoint_auth_method?: string;
    redirect_uris: string[];
    response_types?: string[];
    grant_types?: string[];
  }
  interface Account {
    accountId: string;
    claims(): Promise<Record<string, unknown>>;
  }
  interface Configuration {
    clients?: ClientMetadata[];
    pkce?: { required?: () => boolean; methods?: string[] };
    claims?: Record<string, string[]>;
    conformIdTokenClaims?: boolean;
    findAccount?: (ctx: unknown, id: string) => Promise<Account | undefined>;
    clientBasedCORS?: (ctx: unknown, origin: string, client: { redirectUris?: string[] }) => boolean;
    features?: Record<string, { enabled: boolean }>;
  }
  export default class Provider {
    constructor(issuer: string, configuration?: Configuration);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
  }
}
