#!/usr/bin/env bash
# `make deploy`: the whole stack to AWS, then the frontend into it.
#   sam build -> sam deploy -> npm run build -> upload to the site bucket with the
#   right Cache-Control -> invalidate CloudFront -> print the URL and what to do next.
#
# Environment:
#   CONFIG_ENV=prod    samconfig.toml environment (default: default, the dev stack)
#   AWS_REGION         region to deploy to (else AWS_DEFAULT_REGION, else your AWS config)
#   NO_CONFIRM=1       do not stop to confirm the change set (CI)
#   SKIP_BUILD=1       reuse .aws-sam/build from an earlier `sam build`
#   VITE_TILE_URL      other map tiles (its host must equal the stack's TileHost parameter)
# Credentials: whatever the AWS CLI and SAM use (profile, SSO, environment).
#
# Deliberately does not source lib.sh: that file sets fake local AWS credentials
# for DynamoDB Local, which must never reach a real deployment.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export SAM_CLI_TELEMETRY=0

log() { printf '\033[1;34m==>\033[0m %s\n' "$*" >&2; }
die() { printf '\033[1;31merror:\033[0m %s\n' "$*" >&2; exit 1; }

CONFIG_ENV=${CONFIG_ENV:-default}

if [ "${AWS_ACCESS_KEY_ID:-}" = local ]; then
  die "AWS_ACCESS_KEY_ID=local is DynamoDB Local's fake credential; unset it to deploy"
fi
"$ROOT/scripts/ensure-tools.sh" sam cargo-lambda rust-arm64 frontend
command -v aws >/dev/null || die "the AWS CLI is needed to upload the frontend (https://aws.amazon.com/cli/)"

REGION=${AWS_REGION:-${AWS_DEFAULT_REGION:-$(aws configure get region 2>/dev/null || true)}}
[ -n "$REGION" ] || die "no AWS region: set AWS_REGION (or configure one with aws configure)"
export AWS_REGION="$REGION"
account=$(aws sts get-caller-identity --query Account --output text) \
  || die "no usable AWS credentials (aws sts get-caller-identity failed)"

STACK=$(python3 "$ROOT/scripts/samconfig-stack.py" "$CONFIG_ENV")
log "deploying stack $STACK (samconfig environment '$CONFIG_ENV') to account $account in $REGION"

t0=$(date +%s)
if [ "${SKIP_BUILD:-0}" != 1 ]; then
  log "sam build (cargo lambda build --release --arm64 per function; minutes when cold)"
  sam build --config-env "$CONFIG_ENV"
fi

# The VAPID key pair of Web Push (decision 0014; docs/deploy.md, "Web Push"): made
# once per stack. The private half is the secret "$STACK/vapid-private-key" (only
# NotifyFunction may read it), the public half that secret's tag `public-key`, so a
# later deploy finds both again. Rotating: docs/deploy.md.
vapid_name="$STACK/vapid-private-key"
vapid_arn=$(aws secretsmanager describe-secret --secret-id "$vapid_name" --query ARN --output text 2>/dev/null || true)
if [ -z "$vapid_arn" ] || [ "$vapid_arn" = None ]; then
  log "generating the stack's VAPID key pair into Secrets Manager ($vapid_name)"
  vapid_keys=$(cargo run --quiet -p web --bin manage -- vapid-keys)
  vapid_public=$(sed -n 's/^VAPID_PUBLIC_KEY=//p' <<<"$vapid_keys")
  vapid_arn=$(aws secretsmanager create-secret --name "$vapid_name" \
    --description "VAPID private key of Web Push ($STACK)" \
    --secret-string "$(sed -n 's/^VAPID_PRIVATE_KEY=//p' <<<"$vapid_keys")" \
    --tags "Key=public-key,Value=$vapid_public" --query ARN --output text)
  unset vapid_keys
fi
vapid_public=$(aws secretsmanager describe-secret --secret-id "$vapid_arn" \
  --query "Tags[?Key=='public-key'].Value | [0]" --output text)
[ "${#vapid_public}" = 87 ] || die "secret $vapid_name has no 87-character public-key tag (docs/deploy.md, Web Push)"

