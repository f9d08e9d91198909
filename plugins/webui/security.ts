// Headers every answer carries, and the session cookie's form.
import type { FastifyReply } from 'fastify';
import { LOGIN_POLICY } from './logins';

/** The page loads only its own files and talks only to its own origin; nothing inline, nothing framed. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

/** Cache rule for HTML and API answers (the default) and for hashed asset files. */
export const CachePolicy = { NoStore: 'no-store', Immutable: 'public, max-age=31536000, immutable' } as const;

/** The session cookie's name. */
export const SESSION_COOKIE = 'homeagent_session';

/** Sets the CSP, nosniff, no-referrer and (unless the route chose one) no-store on an answer. */
export function addSecurityHeaders(reply: FastifyReply): void {
  reply.header('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  reply.header('X-Content-Type-Options', 'nosniff');
  reply.header('Referrer-Policy', 'no-referrer');
  reply.header('X-Frame-Options', 'DENY');
  if (!reply.hasHeader('Cache-Control')) reply.header('Cache-Control', CachePolicy.NoStore);
}

/** `Set-Cookie` for a session token: HttpOnly, SameSite=Strict, whole site, the session's life (30 days), Secure under TLS. */
export function sessionCookie(token: string, secure: boolean, lifeMs: number = LOGIN_POLICY.sessionMs): string {
  return cookie(token, Math.floor(lifeMs / 1000), secure);
}

/** `Set-Cookie` that removes the session cookie. */
export function clearedCookie(secure: boolean): string {
  return cookie('', 0, secure);
}

function cookie(value: string, maxAgeSeconds: number, secure: boolean): string {
  return `${SESSION_COOKIE}=${value}; Max-Age=${maxAgeSeconds}; Path=/; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

/** The session token from a `Cookie` header, if it carries one. */
export function readSessionCookie(header: string | undefined): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === SESSION_COOKIE) return rest.join('=') || undefined;
  }
  return undefined;
}
