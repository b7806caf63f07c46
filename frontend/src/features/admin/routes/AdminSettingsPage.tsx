import { Link } from 'react-router'
import { PageHeader } from '@/components/PageHeader'
import { QueryResult } from '@/components/QueryResult'
import { useSettings } from '../api/settings'
import { SettingsForm } from '../components/SettingsForm'
import { A } from '../strings'

/** /admin/settings: what a control room changes without a deploy (docs/decisions/0018). */
export default function AdminSettingsPage() {
  const settings = useSettings()
  return (
    <div className="space-y-6">
      <PageHeader
        title={A().systemSettings.title}
        subtitle={A().systemSettings.subtitle}
        action={
          <Link to="/admin/audit" className="text-sm font-semibold text-blue-700 hover:underline">
            {A().systemSettings.auditLink}
          </Link>
        }
      />
      <QueryResult query={settings} loadingLabel={A().systemSettings.loading} errorMessage={A().systemSettings.loadFailed}>
        {/* Filled once: a refetch never overwrites what is being typed. */}
        {settings.data && <SettingsForm settings={settings.data} />}
      </QueryResult>
    </div>
  )
}
