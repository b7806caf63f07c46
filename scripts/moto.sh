#!/usr/bin/env bash
# Starts moto's server (an SQS of this machine: notify's deliveries queue, decision
# 0019) in the background and waits until it answers.
# Usage: moto.sh PORT LOGFILE [--while PID]
#   --while PID  stop the server when process PID has ended (a test process that
#                started its own: nothing outlives it)
# Prints the PID (its own process group) on stdout.
. "$(dirname "$0")/lib.sh"

port=${1:?port}; log_file="$(realpath -m "${2:?logfile}")"; owner=""
[ "${3:-}" != --while ] || owner=${4:?pid}
mkdir -p "$(dirname "$log_file")"
# Test processes start their own at once: one of them installs, the others wait.
if ! command -v moto_server >/dev/null 2>&1; then
  mkdir -p "$TOOLS"
  flock "$TOOLS/.moto-install.lock" "$ROOT/scripts/ensure-tools.sh" moto >&2
  hash -r
fi
# A busy port would make the readiness poll below succeed against someone else's server.
require_free_port "$port" "moto (SQS)"

setsid moto_server -H 127.0.0.1 -p "$port" >"$log_file" 2>&1 < /dev/null &
pid=$!

for _ in $(seq 120); do
  if ! kill -0 "$pid" 2>/dev/null; then
    cat "$log_file" >&2
    die "moto exited (port $port busy?)"
  fi
  code=$(curl -s -o /dev/null -w '%{http_code}' -X POST "http://127.0.0.1:$port/" \
    -H 'Content-Type: application/x-amz-json-1.0' -H 'X-Amz-Target: AmazonSQS.ListQueues' \
    -H 'Authorization: AWS4-HMAC-SHA256 Credential=local/20260101/us-east-1/sqs/aws4_request, SignedHeaders=host, Signature=0' \
    -d '{}' || true)
  if [ "$code" = 200 ]; then
    if [ -n "$owner" ]; then
      (trap '' HUP; while kill -0 "$owner" 2>/dev/null; do sleep 1; done; kill -TERM -- "-$pid" 2>/dev/null) \
        >/dev/null 2>&1 </dev/null &
    fi
    echo "$pid"; exit 0
  fi
  sleep 0.25
done
cat "$log_file" >&2
stop_group "$pid"
die "moto did not become ready on port $port within 30 s"
