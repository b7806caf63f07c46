import { useState } from 'react'
import { currentPosition, type Coords } from '@/lib/geolocation'
import { Icon } from './Icon'
import { S } from '@/strings'

/** 'Use my current location': fills coordinates from the browser, or says why not. */
export function UseLocationButton({ onLocated }: { onLocated: (c: Coords) => void }) {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  return (
    <div>
      <button
        type="button"
        className="btn-secondary"
        disabled={busy}
        onClick={async () => {
          setBusy(true)
          setError(null)
          try {
            onLocated(await currentPosition())
          } catch (e) {
            setError((e as Error).message)
          } finally {
            setBusy(false)
          }
        }}
      >
        <Icon name="pin" className="h-4 w-4" /> {busy ? S.location.locating : S.location.use}
      </button>
      {error && (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  )
}
