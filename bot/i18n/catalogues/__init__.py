"""The nb, sv and en message catalogues, one flat JSON object per language."""
