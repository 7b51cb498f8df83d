"""The ``dehla`` command: thin shells over the library, one module per subcommand."""
