import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/**
 * Security headers on every answer, the web app's pages, its assets and the API alike
 * (@fastify/helmet). The policy is what the app needs and no more: the built SPA has no inline
 * script or style (Vite emits files; React sets styles through the DOM), the favicon is a data:
 * URL, the API and the WebSocket are this origin. No framing by anyone (clickjacking), no
 * referrer leaves the app, no MIME sniffing. `upgrade-insecure-requests` is left out: a local
 * server on plain http://127.0.0.1 would be asked to serve its own assets over https.
 * docs/server.md lists them; test/security-headers.test.ts and the browser suites check them.
 * With a web sign-in issuer (routes/auth-providers.ts) the pages may also fetch from its origin
 * (its discovery document) and its token endpoint's (routes/sign-in-origins.ts).
 */
export const CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'self'"],
  baseUri: ["'self'"],
  scriptSrc: ["'self'"],
  scriptSrcAttr: ["'none'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", 'data:'],
  fontSrc: ["'self'"],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  frameAncestors: ["'none'"],
  formAction: ["'self'"],
  upgradeInsecureRequests: null,
};

/** `connectOrigins` is asked on each answer (the sign-in origins are learned after start). */
export async function securityHeaders(
  app: FastifyInstance,
  connectOrigins: () => string[] = () => [],
): Promise<void> {
  const directives = {
    ...CONTENT_SECURITY_POLICY,
    connectSrc: [() => ["'self'", ...connectOrigins()].join(' ')],
  };
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: { useDefaults: false, directives },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    // Browsers ignore HSTS over plain http; behind TLS it holds for a year.
    strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: false },
  });
}

/** The policy of the API docs' pages (/docs): the same, plus inline styles, which Swagger UI injects. */
export function allowInlineStyles(csp: string): string {
  return csp.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'");
}
