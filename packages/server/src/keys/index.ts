export { resolveServerKey, serverKeyFromSetting } from './configured.ts';
export { logOriginFor } from './origin.ts';
export {
  DEFAULT_NOTE_NAME,
  generateServerKey,
  loadOrCreateServerKey,
  SERVER_KEY_FILE,
  SERVER_PUBKEY_FILE,
  type ServerKey,
  serverKeyFromSeed,
} from './server-key.ts';
