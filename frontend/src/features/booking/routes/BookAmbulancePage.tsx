import { PagePlaceholder } from '../../../components/PagePlaceholder'

// Placeholder until the booking feature lands (issue 5): /book-ambulance and /booking.
export default function Page() {
  return (
    <PagePlaceholder
      title="Book an Ambulance"
      purpose="The booking form (hospital, available ambulance, normal or emergency, patient details) arrives with the booking feature. In an emergency, call 911 now."
    />
  )
}
