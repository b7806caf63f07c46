// What CloudFront does in front of the deployed app, done by the local servers too
// (docs/requirements.md, "The web app"), so `make dev` and the e2e suite see what production does:
// - the security headers of template.yaml's SecurityHeadersPolicy on every answer
//   (e2e/edge.spec.ts compares them with the template);
// - /api refuses a request whose Origin is another site's: deployed, the app and the
//   API share one origin behind CloudFront and the API sends no CORS headers (and
//   `cargo lambda watch` runs with --disable-cors).
import type { Connect, Plugin } from 'vite'

/** The map tiles' host, as the template's TileHost parameter names it. */
export function tileHost(tileUrl = process.env.VITE_TILE_URL): string {
  return tileUrl ? new URL(tileUrl).host : 'tile.openstreetmap.org'
}

/** CloudFront's Content-Security-Policy (template.yaml), for the tiles at `host`. */
export function contentSecurityPolicy(host: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src 'self' data: https://${host}`,
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ')
}

// Vite's dev server alone needs more: its hot reload injects an inline script (React
// Refresh's preamble) and <style> elements, and talks over a WebSocket. The production
// build behind `vite preview` (the e2e suite) gets exactly CloudFront's policy.
const DEV_ADDITIONS: Record<string, string> = {
  'script-src': "'unsafe-inline'",
  'style-src': "'unsafe-inline'",
  'connect-src': 'ws:',
}

function devPolicy(policy: string): string {
  return policy
    .split('; ')
    .map((directive) => {
      const extra = DEV_ADDITIONS[directive.split(' ')[0]]
      return extra ? `${directive} ${extra}` : directive
    })
    .join('; ')
}

/** CloudFront's Permissions-Policy (template.yaml): the position for this origin, nothing else asked for. */
export const PERMISSIONS_POLICY =
  'geolocation=(self), camera=(), microphone=(), payment=(), usb=(), serial=(), hid=(), midi=(), display-capture=()'

export function securityHeaders(mode: 'dev' | 'preview', host = tileHost()): Record<string, string> {
  const csp = contentSecurityPolicy(host)
  return {
    'Strict-Transport-Security': 'max-age=63072000; includeSubDomains',
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'Content-Security-Policy': mode === 'dev' ? devPolicy(csp) : csp,
    'Permissions-Policy': PERMISSIONS_POLICY,
    'Cross-Origin-Opener-Policy': 'same-origin',
  }
}

function edge(mode: 'dev' | 'preview'): Connect.NextHandleFunction {
  const headers = securityHeaders(mode)
  return (req, res, next) => {
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value)
    const origin = req.headers.origin
    if (req.url?.startsWith('/api/') && origin !== undefined && origin !== `http://${req.headers.host}`) {
      res.statusCode = 403
      res.setHeader('Content-Type', 'application/json')
      res.setHeader('Cache-Control', 'no-store')
      res.end(JSON.stringify({ message: 'Requests from another site are not accepted', field: 'Origin' }))
      return
    }
    next()
  }
}

/** Runs before Vite's own middlewares (and so before its /api proxy). */
export function edgeLikeCloudFront(): Plugin {
  return {
    name: 'edge-like-cloudfront',
    configureServer(server) {
      server.middlewares.use(edge('dev'))
    },
    configurePreviewServer(server) {
      server.middlewares.use(edge('preview'))
    },
  }
}
