import type { FastifyInstance } from 'fastify';
import { strictValidator } from '../../http/strict-validator.js';
import { INPUT_SCHEMAS } from './input-schemas.js';

/** The API's request validator (src/http/strict-validator.ts), knowing its request bodies' schemas. */
export function apiValidator(scope: FastifyInstance): void {
  strictValidator(scope, INPUT_SCHEMAS);
}
