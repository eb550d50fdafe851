"""`python -m refbrowse` is the `browse` command."""

from refbrowse.cli.main import main

raise SystemExit(main())
