"""Numbered schema migrations (NNNN_name.sql), applied in order by `storage.migrate`."""
