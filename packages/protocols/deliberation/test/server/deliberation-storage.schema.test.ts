import { pgliteMemoryStore } from '@db8/server/test/store.helpers.ts';
import { withDeliberationTables } from './deliberation-storage.helpers.ts';
import { seedSchemaContract } from './deliberation-storage.schema-contract.ts';

seedSchemaContract('pglite', withDeliberationTables(pgliteMemoryStore));
