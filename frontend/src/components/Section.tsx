import type { ReactNode } from 'react'

/** A part of a screen named by its heading (aria-labelledby), so it is a landmark region. */
export function Section({
  id,
  title,
  className,
  headingClassName = 'mb-4 text-xl font-bold',
  children,
}: {
  /** The heading's id. */
  id: string
  title: string
  className?: string
  headingClassName?: string
  children: ReactNode
}) {
  return (
    <section aria-labelledby={id} className={className}>
      <h2 id={id} className={headingClassName}>{title}</h2>
      {children}
    </section>
  )
}
