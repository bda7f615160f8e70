import { projectionContract } from './deliberation-storage.contract.ts';
import { seedSchemaContract } from './deliberation-storage.schema-contract.ts';
import { postgresSchemaStore } from './store.helpers.ts';

seedSchemaContract('postgres', postgresSchemaStore);
projectionContract('postgres', postgresSchemaStore);
