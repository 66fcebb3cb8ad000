#!/bin/sh
# Creates Temporal's two databases on the `temporal-db` service and brings their schemas up to
# date. Runs in temporalio/admin-tools (temporal-sql-tool, schema under /etc/temporal/schema) on
# every `docker compose up`; every step is idempotent.
set -eu

: "${POSTGRES_SEEDS:?}" "${POSTGRES_USER:?}" "${POSTGRES_PWD:?}"
DB_PORT="${DB_PORT:-5432}"
SCHEMA=/etc/temporal/schema/postgresql/v12

until nc -z "$POSTGRES_SEEDS" "$DB_PORT"; do echo "waiting for $POSTGRES_SEEDS:$DB_PORT"; sleep 1; done

for pair in "temporal:temporal" "temporal_visibility:visibility"; do
  db=${pair%%:*}
  dir=${pair#*:}
  tool() { temporal-sql-tool --plugin postgres12 --ep "$POSTGRES_SEEDS" -p "$DB_PORT" -u "$POSTGRES_USER" --pw "$POSTGRES_PWD" --db "$db" "$@"; }
  tool create-database 2>/dev/null || true # exists already
  tool setup-schema -v 0.0                 # the version tables; a no-op once present
  tool update-schema -d "$SCHEMA/$dir/versioned"
done
echo "Temporal schemas are up to date"