# --parameter-overrides replaces samconfig.toml's, so those are passed along too.
overrides=$(python3 - "$CONFIG_ENV" <<'PY'
import sys, tomllib
env = sys.argv[1]
with open("samconfig.toml", "rb") as f:
    config = tomllib.load(f)
print(config.get(env, {}).get("deploy", {}).get("parameters", {}).get("parameter_overrides", ""))
PY
)

confirm=()
if [ "${NO_CONFIRM:-0}" = 1 ]; then confirm=(--no-confirm-changeset); fi
log "sam deploy"
# shellcheck disable=SC2086 # samconfig's overrides are space-separated Key=Value words
sam deploy --config-env "$CONFIG_ENV" --region "$REGION" --no-fail-on-empty-changeset "${confirm[@]}" \
  --parameter-overrides $overrides "VapidPublicKey=$vapid_public" "VapidPrivateKeyArn=$vapid_arn"

output() {
  aws cloudformation describe-stacks --region "$REGION" --stack-name "$STACK" \
    --query "Stacks[0].Outputs[?OutputKey=='$1'].OutputValue" --output text
}
bucket=$(output BucketName)
distribution=$(output DistributionId)
site=$(output SiteUrl)
table=$(output TableName)
if [ -z "$bucket" ] || [ "$bucket" = None ]; then
  die "stack $STACK has no BucketName output (did the deploy finish?)"
fi
# RestoredTableName set: say so at every deploy (sam deploy keeps a parameter's
# previous value, so a stack stays on a restored table until it is set to "").
own_table=$(output StackTableName)
if [ -n "$own_table" ] && [ "$own_table" != None ] && [ "$own_table" != "$table" ]; then
  log "the functions use the restored table $table (RestoredTableName); the stack's own"
  log "table $own_table is kept, unused. Back to it: docs/operations.md, the restore drill"
fi

# The CSP allows images from TileHost only: a build with other tiles must match it.
tile_host=$(aws cloudformation describe-stacks --region "$REGION" --stack-name "$STACK" \
  --query "Stacks[0].Parameters[?ParameterKey=='TileHost'].ParameterValue" --output text)
wanted_host=$(python3 -c 'import sys, urllib.parse; print(urllib.parse.urlsplit(sys.argv[1]).netloc)' \
  "${VITE_TILE_URL:-https://tile.openstreetmap.org/{z}/{x}/{y}.png}")
if [ "$wanted_host" != "$tile_host" ]; then
  log "warning: the map tiles come from $wanted_host but the stack's CSP allows $tile_host;"
  log "         set TileHost=$wanted_host in samconfig.toml's parameter_overrides and deploy again"
fi

# A build folder of its own (git-ignored), so a deploy never touches frontend/dist.
dist="$ROOT/target/deploy-dist"
log "building the frontend into ${dist#"$ROOT"/}"
(cd frontend && npm run build -- --outDir "$dist" --emptyOutDir)
[ -f "$dist/index.html" ] || die "$dist/index.html is missing after the build"

# Hashed assets first, kept a year and never deleted here: a browser still running
# the previous index.html may lazy-load its old chunks. Then the rest, no-cache, and
# index.html last, so it never points at files not uploaded yet.
log "uploading the build to s3://$bucket"
if [ -d "$dist/assets" ]; then
  aws s3 sync "$dist/assets" "s3://$bucket/assets" --only-show-errors \
    --cache-control "public, max-age=31536000, immutable"
fi
aws s3 sync "$dist" "s3://$bucket" --only-show-errors --delete \
  --exclude "assets/*" --exclude index.html --cache-control "no-cache"
aws s3 cp "$dist/index.html" "s3://$bucket/index.html" --only-show-errors \
  --cache-control "no-cache" --content-type "text/html; charset=utf-8"

log "invalidating CloudFront $distribution"
invalidation=$(aws cloudfront create-invalidation --distribution-id "$distribution" \
  --paths '/*' --query Invalidation.Id --output text)

cat <<DONE

  Deployed in $(( $(date +%s) - t0 ))s.
  Site (and API under /api):  $site
  Table:                      $table
  CloudFront invalidation $invalidation is propagating (a minute or two).

  Smoke test:    make smoke URL=$site
  First admin:   TABLE_NAME=$table AWS_REGION=$REGION make admin USERNAME=ops EMAIL=ops@example.org
                 (asks for the password, or reads ADMIN_PASSWORD)

DONE
