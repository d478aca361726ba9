"""pre-commit's commit-msg hook: a commit's subject is at most 72 characters, the detail in its body."""

import sys
from pathlib import Path

MOST = 72

subject = Path(sys.argv[1]).read_text(encoding="utf-8").partition("\n")[0]
if len(subject) > MOST:
    sys.exit(f"the commit subject has {len(subject)} characters: at most {MOST}, the detail in the body")
