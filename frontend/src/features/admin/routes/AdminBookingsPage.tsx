import { PagePlaceholder } from '../../../components/PagePlaceholder'

// Placeholder until the booking feature lands (issue 5).
export default function Page() {
  return (
    <PagePlaceholder
      title="All Bookings"
      purpose="Every booking, with its status and details, will be managed here once the booking feature lands."
    />
  )
}
