#!/bin/sh
# Regenerates tests/data/okl/ from the authors' MATLAB code (see RULES.md, "Running the oracle").
#
#   tests/tools/okl_oracle/run_oracle.sh SOURCE [OUTDIR]
#
# SOURCE: a checkout of github.com/jingcoco/Online-Kernel-Learning (a directory with binary/BOGD.m),
# or a git directory of one (e.g. a bare mirror): its HEAD's binary/ is exported to a temporary
# directory first. OUTDIR defaults to tests/data/okl. Needs octave-cli (Debian: apt-get install octave).
# The fixtures were made from commit fd3d40659c9a7486312bc3936d8e138780465c0a; another commit is
# recorded in the headers (and the per-file sha256 lines show what changed).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
src=${1:?usage: run_oracle.sh SOURCE [OUTDIR]}
out=${2:-$root/tests/data/okl}
command -v octave-cli >/dev/null || { echo "run_oracle.sh: octave-cli not found (apt-get install octave)" >&2; exit 2; }
tmp=
if [ -f "$src/binary/BOGD.m" ]; then
  checkout=$src
  commit=$(git -C "$src" rev-parse HEAD 2>/dev/null || echo "${OKL_COMMIT:-unknown}")
elif commit=$(git --git-dir="$src" rev-parse HEAD 2>/dev/null); then
  tmp=$(mktemp -d)
  git --git-dir="$src" archive --format=tar HEAD binary | tar -x -C "$tmp"
  checkout=$tmp
else
  echo "run_oracle.sh: $src is neither a checkout (binary/BOGD.m) nor a git directory" >&2
  exit 2
fi
cd "$root"
# Octave 7.3 may print "error: ignoring const execution_exception& while preparing to exit" after a
# successful run (a known shutdown message, exit status 0): filtered here.
log=$(mktemp)
status=0
octave-cli --norc --no-window-system -q tests/tools/okl_oracle/okl_oracle.m "$checkout" "$out" "$commit" >"$log" 2>&1 || status=$?
grep -v 'ignoring const execution_exception' "$log" || true
rm -f "$log"
[ -n "$tmp" ] && rm -rf "$tmp"
exit $status
