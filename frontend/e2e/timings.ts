import fs from 'node:fs'
import path from 'node:path'
import type { FullConfig, FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter'

// A Playwright reporter: at the end of a run, every spec file's time and every test's,
// slowest first, with the CPU-seconds each spent, by what spent them (Chromium, the
// stack behind it, Node). The CPU comes from scripts/cpu-meter.py, which scripts/e2e.sh
// runs around the whole run and which writes its totals so far to E2E_CPU_SNAPSHOT
// every second; without it, times only. Also written to e2e-artifacts/timings<-shard>.json
// (docs/performance.md keeps the figures).

type Cpu = Record<string, number>

/** Kinds of process (cpu-meter.py's) grouped as the table's columns. */
const COLUMNS: Record<string, string[]> = {
  chromium: ['chromium'],
  stack: ['functions', 'dynamodb', 'cargo-lambda watch', 'tools'],
  node: ['node'],
}

function readCpu(): Cpu | null {
  const file = process.env.E2E_CPU_SNAPSHOT
  if (!file) return null
  try {
    return (JSON.parse(fs.readFileSync(file, 'utf8')) as { cpu: Cpu }).cpu
  } catch {
    return null
  }
}

function minus(a: Cpu | null, b: Cpu | null): Cpu | null {
  if (!a || !b) return null
  const out: Cpu = {}
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) out[k] = (a[k] ?? 0) - (b[k] ?? 0)
  return out
}

function add(into: Cpu, more: Cpu | null) {
  if (more) for (const [k, v] of Object.entries(more)) into[k] = (into[k] ?? 0) + v
}

const total = (c: Cpu) => Object.values(c).reduce((s, v) => s + v, 0)
const column = (c: Cpu, kinds: string[]) => kinds.reduce((s, k) => s + (c[k] ?? 0), 0)

type Row = { name: string; wall: number; cpu: Cpu; status?: string; retries?: number }

const fmt = (n: number, width: number) => n.toFixed(0).padStart(width)

function table(rows: Row[], metered: boolean): string[] {
  const head = metered
    ? ` wall s   CPU s  chromium  stack   node  other`
    : ` wall s`
  const lines = [head]
  for (const r of rows) {
    if (!metered) {
      lines.push(`${fmt(r.wall, 7)}  ${r.name}${r.status ? `  (${r.status})` : ''}`)
      continue
    }
    const all = total(r.cpu)
    const parts = Object.values(COLUMNS).map((kinds) => column(r.cpu, kinds))
    const other = all - parts.reduce((s, v) => s + v, 0)
    lines.push(
      `${fmt(r.wall, 7)} ${fmt(all, 7)} ${fmt(parts[0]!, 9)} ${fmt(parts[1]!, 6)} ${fmt(parts[2]!, 6)} ${fmt(other, 6)}  ${r.name}${r.status ? `  (${r.status})` : ''}`,
    )
  }
  return lines
}

export default class Timings implements Reporter {
  private started = new Map<string, { at: number; cpu: Cpu | null }>()
  private tests: (Row & { file: string })[] = []
  private runStart = Date.now()
  private runCpu: Cpu | null = null
  private artifacts = 'e2e-artifacts'

  onBegin(config: FullConfig) {
    this.artifacts = path.join(config.configFile ? path.dirname(config.configFile) : process.cwd(), 'e2e-artifacts')
    this.runStart = Date.now()
    this.runCpu = readCpu()
  }

  onTestBegin(test: TestCase, result: TestResult) {
    this.started.set(`${test.id}#${result.retry}`, { at: Date.now(), cpu: readCpu() })
  }

  onTestEnd(test: TestCase, result: TestResult) {
    const begin = this.started.get(`${test.id}#${result.retry}`)
    const cpu = minus(readCpu(), begin?.cpu ?? null) ?? {}
    this.tests.push({
      file: path.basename(test.location.file),
      name: `${path.basename(test.location.file)}:${test.location.line} ${test.title}${result.retry ? ` (retry ${result.retry})` : ''}`,
      wall: (Date.now() - (begin?.at ?? Date.now())) / 1000,
      cpu,
      status: result.status === 'passed' ? undefined : result.status,
    })
  }

  onEnd(result: FullResult) {
    // Nothing ran (--list, or no test selected): nothing to say.
    if (this.tests.length === 0) return
    const metered = this.runCpu !== null
    const byFile = new Map<string, Row>()
    for (const t of this.tests) {
      const row = byFile.get(t.file) ?? { name: t.file, wall: 0, cpu: {} }
      row.wall += t.wall
      add(row.cpu, t.cpu)
      byFile.set(t.file, row)
    }
    const slowest = (rows: Row[]) => [...rows].sort((a, b) => b.wall - a.wall)
    const files = slowest([...byFile.values()])
    const runCpu = minus(readCpu(), this.runCpu)
    const sum: Row = { name: 'all tests', wall: (Date.now() - this.runStart) / 1000, cpu: runCpu ?? {} }
    const out = [
      '',
      `Time per spec file, slowest first (${result.status}; CPU-seconds ${metered ? 'of every process of the run: Chromium, the stack, Node' : 'not measured: run through scripts/e2e.sh'}):`,
      ...table([...files, sum], metered),
      '',
      'Time per test, slowest first:',
      ...table(slowest(this.tests), metered),
    ]
    console.log(out.join('\n'))
    const group = process.env.E2E_GROUP ? `-${process.env.E2E_GROUP}` : ''
    fs.mkdirSync(this.artifacts, { recursive: true })
    fs.writeFileSync(path.join(this.artifacts, `timings${group}.json`), JSON.stringify({ files, tests: this.tests, run: sum }, null, 1))
  }

  printsToStdio() {
    return true
  }
}
