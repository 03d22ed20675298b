-- The challenge cooldown is read from storage (so it survives a restart): a host's latest
-- challenge, of any status, is one index probe.
CREATE INDEX invitations_by_host ON invitations (host_id, kind, created_at);
