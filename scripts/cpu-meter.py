#!/usr/bin/env python3
"""CPU-seconds (user + system) of a command and of everything it starts, read from /proc.

Wall times on a shared 2-core machine say little; the CPU a stage spends is what the
run's length is made of (docs/performance.md, "CI time"). `/usr/bin/time` alone misses
what a stage leaves to others to reap: DynamoDB Local, the functions, the clock and
Chromium run in sessions of their own (setsid) and their parents exit before them. So
every process the command starts carries a tag in its environment (CPU_METER_TAGS, a
list: meters nest), and the meter reads /proc every INTERVAL seconds:

  total = the command's own rusage (itself and every descendant it or they reaped)
        + the last-seen times of tagged processes that some untagged process reaped
          (an orphan adopted by init: DynamoDB Local, a function, Chromium)

Each tagged process is also put in a kind (its command name: chromium, dynamodb,
functions, node, cargo/rustc, python, ...), so a stage's CPU can be told apart by
what spent it. A process's children's times go to the parent's kind once reaped
(rustc to cargo, Chromium's renderers to chromium).

  cpu-meter.py run [--interval S] [--snapshot FILE] [--json FILE] [--] COMMAND...
      runs COMMAND, exits with its status; writes the totals as JSON to FILE (--json),
      and, while it runs, the totals so far to --snapshot every interval (what the
      Playwright reporter reads at each test's start and end).
"""
import json
import re
import os
import resource
import signal
import subprocess
import sys
import time

TICK = os.sysconf("SC_CLK_TCK")
TAG_VAR = "CPU_METER_TAGS"

# Command names (/proc/<pid>/comm, 15 characters) to kinds; anything else is "other".
FUNCTIONS = set()


def functions_of(root):
    try:
        return {d for d in os.listdir(os.path.join(root, "functions"))}
    except OSError:
        return set()


def kind_of(comm, exe_base):
    c = comm.lower()
    if c.startswith(("chrom", "headless_shell")) or exe_base.startswith("chrom"):
        return "chromium"
    if c == "java":
        return "dynamodb"
    if c in FUNCTIONS:
        return "functions"
    if c in ("cargo-lambda",):
        return "cargo-lambda watch"
    if c in ("cargo", "rustc", "clippy-driver", "cc", "ld", "cc1", "collect2", "ld.lld", "rust-lld",
             "zig", "build-script-bu", "cargo-nextest") or c.startswith("build_script") or c.startswith("build-script"):
        return "cargo/rustc"
    if c.startswith("node") or c in ("npm", "npx", "esbuild", "vite", "vitest"):
        return "node"
    if c.startswith("python") or c in ("st", "sam"):
        return "python"
    if c in ("manage", "bench_nearest", "bench_booking", "bench_emergency", "bench_deadlines", "bench_live",
             "bench_push", "bench_init", "bench_warm"):
        return "tools"
    # Test binaries (nextest runs each test in a process named after its crate, with a hash).
    if "-" in c and all(ch in "0123456789abcdef" for ch in c.rsplit("-", 1)[1][:8]) and len(c.rsplit("-", 1)[1]) >= 8:
        return "rust tests"
    if c in ("bash", "sh", "sed", "grep", "tee", "curl", "sleep", "make", "flock", "setsid", "env", "cat", "awk", "date"):
        return "shell"
    return "other"


def read_stat(pid):
    with open(f"/proc/{pid}/stat", "rb") as f:
        data = f.read().decode("utf-8", "replace")
    # comm may hold spaces and parentheses: split after the last ')'.
    rpar = data.rindex(")")
    comm = data[data.index("(") + 1:rpar]
    fields = data[rpar + 2:].split()
    # fields[0] is state (field 3); ppid is field 4; utime..cstime fields 14..17; starttime 22.
    ppid = int(fields[1])
    ut, st, cut, cst = (int(x) for x in fields[11:15])
    start = int(fields[19])
    return comm, ppid, ut + st, cut + cst, start


def tags_of(pid):
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            env = f.read()
    except OSError:
        return None
    for item in env.split(b"\0"):
        if item.startswith(TAG_VAR.encode() + b"="):
            return item[len(TAG_VAR) + 1:].decode().split(":")
    return []


