#!/usr/bin/env bash
OUT="${OUT:-/tmp/shards-ab}"; mkdir -p "$OUT"; cd "$(dirname "$0")/../../.."
for i in 1 2 3; do
  for v in one two; do
    set=""; [ $v = two ] && set="loop.policy.shards=2"
    echo "start $v $i $(date +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)" >> $OUT/log.txt
    BENCH_LOOP_SET="$set" node dist/scripts/bench-loop.js --episodes 1500 --rounds 1 --json > $OUT/$v-$i.json 2> $OUT/$v-$i.txt
    echo "end $v $i rc=$? $(date +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)" >> $OUT/log.txt
  done
done
