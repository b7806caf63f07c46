#!/usr/bin/env bash
# Starts DynamoDB Local in the background and waits until it answers.
# Usage: ddb-local.sh PORT (--in-memory | --db-path DIR) LOGFILE
# Prints the PID (its own process group) on stdout.
. "$(dirname "$0")/lib.sh"

port=${1:?port}; mode=${2:?--in-memory or --db-path}; shift 2
case "$mode" in
  --in-memory) storage=(-inMemory); log_file=${1:?logfile} ;;
  --db-path) dir=${1:?dir}; mkdir -p "$dir"; storage=(-dbPath "$dir"); log_file=${2:?logfile} ;;
  *) die "usage: ddb-local.sh PORT (--in-memory | --db-path DIR) LOGFILE" ;;
esac
log_file="$(realpath -m "$log_file")"
mkdir -p "$(dirname "$log_file")"
if [ "$mode" = --db-path ]; then storage=(-dbPath "$(realpath -m "$dir")"); fi
[ -f "$DDB_DIR/DynamoDBLocal.jar" ] || "$ROOT/scripts/ensure-tools.sh" ddb
# A busy port would make the readiness poll below succeed against someone else's server.
require_free_port "$port" "DynamoDB Local"

# -sharedDb: one database whatever the credentials/region a client signs with.
# It writes a metadata file into its working directory: keep that out of the repo.
cd "$(dirname "$log_file")"
setsid java ${DDB_JAVA_OPTS:-} -Djava.library.path="$DDB_DIR/DynamoDBLocal_lib" -jar "$DDB_DIR/DynamoDBLocal.jar" \
  -sharedDb -port "$port" "${storage[@]}" >"$log_file" 2>&1 < /dev/null &
pid=$!

for _ in $(seq 120); do
  if ! kill -0 "$pid" 2>/dev/null; then
    cat "$log_file" >&2
    die "DynamoDB Local exited (port $port busy?)"
  fi
  code=$(curl -s -o /dev/null -w '%{http_code}' -X POST "http://127.0.0.1:$port/" \
    -H 'Content-Type: application/x-amz-json-1.0' -H 'X-Amz-Target: DynamoDB_20120810.ListTables' \
    -H 'Authorization: AWS4-HMAC-SHA256 Credential=local/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0' \
    -d '{}' || true)
  if [ "$code" = 200 ]; then
    if grep -qi 'BindException\|Address already in use' "$log_file"; then
      cat "$log_file" >&2; stop_group "$pid"; die "DynamoDB Local could not listen on port $port"
    fi
    echo "$pid"; exit 0
  fi
  sleep 0.25
done
cat "$log_file" >&2
stop_group "$pid"
die "DynamoDB Local did not become ready on port $port within 30 s"