class Meter:
    """The CPU of every process tagged `tag`, by kind, sampled from /proc.

    Each process is counted while alive as its own times plus its reaped children's,
    less what was already counted for those children when they vanished ("absorbed").
    A process that vanishes is counted once more as its last-seen figure: to its kind,
    whether its parent (which then holds its times) is tagged or not.
    """

    def __init__(self, tag, root_pid):
        self.tag = tag
        self.root = root_pid
        self.root_gone = False
        self.known = {}  # (pid, start) -> kind, or None when not ours
        self.live = {}  # pid -> dict(key, kind, ppid, own, children)
        self.absorbed = {}  # pid -> seconds of its vanished children already counted
        self.done = {}  # kind -> seconds of vanished processes
        self.absorbed_by_root = 0.0

    def scan(self):
        stats = {}
        for name in os.listdir("/proc"):
            if name.isdigit():
                try:
                    stats[int(name)] = read_stat(int(name))
                except (OSError, ValueError, IndexError):
                    pass
        seen = {}

        def member(pid):
            """Ours when its environment carries the tag, or its parent is ours: Chromium's
            zygote starts its processes with an empty environment."""
            if pid in seen:
                return True
            st = stats.get(pid)
            if st is None:
                return False
            comm, ppid, own, children, start = st
            key = (pid, start)
            kind = self.known.get(key, False)
            if kind is False:
                tags = tags_of(pid)
                if tags is None:
                    return False
                ours = self.tag in tags or pid == self.root
                if not ours and not tags and ppid > 1 and ppid != pid:
                    ours = member(ppid)
                if ours:
                    try:
                        exe = os.path.basename(os.readlink(f"/proc/{pid}/exe"))
                    except OSError:
                        exe = ""
                    kind = kind_of(comm, exe)
                else:
                    kind = None
                self.known[key] = kind
            if kind is None:
                return False
            seen[pid] = {"key": key, "kind": kind, "ppid": ppid, "own": own / TICK, "children": children / TICK}
            return True

        for pid in sorted(stats):
            member(pid)
        for pid, old in self.live.items():
            if pid in seen and seen[pid]["key"] == old["key"]:
                continue
            whole = old["own"] + old["children"]
            if pid == self.root:
                continue  # the command itself: its rusage, exact, at the end
            self.done[old["kind"]] = self.done.get(old["kind"], 0) + whole - self.absorbed.pop(pid, 0.0)
            # Reaped by a tagged parent: its times are in the parent's children's now. A
            # parent that went in the same interval hands them on to its own parent, up
            # to the first one still alive (a stack stopped at once: the functions, the
            # cargo that ran each, the watcher, the shell that started it).
            up = old["ppid"]
            while True:
                if up == self.root:
                    self.absorbed_by_root += whole
                elif up in seen:
                    self.absorbed[up] = self.absorbed.get(up, 0.0) + whole
                elif up in self.live and up != pid:
                    up = self.live[up]["ppid"]
                    continue
                break
            self.known.pop(old["key"], None)
        self.live = seen

    def totals(self, root_rusage=None):
        """CPU-seconds by kind so far; with the command's final rusage, the exact end."""
        by_kind = dict(self.done)
        for pid, p in self.live.items():
            by_kind[p["kind"]] = by_kind.get(p["kind"], 0) + p["own"] + p["children"] - self.absorbed.get(pid, 0.0)
        if root_rusage is not None:
            # The command and what it reaped, exactly; what was counted for those
            # reaped already is taken off, the rest is the command's own kind's.
            root_kind = self.known_root_kind or "shell"
            by_kind[root_kind] = by_kind.get(root_kind, 0) + max(root_rusage - self.absorbed_by_root, 0.0)
        return by_kind

    @property
    def known_root_kind(self):
        return next((k for (pid, _), k in self.known.items() if pid == self.root and k), None)


def options(argv, usage, known):
    opts = {}
    while argv and argv[0].startswith("--"):
        flag = argv.pop(0)
        if flag == "--":
            break
        if flag[2:] not in known or not argv:
            sys.exit(usage)
        opts[flag[2:]] = argv.pop(0)
    return opts


