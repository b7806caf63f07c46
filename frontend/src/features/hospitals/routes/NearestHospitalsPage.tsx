import { PagePlaceholder } from '../../../components/PagePlaceholder'

export default function Page() {
  return <PagePlaceholder title="Nearest Hospitals" />
}
