"""Two migrations with one number, to prove the loader refuses them."""
