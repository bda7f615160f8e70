import { storeContract } from './store.contract.ts';
import { credentialsContract } from './store.credentials.contract.ts';
import { pgliteDiskStore, pgliteMemoryStore } from './store.helpers.ts';

storeContract('pglite', pgliteMemoryStore);
credentialsContract('pglite', pgliteMemoryStore);
// The embedded default: on disk, every statement and transaction through the store's own thread.
storeContract('pglite on disk, in its thread', pgliteDiskStore);
