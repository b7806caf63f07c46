import { Link } from 'react-router'
import { Section } from '@/components/Section'
import { S } from '@/strings'
import { aboutText } from '../i18n'

const EMAIL = 'help@ambucare.example'
const card = { className: 'card p-6', headingClassName: 'mb-2 text-xl font-bold' }

// Read while rendering, so that they are in the chosen language.
const services = () => [
  { title: aboutText().bookingTitle, text: aboutText().bookingText },
  { title: aboutText().finderTitle, text: aboutText().finderText },
  { title: aboutText().availabilityTitle, text: aboutText().availabilityText },
  { title: aboutText().historyTitle, text: aboutText().historyText },
]

const team = () => [
  { name: 'Dr. Aanya Kapoor', role: aboutText().medicalDirector },
  { name: 'Rohan Mehta', role: aboutText().operationsHead },
  { name: 'Simran Gill', role: aboutText().leadEngineer },
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
        <h1 className="mb-3 text-3xl font-extrabold">{aboutText().title}</h1>
        <p className="mx-auto max-w-2xl text-slate-600">
          {aboutText().lead}
        </p>
      </section>

      <Section id="mission" title={aboutText().mission} {...card}>
        <p className="text-slate-700">
          {aboutText().missionText}
        </p>
      </Section>

      <Section id="services" title={aboutText().services}>
        <div className="grid gap-4 sm:grid-cols-2">
          {services().map((s) => (
            <div key={s.title} className="card p-5">
              <h3 className="font-semibold">{s.title}</h3>
              <p className="mt-1 text-sm text-slate-600">{s.text}</p>
            </div>
          ))}
        </div>
      </Section>

      <Section id="impact" title={aboutText().impact}>
        <div className="grid grid-cols-3 gap-3 sm:gap-4">
          {[
            ['1000+', aboutText().livesSaved],
            ['50+', aboutText().partnerHospitals],
            ['100+', aboutText().ambulances],
          ].map(([figure, label]) => (
            <div key={label} className="card px-2 py-5 text-center sm:p-6">
              <p className="text-2xl font-extrabold text-brand-700 sm:text-3xl">{figure}</p>
              <p className="text-sm text-slate-600 sm:text-base">{label}</p>
            </div>
          ))}
        </div>
      </Section>

      <Section id="team" title={aboutText().team}>
        <div className="grid gap-4 sm:grid-cols-3">
          {team().map((m) => (
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

      <Section id="contact" title={aboutText().contact} {...card}>
        <ul className="space-y-1 text-slate-700">
          <li>{S.nav.emergency}:{' '}<a className="font-semibold text-brand-700" href={S.emergencyTel}>{S.emergencyNumber}</a>{S.otherRegions}</li>
          <li>{S.profile.email}:{' '}<a className="text-blue-700 underline" href={`mailto:${EMAIL}`}>{EMAIL}</a></li>
          <li>{aboutText().address}</li>
        </ul>
      </Section>

      <div role="note" className="rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-900">
        <p className="font-semibold">{aboutText().underDevelopment}</p>
        <p className="text-sm">{aboutText().demo} {S.alwaysCall}</p>
      </div>

      <div className="text-center">
        <Link to="/" className="btn-primary">{S.common.backToHome}</Link>
      </div>
    </div>
  )
}

