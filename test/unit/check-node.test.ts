import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { nodeVersionProblem, REQUIRED_NODE } from '../../src/check-node.mjs';
import { projectRoot } from '../../src/package-files.js';

t.test('Node 22.12 and newer pass; older versions get one line naming the version and where to get one', async (t) => {
  for (const ok of ['22.12.0', '22.12.1', '22.13.0', '23.0.0', '24.21.0', 'v24.0.0', '30.1.2']) t.equal(nodeVersionProblem(ok), undefined, ok);
  for (const old of ['22.11.0', '22.0.0', '20.20.2', '18.19.1', 'v16.0.0', '0.10.48']) {
    const problem = nodeVersionProblem(old);
    t.ok(problem, `${old} refused`);
    t.notMatch(problem, /\n/, 'one line');
    t.match(problem, `Node.js ${REQUIRED_NODE} or newer is required`);
    t.match(problem, `this is Node.js ${old.replace(/^v/, '')}`);
    t.match(problem, 'README.md, section "Node.js"');
  }
});

t.test('the required version is the one package.json declares', async (t) => {
  const engines = (JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { engines: { node: string } }).engines;
  t.equal(engines.node, `>=${REQUIRED_NODE}`);
  const readme = readFileSync(join(projectRoot, 'README.md'), 'utf8');
  t.match(readme, /^### Node\.js$/m, 'the README section the message points at exists');
});
