/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Map tiles, e.g. https://tile.openstreetmap.org/{z}/{x}/{y}.png (the default). */
  readonly VITE_TILE_URL?: string
  /** Attribution shown on the map for those tiles. */
  readonly VITE_TILE_ATTRIBUTION?: string
  /** The emergency number every call button dials: 2 to 6 digits, 911 when unset (112, 108...). */
  readonly VITE_EMERGENCY_NUMBER?: string
}

interface ImportMeta {
  readonly env: ImportMetaEnv
}

/** package.json's version and docs/openapi.yaml's fingerprint (vite.config.ts): trips kept by another are dropped. */
declare const __APP_VERSION__: string
