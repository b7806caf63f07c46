import { lazy, Suspense, useEffect } from 'react'
import { Link, useNavigate, useSearchParams } from 'react-router'
import { Alert, EmptyState, ErrorState, Spinner } from '@/components/Feedback'
import { DiversionBadge } from '@/components/DiversionBadge'
import { Icon } from '@/components/Icon'
import { PageHeader } from '@/components/PageHeader'
import { UseLocationButton } from '@/components/UseLocationButton'
import { parseCoordinate } from '@/lib/coordinates'
import { formatCoord, formatDistance, telHref } from '@/lib/format'
import { useSession } from '@/lib/session'
import { S } from '@/strings'
import { useNearestHospitals } from '../api/hospitals'

// Leaflet is loaded only when there are results to show (keep the first load small: docs/requirements.md, "CI and performance budgets").
const HospitalMap = lazy(() => import('../components/HospitalMap'))
const MapPlaceholder = () => (
  <div className="flex h-72 items-center justify-center rounded-xl border border-slate-200 bg-slate-100 text-sm text-slate-500 md:h-96">
    {S.mapLoading}
  </div>
)

export default function NearestHospitalsPage() {
  const [params] = useSearchParams()
  const navigate = useNavigate()
  const user = useSession()?.user
  const lat = parseCoordinate(params.get('lat') ?? '')
  const lng = parseCoordinate(params.get('lng') ?? '')
  const hasQuery = lat !== null && lng !== null
  const stored = user?.latitude != null && user?.longitude != null
  const search = useNearestHospitals(hasQuery ? lat : null, hasQuery ? lng : null)

  // No coordinates in the address but a stored location: search there (docs/requirements.md, "Hospitals and the home page").
  useEffect(() => {
    if (!hasQuery && stored) {
      navigate(`/hospitals/nearest?lat=${user!.latitude}&lng=${user!.longitude}`, { replace: true })
    }
  }, [hasQuery, stored, user, navigate])

  const locate = (
    <UseLocationButton onLocated={(c) => navigate(`/hospitals/nearest?lat=${c.latitude.toFixed(6)}&lng=${c.longitude.toFixed(6)}`)} />
  )

  if (!hasQuery) {
    if (stored) return <Spinner />
    return (
      <div className="mx-auto max-w-xl space-y-4">
        <Alert tone="warning">{S.locationUnavailable}</Alert>
        <div className="flex flex-wrap gap-3">
          <Link to="/profile" className="btn-primary">{S.hospitalsPage.updateProfile}</Link>
          {locate}
        </div>
      </div>
    )
  }

  return (
    <div className="space-y-6">
      <PageHeader
        title={S.layout.nearestHospitals}
        subtitle={S.hospitalsPage.near(formatCoord(lat), formatCoord(lng))}
        action={locate}
        alignEnd
      />
      {search.isPending ? (
        <Spinner label={S.hospitalsPage.finding} />
      ) : search.isError ? (
        <ErrorState message={S.nearbyFailed} error={search.error} onRetry={() => search.refetch()} />
      ) : search.data.length === 0 ? (
        <EmptyState title={S.noHospitals}>
          <p className="text-sm text-slate-600">{S.tryElsewhereOrCall}</p>
        </EmptyState>
      ) : (
        <>
          <Suspense fallback={<MapPlaceholder />}>
            <HospitalMap lat={lat} lng={lng} hospitals={search.data} />
          </Suspense>
          <ol className="space-y-4">
            {search.data.map((h, i) => (
              <li key={h.id} className="card flex flex-col gap-4 p-5 sm:flex-row sm:items-center sm:justify-between">
                <div className="min-w-0">
                  <div className="flex flex-wrap items-center gap-2">
                    <h2 className="text-lg font-semibold">{h.name}</h2>
                    {i === 0 && <span className="rounded-full bg-green-100 px-2.5 py-0.5 text-xs font-semibold text-green-800">{S.hospitalsPage.closest}</span>}
                    <DiversionBadge until={h.onDiversionUntil} />
                  </div>
                  <p className="text-sm text-slate-600">{h.address}</p>
                  <p className="mt-2 flex flex-wrap gap-x-5 gap-y-1 text-sm">
                    <span className="inline-flex items-center gap-1 font-medium text-slate-800">
                      <Icon name="pin" className="h-4 w-4" /> {formatDistance(h.distance)}
                    </span>
                    {h.contactInfo && (
                      <a href={telHref(h.contactInfo)} className="inline-flex items-center gap-1 text-blue-700 hover:underline">
                        <Icon name="phone" className="h-4 w-4" /> {h.contactInfo}
                      </a>
                    )}
                  </p>
                </div>
                <Link to={`/hospitals/${h.id}/ambulances`} className="btn-blue shrink-0">
                  {S.hospitalsPage.viewAmbulances}
                </Link>
              </li>
            ))}
          </ol>
        </>
      )}
    </div>
  )
}
