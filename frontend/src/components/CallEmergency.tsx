import type { ReactNode } from 'react'
import { useEmergencyNumber } from '@/lib/useEmergencyNumber'
import { S } from '@/strings'
import { Icon } from './Icon'

/**
 * A link that dials the emergency number (one setting: S.emergencyNumber, the server's once
 * it reached this device). A plain tel: link, so it works offline and needs no script once
 * the page is shown. Without children it reads "Call 911".
 */
export function CallEmergency({
  className = 'btn-primary',
  iconClass = 'h-5 w-5',
  children,
}: {
  className?: string
  iconClass?: string
  children?: ReactNode
}) {
  // A new number from the server shows here at once, the page kept as it is.
  useEmergencyNumber()
  return (
    <a href={S.emergencyTel} className={className}>
      <Icon name="phone" className={`${iconClass} shrink-0`} />
      {children ?? S.callNow}
    </a>
  )
}
