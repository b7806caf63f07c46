/// <reference types="vitest/config" />
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'
import tailwindcss from '@tailwindcss/vite'
import { edgeLikeCloudFront } from './edge'

// /api goes to the functions (cargo lambda watch locally), so the app and the API
// share one origin, as they do behind CloudFront.
const apiTarget = process.env.API_PROXY_TARGET ?? 'http://127.0.0.1:9000'
const proxy = { '/api': { target: apiTarget, changeOrigin: false } }

export default defineConfig({
  plugins: [react(), tailwindcss(), edgeLikeCloudFront()],
  // `@/x` is `src/x`, as tsconfig.app.json's paths say.
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  // 127.0.0.1 explicitly: 'localhost' may resolve to ::1 only, and the e2e default is 127.0.0.1.
  // cors: false: Vite would answer other localhost origins with CORS headers; deployed,
  // nothing does (edge.ts).
  server: { host: '127.0.0.1', port: 5173, proxy, cors: false },
  preview: { host: '127.0.0.1', proxy, cors: false },
  build: { sourcemap: true },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
  },
})
