"""`python -m refbrowse` is the `browse` command."""

from refbrowse.cli import main

raise SystemExit(main())
