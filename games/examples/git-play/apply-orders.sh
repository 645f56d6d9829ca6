#!/usr/bin/env bash
# Apply the signed order files players pushed into orders/, committing the game after each
# turn with `pbem apply --commit`. Applied files move to orders/applied/; a file that cannot
# apply moves to orders/rejected/ with the reason beside it (FILE.error). Files are retried
# until a pass makes no progress, so the order they arrive in does not matter.
#
# Usage: ./apply-orders.sh GAME.yaml      PBEM overrides the command (e.g. "python -m pbem").
set -euo pipefail
game="${1:?usage: apply-orders.sh GAME.yaml}"
read -r -a pbem <<< "${PBEM:-pbem}"
shopt -s nullglob
mkdir -p orders/applied orders/rejected

file_to() {  # file_to DIR FILE: move a (tracked or new) file
  if git ls-files --error-unmatch "$2" > /dev/null 2>&1; then git mv "$2" "$1/"; else mv "$2" "$1/"; fi
}

reject() {  # reject FILE REASON
  echo "$1: rejected: $2"
  printf '%s\n' "$2" > "orders/rejected/$(basename "$1").error"
  file_to orders/rejected "$1"
}

progress=1
while [ "$progress" = 1 ]; do
  progress=0
  for file in orders/*.txt orders/*.asc; do
    status=0
    output=$("${pbem[@]}" apply "$game" "$file" --commit 2>&1) || status=$?
    case "$status" in
      0) echo "$file: applied"; echo "$output"; file_to orders/applied "$file"; progress=1 ;;
      4) ;;                                  # does not fit now; maybe after another file
      1|3) reject "$file" "$output" ;;        # against the rules, or a bad block
      *) echo "$file: $output" >&2; exit "$status" ;;  # usage, corrupt, busy: a human looks
    esac
  done
done

for file in orders/*.txt orders/*.asc; do  # still not fitting: stale or not the sender's turn
  reject "$file" "$("${pbem[@]}" apply "$game" "$file" 2>&1 || true)"
done

git add -A orders
if ! git diff --cached --quiet; then
  git commit --quiet -m "orders: file the processed order files"
fi
