-- Audit streams (docs/integrations.md, "Audit streams"): an organization's audit trail, its whole
-- subtree's, sent as it is written to a log system of its own: https (signed like webhooks),
-- Splunk HEC or Datadog's logs intake. Tokens and the https secret are sealed (apps/server/src/sealed.ts).
--
-- The entries leave through the shared outbox (migration 0076), kind 'audit_stream', payload
-- {stream_id, entry_id, seq}: the audit entry's own INSERT writes one row per stream of an
-- organization whose path is the entry's or an ancestor's (apps/server/src/modules/audit/queries.ts,
-- insertAuditEntry). `seq` (audit_stream_outbox_seq) orders a stream's rows: the worker takes only
-- the oldest pending row of each stream (later ones wait behind a failing one) and sends it with
-- the rows that follow it (apps/server/src/modules/audit-streams/worker.ts).
--
-- failing: the last attempt failed (last_error says why) and the stream has not delivered since;
-- last_delivered_at: the time of the last entry it delivered. A paused stream keeps its rows.

CREATE TABLE audit_streams (
  id                 uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id    uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  kind               text NOT NULL CHECK (kind IN ('https', 'splunk_hec', 'datadog')),
  url                text NOT NULL,
  description        text,
  token_sealed       text,                      -- splunk_hec, datadog: the receiver's token
  secret_sealed      text,                      -- https: whsec_… (Standard Webhooks)
  paused             boolean NOT NULL DEFAULT false,
  failing            boolean NOT NULL DEFAULT false,
  last_delivered_at  timestamptz,
  last_error         text,
  created_by         uuid REFERENCES users(id) ON DELETE SET NULL,
  created_at         timestamptz NOT NULL DEFAULT now(),
  updated_at         timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_streams_organization_idx ON audit_streams (organization_id);

CREATE SEQUENCE audit_stream_outbox_seq;

-- a stream's pending rows in their order: its head (the worker's claim) and the rows that follow it
CREATE INDEX outbox_audit_stream_idx ON outbox ((payload->>'stream_id'), ((payload->>'seq')::bigint))
  WHERE kind = 'audit_stream' AND state = 'pending';
