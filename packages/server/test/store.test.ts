import { storeContract } from './store.contract.ts';
import { pgliteMemoryStore } from './store.helpers.ts';

storeContract('pglite', pgliteMemoryStore);
