"""`python -m refbrowse.daemon`: the daemon process, started by the CLI's launcher."""

from refbrowse.daemon.bootstrap import main

raise SystemExit(main())
