import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { call } from '@/lib/api'
import { setEmergencyNumber } from '@/lib/liveEmergencyNumber'
import type { Settings, SettingsChange } from '@/lib/types'
import { adminKeys } from './keys'

/** The settings as stored now (docs/decisions/0018). */
export function useSettings() {
  return useQuery({ queryKey: adminKeys.settings(), queryFn: () => call('GET /admin/settings') })
}

/** Some settings changed; the answer is every setting after it. */
export function useChangeSettings() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (change: SettingsChange) => call('PUT /admin/settings', { body: change }),
    onSuccess: (settings: Settings) => {
      client.setQueryData(adminKeys.settings(), settings)
      // This device's call buttons follow at once; every other device when it next opens the app.
      setEmergencyNumber(settings.emergencyNumber)
      // The change is on the audit trail.
      void client.invalidateQueries({ queryKey: adminKeys.auditAll() })
    },
  })
}
