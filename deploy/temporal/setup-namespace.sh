#!/bin/sh
# Creates the `default` namespace and registers Vigil's search attributes (the list in
# src/workflows/search-attribute-keys.ts) on the `temporal` service. Runs in temporalio/admin-tools
# (the `temporal` CLI) on every `docker compose up`; every step is idempotent.
set -eu

: "${TEMPORAL_ADDRESS:?}"
NAMESPACE="${TEMPORAL_NAMESPACE:-default}"

until temporal operator cluster health >/dev/null 2>&1; do echo "waiting for Temporal at $TEMPORAL_ADDRESS"; sleep 1; done

temporal operator namespace describe -n "$NAMESPACE" >/dev/null 2>&1 ||
  temporal operator namespace create -n "$NAMESPACE" --retention 168h

# Until the namespace registry has caught up, creating attributes answers NotFound: retry.
for attempt in $(seq 1 60); do
  temporal operator search-attribute create -n "$NAMESPACE" \
    --name VigilOrganizationId --type Keyword \
    --name VigilResourceKind --type Keyword \
    --name VigilResourceId --type Keyword \
    --name VigilSlaContract --type Keyword \
    --name VigilSlaPeriod --type Keyword \
    --name VigilSlaState --type Keyword \
    --name VigilSlaRevision --type Int \
    --name VigilAlertRule --type Keyword \
    --name VigilAlertSubject --type Keyword \
    --name VigilAlertState --type Keyword && break
  [ "$attempt" = 60 ] && exit 1
  sleep 1
done
echo "namespace $NAMESPACE and Vigil's search attributes are ready"
