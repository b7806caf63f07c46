import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api'
import { updateStoredUser } from '@/lib/session'
import type { ProfileUpdate, User } from '@/lib/types'
import { profileKeys } from './keys'

export const profileQuery = (userId: number) => ({
  queryKey: profileKeys.detail(userId),
  queryFn: () => api<User>('/user/profile', { query: { userId } }),
})

export function useProfile(userId: number) {
  return useQuery(profileQuery(userId))
}

export function useUpdateProfile(userId: number) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (body: ProfileUpdate) => api<User>('/user/profile', { method: 'PUT', body }),
    onSuccess: (user) => {
      client.setQueryData(profileKeys.detail(userId), user)
      updateStoredUser(user)
    },
  })
}
