export { AdminLinks } from './admin-link.ts';
export { API_KEY_PREFIX, apiKeyPepper, generateApiKey, hashApiKey, looksLikeApiKey } from './api-keys.ts';
export { Authenticator, viewerFor } from './authenticator.ts';
export { MemoryAuthStore } from './memory-store.ts';
export { type OidcIdentity, OidcVerifier } from './oidc.ts';
export {
  normalizeArmored,
  principalBindsRoom,
  SSH_AUDIENCE,
  SSH_NAMESPACE,
  type SshIdentity,
  SshLogin,
  splitPrincipal,
} from './ssh-login.ts';
export { storeAuth } from './store-adapter.ts';
export { ed25519KeyObjects, type IssuedToken, TokenService } from './tokens.ts';
export type { AuthContext, AuthStore, NewAgent, SessionClaims } from './types.ts';
