/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Map tiles, e.g. https://tile.openstreetmap.org/{z}/{x}/{y}.png (the default). */
  readonly VITE_TILE_URL?: string
  /** Attribution shown on the map for those tiles. */
  readonly VITE_TILE_ATTRIBUTION?: string
  /** The emergency number every call button dials: 2 to 6 digits, 911 when unset (112, 108...). */
  readonly VITE_EMERGENCY_NUMBER?: string
  /** The crew's phone off a trip: a moved position sent at most this often, 5 to 100 s (60 when unset). */
  readonly VITE_CREW_IDLE_REPORT_SECS?: string
  /** A parked crew phone's report, 5 to 100 s (100 when unset). */
  readonly VITE_CREW_HEARTBEAT_SECS?: string
}

interface ImportMeta {
  readonly env: ImportMetaEnv
}

/** package.json's version and docs/openapi.yaml's fingerprint (vite.config.ts): trips kept by another are dropped. */
declare const __APP_VERSION__: string
