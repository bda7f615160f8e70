import { storeContract } from './store.contract.ts';
import { postgresSchemaStore } from './store.helpers.ts';

storeContract('postgres', postgresSchemaStore);
