import { afterEach } from 'vitest'

// jsdom has no navigator.geolocation (nor vibrate, share or clipboard). Tests put a stand-in on the real
// navigator (replacing navigator itself would hide its userAgent, which Leaflet reads).
const added: string[] = []

export function stubNavigator(props: {
  geolocation?: Partial<Geolocation>
  vibrate?: Navigator['vibrate']
  share?: Navigator['share']
  clipboard?: Partial<Clipboard>
}) {
  for (const [name, value] of Object.entries(props)) {
    Object.defineProperty(navigator, name, { value, configurable: true, writable: true })
    added.push(name)
  }
}

afterEach(() => {
  for (const name of added.splice(0)) delete (navigator as unknown as Record<string, unknown>)[name]
})

/** A position as the browser gives it. */
export const fix = (latitude: number, longitude: number, timestamp = Date.now()) =>
  ({ coords: { latitude, longitude, accuracy: 8 }, timestamp }) as GeolocationPosition
