import type { FastifyReply, FastifyRequest } from 'fastify';
import { classroomCredential, DEVICE_COOKIE_MAX_AGE_SECONDS } from './device-cookies.js';
import { secureCookieFor, setCookie } from '../http/cookie-header.js';
import { readCookie } from '../http/signed-value.js';

/**
 * The school this device signed in to last, with "not your school?" (docs/dashboard-and-app-launch.md): an organisation id (not secret) in `lanyard_school`, kept for 400 days, set when a
 * sign-in completes and when a school is picked on the home page. Without it, a trusted classroom device's
 * school. The sign-in screens start from it when an app names no school, and always offer another.
 */
export const SCHOOL_COOKIE = 'lanyard_school';
const ORGANISATION_ID = /^o[0-9]{15}$/;

/** The school to start from on this device: the last one signed in to or picked, else the classroom device's. */
export function rememberedSchool(cookieKeys: readonly string[], req: FastifyRequest): string | undefined {
  const id = readCookie(req.headers.cookie, SCHOOL_COOKIE);
  if (id && ORGANISATION_ID.test(id)) return id;
  return classroomCredential(cookieKeys, req)?.organisationId;
}

export function rememberSchool(req: FastifyRequest, reply: FastifyReply, organisationId: string): void {
  if (!ORGANISATION_ID.test(organisationId) || readCookie(req.headers.cookie, SCHOOL_COOKIE) === organisationId) return;
  setCookie(reply, { name: SCHOOL_COOKIE, value: organisationId, path: '/', maxAge: DEVICE_COOKIE_MAX_AGE_SECONDS, secure: secureCookieFor(req) });
}

/** "Not your school?": the device forgets it (a classroom device's school stays: staff change that). */
export function forgetSchool(req: FastifyRequest, reply: FastifyReply): void {
  if (readCookie(req.headers.cookie, SCHOOL_COOKIE) === undefined) return;
  setCookie(reply, { name: SCHOOL_COOKIE, value: '', path: '/', maxAge: 0, secure: secureCookieFor(req) });
}
