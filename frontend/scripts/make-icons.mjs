// Draws the web app's icons (public/*.png): a white cross on the brand red, as plain
// PNGs written with zlib, no drawing library and no network. Run after changing the
// look: `node scripts/make-icons.mjs`; the PNGs are committed.
import { deflateSync } from 'node:zlib'
import { writeFileSync } from 'node:fs'

const RED = [0xb9, 0x1c, 0x1c]
const WHITE = [0xff, 0xff, 0xff]

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})
const crc32 = (buf) => {
  let c = 0xffffffff
  for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}
const chunk = (type, data) => {
  const out = Buffer.alloc(12 + data.length)
  out.writeUInt32BE(data.length, 0)
  out.write(type, 4, 'ascii')
  data.copy(out, 8)
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length)
  return out
}

/**
 * size×size RGBA. `maskable`: full bleed (the launcher cuts its own shape; the cross
 * stays inside the 80 % safe zone); otherwise a rounded square on transparent.
 */
function icon(size, { maskable = false } = {}) {
  const radius = maskable ? 0 : size * 0.22
  const arm = size * (maskable ? 0.13 : 0.16) // half the cross's thickness
  const reach = size * (maskable ? 0.27 : 0.32) // half the cross's length
  const c = size / 2
  const raw = Buffer.alloc(size * (size * 4 + 1))
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0 // filter: none
    for (let x = 0; x < size; x++) {
      const px = x + 0.5
      const py = y + 0.5
      // Outside the rounded corners: transparent.
      const dx = Math.max(radius - px, px - (size - radius), 0)
      const dy = Math.max(radius - py, py - (size - radius), 0)
      const inside = radius === 0 || dx * dx + dy * dy <= radius * radius
      const cross = (Math.abs(px - c) <= arm && Math.abs(py - c) <= reach) || (Math.abs(py - c) <= arm && Math.abs(px - c) <= reach)
      const [r, g, b] = cross ? WHITE : RED
      const at = y * (size * 4 + 1) + 1 + x * 4
      raw[at] = r
      raw[at + 1] = g
      raw[at + 2] = b
      raw[at + 3] = inside ? 255 : 0
    }
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(size, 0)
  header.writeUInt32BE(size, 4)
  header[8] = 8 // bit depth
  header[9] = 6 // RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

const out = new URL('../public/', import.meta.url)
const files = {
  'icon-192.png': icon(192),
  'icon-512.png': icon(512),
  'icon-maskable-512.png': icon(512, { maskable: true }),
  'apple-touch-icon.png': icon(180, { maskable: true }),
  'favicon-32.png': icon(32),
}
for (const [name, png] of Object.entries(files)) {
  writeFileSync(new URL(name, out), png)
  console.log(`public/${name}: ${png.length} bytes`)
}
