import { storeContract } from './store.contract.ts';
import { credentialsContract } from './store.credentials.contract.ts';
import { pgliteMemoryStore } from './store.helpers.ts';

storeContract('pglite', pgliteMemoryStore);
credentialsContract('pglite', pgliteMemoryStore);
