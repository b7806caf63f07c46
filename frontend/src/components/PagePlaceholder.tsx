/** A screen whose issue has not landed yet says so plainly instead of a dead link. */
export function PagePlaceholder({ title }: { title: string }) {
  return (
    <div className="card mx-auto max-w-xl p-8 text-center">
      <h1 className="mb-2 text-2xl font-bold">{title}</h1>
      <p className="text-slate-600">This screen is being built and will be available soon.</p>
    </div>
  )
}
