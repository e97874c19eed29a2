#!/usr/bin/env bash
# The reference sweeps: three sweeps whose result files must stay byte-identical across every
# change meant not to alter behaviour (a refactor, a speed-up). Prints one sha256 line per file;
# diff two printouts (before and after) to check.
#
#   bash scripts/reference-sweeps.sh /tmp/ref-before > before.txt
#
# 1. every bundled scenario × the ablation group × 40 seeds;
# 2. every peer framework × 4 scenarios × 60 seeds;
# 3. a served sweep of 200 seeds: examples/serve/agent.ts against `spiralbench serve`.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:?usage: reference-sweeps.sh <out-dir> [ablation,peers,served]}"
only="${2:-ablation,peers,served}"
wanted() { [[ ",$only," == *",$1,"* ]]; }
mkdir -p "$out"
bin="$PWD/bin/spiralbench.js"
cli() { node "$bin" "$@"; }

if wanted ablation; then
  scenarios="$(ls scenarios/*.yaml | xargs -n1 basename | sed 's/\.yaml$//' | paste -sd, -)"
  cli run -s "$scenarios" -a ablation -n 40 -w 2 -o "$out/ablation" --overwrite --json >/dev/null
fi

if wanted peers; then
  peers="$(cli list 2>/dev/null | grep -o '^  peer:[^ ]*' | tr -d ' ' | paste -sd, -)"
  cli run -s fetch-transform-write,refund-server-errors,search-thrash,send-email-partial-write \
    -a "$peers" -n 60 -w 2 -o "$out/peers" --overwrite --json >/dev/null
fi

if wanted served; then
rm -rf "$out/served"
  # Served from inside $out: the traces' replay commands name the folder as given, so it is the same in every printout.
  (cd "$out" && exec node "$bin" serve -s fetch-transform-write -n 200 -o served --arm ts-agent --port 0 --idle-timeout 60) \
    >"$out/serve.stdout" 2>"$out/serve.stderr" &
serve=$!
for _ in $(seq 100); do grep -q 'http://' "$out/serve.stdout" 2>/dev/null && break; sleep 0.1; done
url="$(grep -o 'http://[0-9.:]*' "$out/serve.stdout" | head -1)"
driver="$(mktemp -d)/drive.mts"
cat >"$driver" <<TS
import { runServed } from '$PWD/examples/serve/agent.ts';
let next = 1;
const worker = async () => { while (next <= 200) { const seed = next++; await runServed('$url', { seed }); } };
await Promise.all(Array.from({ length: 8 }, worker));
TS
npx tsx "$driver" || { kill "$serve"; exit 1; }
wait "$serve"
fi

for sweep in ${only//,/ }; do
  for file in runs.jsonl runs.csv summary.json traces.jsonl; do
    printf '%s  %s\n' "$(sha256sum <"$out/$sweep/$file" | cut -d' ' -f1)" "$sweep/$file"
  done
done
