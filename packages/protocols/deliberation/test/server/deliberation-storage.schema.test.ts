import { pgliteMemoryStore } from '@db8/server/test/store.helpers.ts';
import { seedSchemaContract } from './deliberation-storage.schema-contract.ts';

seedSchemaContract('pglite', pgliteMemoryStore);
