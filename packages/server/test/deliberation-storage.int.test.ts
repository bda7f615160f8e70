import { seedSchemaContract } from './deliberation-storage.schema-contract.ts';
import { postgresSchemaStore } from './store.helpers.ts';

seedSchemaContract('postgres', postgresSchemaStore);
