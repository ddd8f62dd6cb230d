import t from 'tap';
import { manyInstancesScenarios } from '../helpers/many-instances-scenarios.js';

/**
 * Lanyard as several instances on one store (SQLite file, then Redis): the acceptance list of the
 * many-instances issue, in test/helpers/many-instances-scenarios.ts.
 */
t.test('sqlite', (t) => manyInstancesScenarios(t, 'sqlite'));
t.test('redis', (t) => manyInstancesScenarios(t, 'redis'));
