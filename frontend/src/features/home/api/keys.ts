import { queryRoots } from '@/lib/queryKeys'

export const homeKeys = {
  all: queryRoots.home,
  stats: (signedIn: boolean) => [...queryRoots.home, signedIn] as const,
}
