"""`python -m lab.notebook`: make, or --check, the lessons' notebooks (lab.notebook.ipynb)."""

import sys

from lab.notebook.ipynb import main

sys.exit(main())
