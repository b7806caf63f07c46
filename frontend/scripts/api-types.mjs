// `npm run api-types`: src/lib/api-schema.ts from ../docs/openapi.yaml (openapi-typescript,
// decision 0009), written only when its text changes: a file rewritten with the same
// text would look changed to `tsc -b` and make every `make check` type-check the whole
// app again instead of nothing.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const target = join(root, 'src/lib/api-schema.ts')
const cli = join(root, 'node_modules/openapi-typescript/bin/cli.js')
const dir = mkdtempSync(join(tmpdir(), 'api-types-'))
const fresh = join(dir, 'api-schema.ts')
try {
  execFileSync(process.execPath, [cli, join(root, '../docs/openapi.yaml'), '-o', fresh], {
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const text = readFileSync(fresh, 'utf8')
  if (!existsSync(target) || readFileSync(target, 'utf8') !== text) {
    writeFileSync(target, text)
    console.log('api-types: src/lib/api-schema.ts updated from docs/openapi.yaml')
  }
} finally {
  rmSync(dir, { recursive: true, force: true })
}
