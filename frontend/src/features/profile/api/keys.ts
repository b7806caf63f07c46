import { queryRoots } from '@/lib/queryKeys'

export const profileKeys = {
  all: queryRoots.profile,
  detail: (userId: number) => [...queryRoots.profile, userId] as const,
}
