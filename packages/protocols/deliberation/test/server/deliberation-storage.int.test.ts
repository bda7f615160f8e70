import { postgresSchemaStore } from '@db8/server/test/store.helpers.ts';
import { projectionContract } from './deliberation-storage.contract.ts';
import { withDeliberationTables } from './deliberation-storage.helpers.ts';
import { seedSchemaContract } from './deliberation-storage.schema-contract.ts';

seedSchemaContract('postgres', withDeliberationTables(postgresSchemaStore));
projectionContract('postgres', withDeliberationTables(postgresSchemaStore));
