/// <reference types="vitest/config" />
import { fileURLToPath } from 'node:url'
import { defineConfig, loadEnv } from 'vite'
import react from '@vitejs/plugin-react'
import tailwindcss from '@tailwindcss/vite'
import { emergencyNumberOf } from './src/lib/emergencyNumber.ts'

// /api goes to the functions (cargo lambda watch locally), so the app and the API
// share one origin, as they do behind CloudFront.
const apiTarget = process.env.API_PROXY_TARGET ?? 'http://127.0.0.1:9000'
const proxy = { '/api': { target: apiTarget, changeOrigin: false } }

export default defineConfig(({ mode }) => {
  // A malformed emergency number stops the build here, not a call in the field.
  emergencyNumberOf(loadEnv(mode, process.cwd(), 'VITE_').VITE_EMERGENCY_NUMBER)
  return {
    plugins: [react(), tailwindcss()],
    // `@/x` is `src/x`, as tsconfig.app.json's paths say.
    resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
    // 127.0.0.1 explicitly: 'localhost' may resolve to ::1 only, and the e2e default is 127.0.0.1.
    server: { host: '127.0.0.1', port: 5173, proxy },
    preview: { host: '127.0.0.1', proxy },
    build: { sourcemap: true },
    test: {
      environment: 'jsdom',
      setupFiles: ['./src/test/setup.ts'],
      include: ['src/**/*.test.{ts,tsx}'],
      css: false,
    },
  }
})
