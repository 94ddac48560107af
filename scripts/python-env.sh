#!/usr/bin/env bash
# The project-local Python environment for the `activity` executor's helper library and its tests:
# .teamrun/venv with temporalio, the teamrun-activity package (editable), pytest and the
# OpenTelemetry packages of its tracing module. Nothing is installed globally. Idempotent: when the
# venv already has what the package asks for, it returns at once (a stamp file records the
# pyproject.toml it was built from).
# Prints the venv's python on its last line.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="$root/.teamrun/venv"
pkg="$root/python/teamrun_activity"
stamp="$venv/.teamrun-stamp"
python=${TEAMRUN_PYTHON:-python3}

want="$(cat "$pkg/pyproject.toml")"
if [ -x "$venv/bin/python" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  echo "$venv/bin/python"
  exit 0
fi

command -v "$python" >/dev/null || { echo "python-env: no $python on PATH (Python 3.10+ is needed)" >&2; exit 1; }
"$python" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)' \
  || { echo "python-env: $("$python" --version 2>&1) is too old (3.10+ is needed)" >&2; exit 1; }
mkdir -p "$root/.teamrun"
[ -x "$venv/bin/python" ] || "$python" -m venv "$venv" >&2
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -e "$pkg[test,tracing]" >&2
printf '%s' "$want" > "$stamp"
echo "$venv/bin/python"
