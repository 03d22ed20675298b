"""Migrations with a gap, to prove the loader refuses them."""
