"""One module per iree-dsa-tune subcommand: `add_parser(subparsers)` and `run(args)`."""
