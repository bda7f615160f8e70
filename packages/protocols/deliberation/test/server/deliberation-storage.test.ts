import { pgliteMemoryStore } from '@db8/server/test/store.helpers.ts';
import { projectionContract } from './deliberation-storage.contract.ts';

projectionContract('pglite', pgliteMemoryStore);
