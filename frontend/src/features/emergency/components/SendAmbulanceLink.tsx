import { Link } from 'react-router'
import { Icon } from '@/components/Icon'
import { S } from '@/strings'

/**
 * "Send an ambulance": to the one-confirmation emergency screen. Dark with an ambulance,
 * never red with a phone like the call button beside it. `compact` for the top bar,
 * where a phone shows "Send" (its name stays "Send an ambulance").
 */
export function SendAmbulanceLink({ compact = false, className = '' }: { compact?: boolean; className?: string }) {
  if (compact) {
    return (
      <Link to="/emergency" className={`btn bg-slate-900 text-white shadow hover:bg-slate-800 max-sm:px-3 ${className}`}>
        <Icon name="ambulance" className="h-4 w-4" />
        <span>
          {S.emergency.sendShort}
          <span className="sr-only lg:not-sr-only">{S.emergency.sendRest}</span>
        </span>
      </Link>
    )
  }
  return (
    <Link to="/emergency" className={`btn bg-slate-900 px-6 py-4 text-lg text-white shadow-lg hover:bg-slate-800 ${className}`}>
      <Icon name="ambulance" className="h-6 w-6" /> {S.emergency.send}
    </Link>
  )
}
