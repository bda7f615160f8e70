// The CLI kit's running half: what a protocol's command actions use once they run (a server
// client, rooms and bundles, the local key). Imported from *-impl files, not from `register`.

export { sshPublicLine } from './commands/agent-impl.ts';
export { exportRoom, fetchBundle, resolveRoom } from './commands/room-impl.ts';
export { type DirLock, DirLockedError, lockDir } from './dir-lock.ts';
export { defaultLocalAdminFile, readLocalAdmin } from './local-admin.ts';
export { LOCAL_KEY_FILE, loadOrCreateLocalKey } from './local-key.ts';
export { absPath, explain, normalizeUrl, Remote } from './remote.ts';
export { db8Home } from './session.ts';
