import { PagePlaceholder } from '../../../components/PagePlaceholder'

// Placeholder until the booking feature lands (issue 5).
export default function Page() {
  return (
    <PagePlaceholder
      title="Booking History"
      purpose="Your bookings and their live status will be listed here once the booking feature lands."
    />
  )
}
