import { Link } from 'react-router'
import { usePrivacyText } from '../i18n'

/**
 * Days an ended booking keeps its patient details: the server's default setting
 * (`Settings::retention_days`); the page says the service may set another.
 */
export const RETENTION_DAYS = 90

/**
 * `/privacy`, public: what is kept, why, for how long, who sees it, and how to take it
 * or delete it, in the reader's language (docs/data-map.md is the engineers' version).
 */
export default function PrivacyPage() {
  const t = usePrivacyText().page
  const list = (items: string[]) => (
    <ul className="list-disc space-y-2 pl-5 text-slate-700">
      {items.map((item) => (
        <li key={item}>{item}</li>
      ))}
    </ul>
  )
  return (
    <article className="mx-auto max-w-3xl space-y-8">
      <header className="space-y-3">
        <h1 className="text-3xl font-extrabold">{t.title}</h1>
        <p className="text-slate-700">{t.intro}</p>
      </header>

      <section aria-labelledby="privacy-kept" className="card space-y-4 p-6">
        <h2 id="privacy-kept" className="text-xl font-bold">{t.keptTitle}</h2>
        <dl className="space-y-4">
          {t.kept.map(([what, why]) => (
            <div key={what}>
              <dt className="font-semibold">{what}</dt>
              <dd className="mt-1 text-slate-700">{why}</dd>
            </div>
          ))}
        </dl>
      </section>

      <section aria-labelledby="privacy-how-long" className="card space-y-4 p-6">
        <h2 id="privacy-how-long" className="text-xl font-bold">{t.howLongTitle}</h2>
        {list([t.erasedAfter(RETENTION_DAYS), ...t.howLong])}
      </section>

      <section aria-labelledby="privacy-who" className="card space-y-4 p-6">
        <h2 id="privacy-who" className="text-xl font-bold">{t.whoTitle}</h2>
        {list(t.who)}
      </section>

      <section aria-labelledby="privacy-choices" className="card space-y-4 p-6">
        <h2 id="privacy-choices" className="text-xl font-bold">{t.choicesTitle}</h2>
        {list([t.download, t.delete, t.edit])}
        <Link to="/profile" className="btn-primary inline-flex">
          {t.goProfile}
        </Link>
      </section>

      <section aria-labelledby="privacy-law" className="space-y-2">
        <h2 id="privacy-law" className="text-lg font-bold">{t.lawTitle}</h2>
        <p className="text-sm text-slate-700">{t.law}</p>
      </section>
    </article>
  )
}
