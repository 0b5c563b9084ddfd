#!/bin/sh
# Cuts the bundled font (src/render/fonts) down to what board pictures write:
# Basic Latin, Latin-1, Latin Extended-A (Polish, Czech), Cyrillic (Russian)
# and general punctuation, without hinting. Source: Noto Sans Regular and Bold
# (SIL Open Font License 1.1, no Reserved Font Name; the npm package
# @expo-google-fonts/noto-sans carries the TTFs). Needs fontTools
# (Debian: apt-get install python3-fonttools).
# Usage: scripts/subset-font.sh <NotoSans-Regular.ttf> <NotoSans-Bold.ttf>
set -eu
out="$(dirname "$0")/../src/render/fonts"
for pair in "$1:NotoSans-Regular.ttf" "$2:NotoSans-Bold.ttf"; do
  /usr/bin/python3 -m fontTools.subset "${pair%%:*}" \
    --unicodes="U+0020-007E,U+00A0-017F,U+0400-045F,U+2010-2027,U+2030-203A,U+2212" \
    --layout-features='kern,liga' --no-hinting --desubroutinize \
    --output-file="$out/${pair##*:}"
done
ls -l "$out"
