import { S } from '@/strings'

export interface Coords {
  latitude: number
  longitude: number
  /** Metres, as the browser estimates it (absent when it gives none). */
  accuracy?: number
}

/** Why there is no position: the person said no, the phone could not tell, or the browser cannot. */
export type GeoFailure = 'denied' | 'unavailable' | 'unsupported'

export class GeoError extends Error {
  readonly kind: GeoFailure
  constructor(kind: GeoFailure) {
    super({ denied: S.geoDenied, unavailable: S.geoUnavailable, unsupported: S.geoUnsupported }[kind])
    this.name = 'GeoError'
    this.kind = kind
  }
}

const defaults: PositionOptions = { enableHighAccuracy: true, timeout: 10000, maximumAge: 60000 }

/** The browser's position, or a GeoError whose message a person can act on. */
export function currentPosition(options: PositionOptions = {}): Promise<Coords> {
  return new Promise((resolve, reject) => {
    if (!('geolocation' in navigator) || !navigator.geolocation) {
      reject(new GeoError('unsupported'))
      return
    }
    navigator.geolocation.getCurrentPosition(
      (pos) => resolve({ latitude: pos.coords.latitude, longitude: pos.coords.longitude, accuracy: pos.coords.accuracy }),
      (err) => reject(new GeoError(err.code === err.PERMISSION_DENIED ? 'denied' : 'unavailable')),
      { ...defaults, ...options },
    )
  })
}
