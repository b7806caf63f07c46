import { useState, type ReactNode } from 'react'
import { Link } from 'react-router'
import { Alert } from '@/components/Feedback'
import { PageHeader } from '@/components/PageHeader'
import type { Flash } from '@/lib/useFlash'
import { S } from '@/strings'

/** Back to the dashboard, then the screen's title and its main action. */
export function AdminPageHeader(props: { title: string; subtitle?: ReactNode; action: ReactNode }) {
  return (
    <>
      <Link to="/admin" className="btn-ghost -ml-3">{S.common.backToDashboard}</Link>
      <PageHeader {...props} />
    </>
  )
}

/**
 * The top of a screen that manages a list (hospitals, ambulances, crew): the header with
 * its 'Add X' toggle, the banner of the last change, then the add form (`children`, which
 * shows itself while `panel.open`).
 */
export function ManageHeader({
  title,
  subtitle,
  addLabel,
  panel,
  flash,
  children,
}: {
  title: string
  subtitle?: ReactNode
  addLabel: string
  panel: ReturnType<typeof useAddPanel>
  flash: Flash | null
  children: ReactNode
}) {
  return (
    <>
      <AdminPageHeader title={title} subtitle={subtitle} action={<AddFormToggle panel={panel} label={addLabel} />} />
      {flash && <Alert tone={flash.tone}>{flash.text}</Alert>}
      {children}
    </>
  )
}

/** Whether the screen's add form shows; once something is added it closes and says `added`. */
export function useAddPanel(added: string, setFlash: (flash: Flash) => void) {
  const [open, setOpen] = useState(false)
  return {
    open,
    show: () => setOpen(true),
    toggle: () => setOpen((o) => !o),
    onAdded: () => {
      setFlash({ tone: 'success', text: added })
      setOpen(false)
    },
  }
}

/** 'Add X' / 'Close Form': shows and hides the screen's add form. */
export function AddFormToggle({ panel, label }: { panel: ReturnType<typeof useAddPanel>; label: string }) {
  return (
    <button type="button" className="btn-primary" aria-expanded={panel.open} onClick={panel.toggle}>
      {panel.open ? S.common.closeForm : label}
    </button>
  )
}
