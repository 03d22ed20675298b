"""The nb, nn, sv and en message catalogues, one flat JSON object per language and area."""
