import type { ReactNode } from 'react'

/**
 * A part of a screen named by its heading (aria-labelledby), so it is a landmark region;
 * `intro`, a line under the heading saying what the part is for.
 */
export function Section({
  id,
  title,
  className,
  headingClassName = 'mb-4 text-xl font-bold',
  intro,
  introClassName = 'text-sm text-slate-600',
  children,
}: {
  /** The heading's id. */
  id: string
  title: ReactNode
  className?: string
  headingClassName?: string
  intro?: ReactNode
  introClassName?: string
  children: ReactNode
}) {
  const heading = <h2 id={id} className={headingClassName}>{title}</h2>
  return (
    <section aria-labelledby={id} className={className}>
      {intro ? (
        <div>
          {heading}
          <p className={introClassName}>{intro}</p>
        </div>
      ) : (
        heading
      )}
      {children}
    </section>
  )
}
