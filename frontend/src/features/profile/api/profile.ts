import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { call } from '@/lib/api'
import { updateStoredUser } from '@/lib/session'
import type { ProfileUpdate } from '@/lib/types'
import { profileKeys } from './keys'

export const profileQuery = (userId: number) => ({
  queryKey: profileKeys.detail(userId),
  queryFn: () => call('GET /user/profile', { query: { userId } }),
})

export function useProfile(userId: number) {
  return useQuery(profileQuery(userId))
}

export function useUpdateProfile(userId: number) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (body: ProfileUpdate) => call('PUT /user/profile', { body }),
    onSuccess: (user) => {
      client.setQueryData(profileKeys.detail(userId), user)
      updateStoredUser(user)
    },
  })
}
