import { PagePlaceholder } from '../../../components/PagePlaceholder'

export default function Page() {
  return <PagePlaceholder title="Manage Hospitals" />
}
