# The two commands a newcomer needs: `make dev` and `make test`.
.PHONY: dev dev-reset test e2e bench admin sam-validate help

help:
	@echo "make dev        run the whole app locally with demo data (http://localhost:5173)"
	@echo "make dev-reset  the same, after wiping the local data"
	@echo "make test       run every test (starts its own DynamoDB Local)"
	@echo "make bench      print performance figures"
	@echo "make admin USERNAME=... EMAIL=...  create or promote an admin (TABLE_NAME, AWS_REGION from env)"

dev:
	@scripts/dev.sh

dev-reset:
	@RESET=1 scripts/dev.sh

test:
	@scripts/test.sh

e2e:
	@scripts/e2e.sh

bench:
	@scripts/bench.sh

admin:
	@test -n "$(USERNAME)" -a -n "$(EMAIL)" || { echo "usage: make admin USERNAME=name EMAIL=address"; exit 2; }
	cargo run --quiet -p shared --bin manage -- create-admin --username "$(USERNAME)" --email "$(EMAIL)"

sam-validate:
	@scripts/ensure-tools.sh sam
	sam validate --lint
