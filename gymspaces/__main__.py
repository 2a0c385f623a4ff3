"""Entry point of ``python -m gymspaces``."""

import sys

from gymspaces._demo import main

sys.exit(main(sys.argv[1:]))
