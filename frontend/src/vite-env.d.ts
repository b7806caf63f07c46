/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Map tiles, e.g. https://tile.openstreetmap.org/{z}/{x}/{y}.png (the default). */
  readonly VITE_TILE_URL?: string
  /** Attribution shown on the map for those tiles. */
  readonly VITE_TILE_ATTRIBUTION?: string
}

interface ImportMeta {
  readonly env: ImportMetaEnv
}
