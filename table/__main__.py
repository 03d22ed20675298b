"""`python -m table`: start the classroom table (see `table.cli`)."""

from table.cli import main

raise SystemExit(main())