def measure(meter, finished, interval, snapshot, t0):
    """Scans until finished() returns the command's (exit status, CPU-seconds of it and
    what it reaped); then the totals by kind."""
    global FUNCTIONS
    FUNCTIONS = functions_of(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    self0 = resource.getrusage(resource.RUSAGE_SELF)
    root_kind = None
    while True:
        try:
            meter.scan()
        except Exception:  # noqa: BLE001 - a race with /proc must never fail the command
            pass
        root_kind = meter.known_root_kind or root_kind
        if snapshot:
            write_json(snapshot, {"wall": time.monotonic() - t0, "cpu": meter.totals()})
        end = finished()
        if end is not None:
            break
        time.sleep(interval)
    rc, root_cpu = end
    meter.root_gone = True
    try:
        meter.scan()
    except Exception:  # noqa: BLE001
        pass
    meter.known[(meter.root, -1)] = root_kind or "shell"
    by_kind = meter.totals(root_rusage=root_cpu)
    self1 = resource.getrusage(resource.RUSAGE_SELF)
    result = {
        "wall": round(time.monotonic() - t0, 1),
        "cpu": round(sum(by_kind.values()), 1),
        "by_kind": {k: round(v, 1) for k, v in sorted(by_kind.items(), key=lambda kv: -kv[1]) if v >= 0.05},
        "meter_cpu": round((self1.ru_utime + self1.ru_stime) - (self0.ru_utime + self0.ru_stime), 2),
        "exit": rc,
    }
    if snapshot:
        write_json(snapshot, {"wall": result["wall"], "cpu": by_kind, "done": True})
    return result


def run(argv):
    usage = "usage: cpu-meter.py run [--interval S] [--snapshot FILE] [--json FILE] [--] COMMAND..."
    opts = options(argv, usage, {"interval", "snapshot", "json"})
    if not argv:
        sys.exit(usage)
    tag = f"m{os.getpid()}x{time.monotonic_ns() % 1000000}"
    env = dict(os.environ)
    env[TAG_VAR] = ":".join(filter(None, [env.get(TAG_VAR, ""), tag]))
    t0 = time.monotonic()
    # The command keeps the terminal's signals: Ctrl-C reaches it as it would without us.
    child = subprocess.Popen(argv, env=env)
    signal.signal(signal.SIGINT, lambda *_: None)
    signal.signal(signal.SIGTERM, lambda *_: child.terminate())
    meter = Meter(tag, child.pid)

    def finished():
        done, status, usage = os.wait4(child.pid, os.WNOHANG)
        if done != child.pid:
            return None
        return os.waitstatus_to_exitcode(status), usage.ru_utime + usage.ru_stime

    result = measure(meter, finished, float(opts.get("interval", 1)), opts.get("snapshot"), t0)
    report(result, opts.get("json"))
    rc = result["exit"]
    return rc if rc >= 0 else 128 - rc


def watch(argv):
    """For a shell function (scripts/lib.sh's `stage`): the shell runs it in a subshell
    that exports the tag, writes its pid to --pid-file first and the output of bash's
    `times` (its own and its reaped children's CPU) to --times-file last; this meter
    runs beside it and ends when the times file appears."""
    usage = "usage: cpu-meter.py watch --tag TAG --pid-file FILE --times-file FILE [--interval S] [--snapshot FILE] [--json FILE]"
    opts = options(argv, usage, {"tag", "pid-file", "times-file", "interval", "snapshot", "json"})
    if argv or not {"tag", "pid-file", "times-file"} <= opts.keys():
        sys.exit(usage)
    t0 = time.monotonic()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    meter = Meter(opts["tag"], -1)
    # The subshell's pid first: what it reaps is in its `times`, not to be counted twice.
    while meter.root < 0 and time.monotonic() - t0 < 10:
        try:
            with open(opts["pid-file"]) as f:
                meter.root = int(f.read().strip())
        except (OSError, ValueError):
            time.sleep(0.02)

    def finished():
        if meter.root < 0:
            try:
                with open(opts["pid-file"]) as f:
                    meter.root = int(f.read().strip())
            except (OSError, ValueError):
                pass
        try:
            with open(opts["times-file"]) as f:
                text = f.read()
        except OSError:
            text = ""
        # `times`: "0m0.010s 0m0.002s" (the shell's own) then the same for its children.
        values = re.findall(r"(\d+)m([\d.]+)s", text)
        if len(values) < 4:
            # The shell went without writing them (killed): what was sampled is all there is.
            if meter.root > 0 and not os.path.exists(f"/proc/{meter.root}") and not text:
                return 130, 0.0
            return None
        secs = sum(int(m) * 60 + float(s) for m, s in values[:4])
        return 0, secs

    result = measure(meter, finished, float(opts.get("interval", 1)), opts.get("snapshot"), t0)
    del result["exit"]
    report(result, opts.get("json"))
    return 0


def report(result, path):
    if path:
        write_json(path, result)
    else:
        print(json.dumps(result), file=sys.stderr)


def write_json(path, value):
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "w") as f:
        json.dump(value, f)
    os.replace(tmp, path)


if __name__ == "__main__":
    args = sys.argv[1:]
    if args and args[0] == "run":
        sys.exit(run(args[1:]))
    if args and args[0] == "watch":
        sys.exit(watch(args[1:]))
    sys.exit(__doc__)
