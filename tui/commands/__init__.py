"""One module per ``plyscope`` command, each with ``run(args) -> int``."""
