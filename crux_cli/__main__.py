"""`python -m crux_cli` runs the same command as `crux`."""

from crux_cli.cli import main

if __name__ == "__main__":
    main()
