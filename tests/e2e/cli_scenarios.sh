#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The aws command line against `relaydesk serve --clock virtual`:
#   cli_scenarios.sh AWS_BINARY
# RELAYDESK_BINARY names the broker. Exits non-zero on the first failed check.
set -euo pipefail
AWS=$(command -v "$1") || { echo "no $1"; exit 1; }
WORK=$(mktemp -d)
trap 'kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true; rm -rf "$WORK"' EXIT

mkfifo "$WORK/ready"
"$RELAYDESK_BINARY" serve --port 0 --amqp-port 0 --amqps-port off --sb-management-port 0 --db :memory: --clock virtual >"$WORK/ready" 2>"$WORK/err" &
SERVER=$!
exec 3<"$WORK/ready"
read -r READY <&3 || true   # blocks until the one ready line (or the server's exit)
ENDPOINT=${READY#relaydesk: listening on }
[ "$ENDPOINT" != "$READY" ] || ENDPOINT=""
[ -n "$ENDPOINT" ] || { echo "no ready line"; cat "$WORK/err"; exit 1; }
export AWS_ACCESS_KEY_ID=test AWS_SECRET_ACCESS_KEY=test AWS_DEFAULT_REGION=us-east-1 AWS_PAGER=""
aws() { "$AWS" --endpoint-url "$ENDPOINT" --output json "$@"; }
field() { python3 -c 'import json,sys; d=json.load(sys.stdin); exec("print(" + sys.argv[1] + ")")' "$1"; }
check() { if [ "$1" != "$2" ]; then echo "FAIL: $3: expected '$2', got '$1'"; exit 1; fi; echo "ok: $3"; }

echo "client: $("$AWS" --version 2>&1)"
URL=$(aws sqs create-queue --queue-name cli-queue --attributes VisibilityTimeout=20 | field 'd["QueueUrl"]')
check "$URL" "$ENDPOINT/000000000000/cli-queue" "create-queue returns the queue URL"
SENT=$(aws sqs send-message --queue-url "$URL" --message-body "from the cli" \
  --message-attributes '{"k":{"DataType":"String","StringValue":"v"}}')
check "$(echo "$SENT" | field 'd["MD5OfMessageBody"]')" "$(printf 'from the cli' | md5sum | cut -d' ' -f1)" "send-message body digest"
GOT=$(aws sqs receive-message --queue-url "$URL" --message-attribute-names All --attribute-names All)
check "$(echo "$GOT" | field 'd["Messages"][0]["Body"]')" "from the cli" "receive-message body"
check "$(echo "$GOT" | field 'd["Messages"][0]["MessageAttributes"]["k"]["StringValue"]')" "v" "receive-message attribute"
check "$(echo "$GOT" | field 'd["Messages"][0]["MD5OfMessageAttributes"]')" "$(echo "$SENT" | field 'd["MD5OfMessageAttributes"]')" "attribute digest"
HANDLE=$(echo "$GOT" | field 'd["Messages"][0]["ReceiptHandle"]')
aws sqs delete-message --queue-url "$URL" --receipt-handle "$HANDLE"
check "$(aws sqs get-queue-attributes --queue-url "$URL" --attribute-names All | field 'd["Attributes"]["ApproximateNumberOfMessagesNotVisible"]')" "0" "deleted"

if aws sqs get-queue-url --queue-name no-such-queue >"$WORK/missing" 2>&1; then echo "FAIL: unknown queue accepted"; exit 1; fi
grep -Eq "NonExistentQueue|QueueDoesNotExist" "$WORK/missing" || { cat "$WORK/missing"; echo "FAIL: unknown queue error"; exit 1; }
echo "ok: unknown queue error: $(grep -Eo '\(([A-Za-z.]+)\)' "$WORK/missing" | head -1)"

TOPIC=$(aws sns create-topic --name cli-topic | field 'd["TopicArn"]')
QUEUE_ARN=$(aws sqs get-queue-attributes --queue-url "$URL" --attribute-names QueueArn | field 'd["Attributes"]["QueueArn"]')
aws sns subscribe --topic-arn "$TOPIC" --protocol sqs --notification-endpoint "$QUEUE_ARN" \
  --attributes RawMessageDelivery=true >/dev/null
aws sns publish --topic-arn "$TOPIC" --message "fanned out" >/dev/null
check "$(aws sqs receive-message --queue-url "$URL" | field 'd["Messages"][0]["Body"]')" "fanned out" "sns → sqs raw delivery"
echo "all cli scenarios passed"
