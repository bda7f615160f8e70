import { storeContract } from './store.contract.ts';
import { credentialsContract } from './store.credentials.contract.ts';
import { postgresSchemaStore } from './store.helpers.ts';

storeContract('postgres', postgresSchemaStore);
credentialsContract('postgres', postgresSchemaStore);
