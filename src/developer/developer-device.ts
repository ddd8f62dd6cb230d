import type { FastifyReply, FastifyRequest } from 'fastify';
import { ensureAreaDevice } from '../web/area/area-device.js';
import { area } from './area.js';
import type { DeveloperDeps } from './deps.js';

/** The developer area's own device cookie, on /developer (src/web/area/area-device.ts). */
export function ensureDeveloperDevice(deps: DeveloperDeps, req: FastifyRequest, reply: FastifyReply): void {
  ensureAreaDevice(deps.devices, area(deps).cookies, req, reply);
}
