// The tests of `db8 deliberate "Write add(a, b)" --code javascript --tests examples/add.test.mjs`:
// an ES module that imports the version under test as ./solution.mjs (docs/deliberation.md).
import assert from 'node:assert/strict';
import { add } from './solution.mjs';

export default {
  'adds two integers': () => assert.equal(add(2, 3), 5),
  'adds negatives': () => assert.equal(add(-2, -3), -5),
  'adds zero': () => assert.equal(add(0, 7), 7),
};
