# Shared helpers for the project's scripts. Source it: `. "$(dirname "$0")/lib.sh"`.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS="$ROOT/.tools"
DDB_DIR="$TOOLS/dynamodb-local"
DDB_VERSION="10.3.0"

# DynamoDB Local accepts any credentials; the SDK just needs some.
export SAM_CLI_TELEMETRY=0
export AWS_REGION="${AWS_REGION:-us-east-1}"
export AWS_ACCESS_KEY_ID="${AWS_ACCESS_KEY_ID:-local}"
export AWS_SECRET_ACCESS_KEY="${AWS_SECRET_ACCESS_KEY:-local}"

log() { printf '\033[1;34m==>\033[0m %s\n' "$*" >&2; }
die() { printf '\033[1;31merror:\033[0m %s\n' "$*" >&2; exit 1; }

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# Waits until an HTTP server answers on 127.0.0.1:$1 (any status), up to $2 seconds;
# gives up at once if process $3 (when given) has exited.
wait_http() {
  local port=$1 secs=${2:-60} pid=${3:-}
  for _ in $(seq $((secs * 4))); do
    if curl -s -o /dev/null "http://127.0.0.1:$port/"; then return 0; fi
    if [ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null; then return 1; fi
    sleep 0.25
  done
  return 1
}

# Kills a background process and everything in its process group.
stop_group() {
  local pid=$1 sig=${2:-TERM}
  [ -n "$pid" ] || return 0
  kill -0 "$pid" 2>/dev/null || return 0
  kill "-$sig" -- "-$pid" 2>/dev/null || kill "-$sig" "$pid" 2>/dev/null || true
  for _ in $(seq 40); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.25; done
  kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
}
