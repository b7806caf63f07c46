import { S } from '@/strings'

export interface Coords {
  latitude: number
  longitude: number
}

/** The browser's position, or a message a person can act on. */
export function currentPosition(): Promise<Coords> {
  return new Promise((resolve, reject) => {
    if (!('geolocation' in navigator)) {
      reject(new Error(S.geoUnsupported))
      return
    }
    navigator.geolocation.getCurrentPosition(
      (pos) => resolve({ latitude: pos.coords.latitude, longitude: pos.coords.longitude }),
      (err) => reject(new Error(err.code === err.PERMISSION_DENIED ? S.geoDenied : S.geoUnavailable)),
      { enableHighAccuracy: true, timeout: 10000, maximumAge: 60000 },
    )
  })
}
