import { seedSchemaContract } from './deliberation-storage.schema-contract.ts';
import { pgliteMemoryStore } from './store.helpers.ts';

seedSchemaContract('pglite', pgliteMemoryStore);
