import { useMutation } from '@tanstack/react-query'
import { call } from '@/lib/api'

/** `GET /user/export`, saved as a file named for today (`ambucare-data-2026-12-01.json`). */
export async function downloadMyData(): Promise<void> {
  const data = await call('GET /user/export')
  const blob = new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' })
  const url = URL.createObjectURL(blob)
  const link = document.createElement('a')
  link.href = url
  link.download = `ambucare-data-${data.exportedAt.slice(0, 10)}.json`
  document.body.append(link)
  link.click()
  link.remove()
  // After the click has handed the file to the browser.
  setTimeout(() => URL.revokeObjectURL(url), 0)
}

export function useDownloadMyData() {
  return useMutation({ mutationFn: downloadMyData })
}

/** `DELETE /user/account` with the password asked again. */
export function useDeleteAccount() {
  return useMutation({
    mutationFn: (password: string) => call('DELETE /user/account', { body: { password } }),
  })
}
