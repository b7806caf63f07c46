# The two commands a newcomer needs: `make dev` and `make test`. See README.md.

# The Python tools the scripts install live in the project's venv (scripts/lib.sh).
export PATH := $(CURDIR)/.tools/python/bin:$(PATH)
.PHONY: help dev dev-reset test check e2e bench admin lint-sam sam-validate lambda-build fuzz-api hakari

help:
	@echo "make dev          run the whole app locally with demo data (http://localhost:5173)"
	@echo "make dev-reset    the same, after wiping the local data (also: make dev RESET=1)"
	@echo "make logs         while make dev runs: the functions', clock's and notify's log lines, readable"
	@echo "make test         run every test (starts its own DynamoDB Local); CI runs .ci/run"
	@echo "make check        the fast loop while editing: fmt, clippy, Rust unit tests, eslint, tsc (no database)"
	@echo "make e2e          only the end-to-end browser tests (part of make test)"
	@echo "make bench        print performance figures"
	@echo "make load         load test on loopback: 50 clients for 30 s, mixed workload (LOAD_CONNECTIONS, LOAD_DURATION)"
	@echo "make fuzz-api     schemathesis on docs/openapi.yaml against the local stack (FUZZ_MAX_EXAMPLES=100)"
	@echo "make admin USERNAME=... EMAIL=...  create or promote an admin (TABLE_NAME, AWS_REGION from env;"
	@echo "                  password from ADMIN_PASSWORD or asked for)"
	@echo "make lint-sam     sam validate --lint (installs the SAM CLI from PyPI if missing)"
	@echo "make hakari       after changing a dependency: regenerate tools/workspace-hack (one feature set per crate)"
	@echo "make lambda-build release zips for Lambda (arm64), as sam build makes them, with sizes"
	@echo "make deploy       sam build + sam deploy + the frontend to S3/CloudFront (CONFIG_ENV=prod for prod; README)"
	@echo "make smoke URL=... register, sign in, nearest hospitals, profile against a deployed (or local) URL"

dev:
	@scripts/dev.sh

dev-reset:
	@RESET=1 scripts/dev.sh

# The JSON lines the functions write (as in AWS), one readable line each.
.PHONY: logs
logs:
	@tail -n 20 -F .data/logs/functions.log .data/logs/clock.log .data/logs/notify.log | python3 scripts/logs.py

test:
	@scripts/test.sh

check:
	@scripts/test.sh --fast

e2e:
	@scripts/e2e.sh

bench:
	@scripts/bench.sh

.PHONY: load
load:
	@scripts/load.sh

fuzz-api:
	@scripts/fuzz-api.sh

# The manage binary make dev builds (one feature set per dependency in every build:
# tools/workspace-hack, so this finds it built).
admin:
	@test -n "$(USERNAME)" -a -n "$(EMAIL)" || { echo "usage: make admin USERNAME=name EMAIL=address"; exit 2; }
	cargo build --quiet -p web --bin manage
	target/debug/manage create-admin --username "$(USERNAME)" --email "$(EMAIL)"

lint-sam:
	@scripts/ensure-tools.sh sam
	SAM_CLI_TELEMETRY=0 sam validate --lint --template template.yaml

sam-validate: lint-sam

# One feature set per dependency across every build of the workspace (.config/hakari.toml).
hakari:
	@scripts/ensure-tools.sh hakari
	PATH="$(CURDIR)/.tools/cargo-hakari/bin:$$PATH" cargo hakari generate
	PATH="$(CURDIR)/.tools/cargo-hakari/bin:$$PATH" cargo hakari manage-deps --yes

lambda-build:
	@scripts/lambda-build.sh

.PHONY: deploy smoke
deploy:
	@scripts/deploy.sh

smoke:
	@test -n "$(URL)" || { echo "usage: make smoke URL=https://<site or API base URL>"; exit 2; }
	@scripts/smoke.sh "$(URL)"
