import { pgliteMemoryStore } from '@db8/server/test/store.helpers.ts';
import { projectionContract } from './deliberation-storage.contract.ts';
import { withDeliberationTables } from './deliberation-storage.helpers.ts';

projectionContract('pglite', withDeliberationTables(pgliteMemoryStore));
