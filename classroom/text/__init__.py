"""The text of a board and a round, screen-neutral: the Discord board and the browser table
both print these lines (cards, numbers in school notation, names, the round told)."""
