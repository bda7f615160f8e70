import { projectionContract } from './deliberation-storage.contract.ts';
import { pgliteMemoryStore } from './store.helpers.ts';

projectionContract('pglite', pgliteMemoryStore);
