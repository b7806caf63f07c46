import { Link } from 'react-router'
import { PageHeader } from '@/components/PageHeader'
import { QueryResult } from '@/components/QueryResult'
import { S } from '@/strings'
import { useSettings } from '../api/settings'
import { SettingsForm } from '../components/SettingsForm'

/** /admin/settings: what a control room changes without a deploy (docs/decisions/0018). */
export default function AdminSettingsPage() {
  const settings = useSettings()
  return (
    <div className="space-y-6">
      <PageHeader
        title={S.systemSettings.title}
        subtitle={S.systemSettings.subtitle}
        action={
          <Link to="/admin/audit" className="text-sm font-semibold text-blue-700 hover:underline">
            {S.systemSettings.auditLink}
          </Link>
        }
      />
      <QueryResult query={settings} loadingLabel={S.systemSettings.loading} errorMessage={S.systemSettings.loadFailed}>
        {/* Filled once: a refetch never overwrites what is being typed. */}
        {settings.data && <SettingsForm settings={settings.data} />}
      </QueryResult>
    </div>
  )
}
