# Sourced by scripts/start and scripts/test: make .venv ready, then put it first on PATH.
#
# The project is installed editable with its dev extra. Reinstalling takes a while, so it
# happens only when pyproject.toml changed since the last install (a hash kept in .venv).

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

PYTHON="${PYTHON:-python3}"
VENV="$ROOT/.venv"
STAMP="$VENV/.raspis-installed"

if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    echo "Raspis needs Python 3.11 or newer as '$PYTHON' (set PYTHON=/path/to/python3)." >&2
    exit 1
fi

if [ ! -x "$VENV/bin/python" ]; then
    echo "Creating $VENV ..."
    "$PYTHON" -m venv "$VENV"
fi

wanted="$("$VENV/bin/python" -c \
    'import hashlib, sys; print(hashlib.sha256(open(sys.argv[1], "rb").read()).hexdigest())' \
    "$ROOT/pyproject.toml")"
if [ "$(cat "$STAMP" 2>/dev/null)" != "$wanted" ]; then
    echo "Installing Raspis and its dependencies into $VENV ..."
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -e "$ROOT[dev]"
    echo "$wanted" >"$STAMP"
fi

export PATH="$VENV/bin:$PATH"
export VIRTUAL_ENV="$VENV"
