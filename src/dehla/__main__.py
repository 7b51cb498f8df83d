from dehla.cli.main import main

raise SystemExit(main())
