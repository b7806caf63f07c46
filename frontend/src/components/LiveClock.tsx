import { useEffect, useState } from 'react'

export function useNow(intervalMs = 1000): Date {
  const [now, setNow] = useState(() => new Date())
  useEffect(() => {
    const t = setInterval(() => setNow(new Date()), intervalMs)
    return () => clearInterval(t)
  }, [intervalMs])
  return now
}

/** A clock that ticks every second (docs/requirements.md, "Hospitals and the home page"). */
export function LiveClock({ className = '' }: { className?: string }) {
  const now = useNow()
  return (
    <time dateTime={now.toISOString()} className={`font-mono tabular-nums ${className}`}>
      {now.toLocaleTimeString()}
    </time>
  )
}
