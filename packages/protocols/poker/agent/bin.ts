// One reference agent as its own process: `node --import tsx bin.ts --url … --table … --strategy tight`.
// Prints its result as one JSON line on stdout when the table ends.
import { parseArgs } from 'node:util';
import { runPokerAgent } from './client.ts';
import { strategyNamed } from './strategies.ts';

const { values } = parseArgs({
  options: {
    url: { type: 'string' },
    table: { type: 'string' },
    strategy: { type: 'string', default: 'random' },
    name: { type: 'string' },
    seed: { type: 'string', default: '1' },
    'api-key': { type: 'string' },
  },
});
if (!values.url || !values.table) {
  process.stderr.write('usage: bin.ts --url <server> --table <table_id> [--strategy random|tight|station]\n');
  process.exit(2);
}
try {
  const result = await runPokerAgent({
    baseUrl: values.url,
    tableId: values.table,
    strategy: strategyNamed(values.strategy),
    seed: Number(values.seed),
    ...(values.name ? { name: values.name } : {}),
    ...(values['api-key'] ? { apiKey: values['api-key'] } : {}),
  });
  process.stdout.write(`${JSON.stringify(result)}\n`);
} catch (err) {
  process.stderr.write(`agent: ${(err as Error).message}\n`);
  process.exit(1);
}
