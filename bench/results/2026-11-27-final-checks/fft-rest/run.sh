#!/usr/bin/env bash
# The 110 cases of the full `tfft check` (positions in missing.txt) that neither
# `2026-11-27-sharded-checks/final-full/` (8 parts, 540 s) nor `../fft/` (16 parts, 420 s)
# reached before their time limits, on 8 processes (`--cases`). Tool `device`, carry [".gpu"];
# copy `tfft`, `device-check-shards.sh` and missing.txt to .gpu/. Results in $OUT/results.tgz.
set -u
D=$(mktemp -d)
OUT=$D bash .gpu/device-check-shards.sh 8 540 --cases "$(cat .gpu/missing.txt)" > /dev/null 2>&1
tar czf $OUT/results.tgz -C $D .
cat $D/check-summary.txt
