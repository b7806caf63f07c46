import { Link } from 'react-router'
import { Section } from '@/components/Section'
import { S } from '@/strings'

const card = { className: 'card p-6', headingClassName: 'mb-2 text-xl font-bold' }

const services = [
  { title: 'Emergency ambulance booking', text: 'Book an emergency or a normal ambulance for a patient in under a minute.' },
  { title: 'Nearest hospital finder', text: 'See the hospitals closest to you with distance and contact details.' },
  { title: 'Live availability', text: 'Only ambulances that are free right now can be booked: no double bookings.' },
  { title: 'Booking history', text: 'Follow every booking from request to completion.' },
]

const team = [
  { name: 'Dr. Aanya Kapoor', role: 'Medical Director' },
  { name: 'Rohan Mehta', role: 'Head of Operations' },
  { name: 'Simran Gill', role: 'Lead Engineer' },
]

/** "Dr. Aanya Kapoor" → "AK": first and last name, titles skipped. */
const initials = (name: string) =>
  name
    .split(' ')
    .filter((w) => !w.endsWith('.'))
    .filter((_, i, words) => i === 0 || i === words.length - 1)
    .map((w) => w[0])
    .join('')

export default function AboutPage() {
  return (
    <div className="space-y-10">
      <section className="text-center">
        <h1 className="mb-3 text-3xl font-extrabold">About AmbuCare</h1>
        <p className="mx-auto max-w-2xl text-slate-600">
          Our mission is simple: get every patient the right ambulance and the nearest hospital as fast as possible,
          because in an emergency every minute counts.
        </p>
      </section>

      <Section id="mission" title="Our mission" {...card}>
        <p className="text-slate-700">
          We connect patients and their families with nearby hospitals and available ambulances in real time, so that
          help is booked in seconds, not minutes.
        </p>
      </Section>

      <Section id="services" title="Our services">
        <div className="grid gap-4 sm:grid-cols-2">
          {services.map((s) => (
            <div key={s.title} className="card p-5">
              <h3 className="font-semibold">{s.title}</h3>
              <p className="mt-1 text-sm text-slate-600">{s.text}</p>
            </div>
          ))}
        </div>
      </Section>

      <Section id="impact" title="Our impact">
        <div className="grid grid-cols-3 gap-3 sm:gap-4">
          {[
            ['1000+', 'lives saved'],
            ['50+', 'partner hospitals'],
            ['100+', 'ambulances'],
          ].map(([figure, label]) => (
            <div key={label} className="card px-2 py-5 text-center sm:p-6">
              <p className="text-2xl font-extrabold text-brand-700 sm:text-3xl">{figure}</p>
              <p className="text-sm text-slate-600 sm:text-base">{label}</p>
            </div>
          ))}
        </div>
      </Section>

      <Section id="team" title="Our team">
        <div className="grid gap-4 sm:grid-cols-3">
          {team.map((m) => (
            <div key={m.name} className="card p-6 text-center">
              <span aria-hidden="true" className="mx-auto mb-3 flex h-14 w-14 items-center justify-center rounded-full bg-slate-200 text-lg font-bold">
                {initials(m.name)}
              </span>
              <p className="font-semibold">{m.name}</p>
              <p className="text-sm text-slate-600">{m.role}</p>
            </div>
          ))}
        </div>
      </Section>

      <Section id="contact" title="Contact us" {...card}>
        <ul className="space-y-1 text-slate-700">
          <li>Emergency: <a className="font-semibold text-brand-700" href={S.emergencyTel}>{S.emergencyNumber}</a>{S.otherRegions}</li>
          <li>Email: <a className="text-blue-700 underline" href="mailto:help@ambucare.example">help@ambucare.example</a></li>
          <li>Address: 12 Civil Lines, Bathinda, Punjab</li>
        </ul>
      </Section>

      <div role="note" className="rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-900">
        <p className="font-semibold">Project Under Development</p>
        <p className="text-sm">This is a demonstration project. {S.alwaysCall}</p>
      </div>

      <div className="text-center">
        <Link to="/" className="btn-primary">Back to Home</Link>
      </div>
    </div>
  )
}

